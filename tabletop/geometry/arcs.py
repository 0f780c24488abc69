"""Where a charger's front rank stands relative to a target's arcs.

Coordinates are inches, origin bottom-left, y up.  The arcs are those of
``geometry.ranks.UnitFormation.arc_of``: the four quadrants of the target cut
by lines at 45 degrees from its corners (measurements.csv TOW "Arcs"), a
point within the map's contact tolerance of a line counting as on it
(``ranks.ARC_ON_LINE``).

Named default
-------------
ARC_MODEL_POINT = "base centre"
    A model stands in the arc its base's centre is in.
"""

from __future__ import annotations

from tabletop.geometry.ranks import SIDES

__all__ = ["ARC_MODEL_POINT", "front_rank_arcs"]

ARC_MODEL_POINT = "base centre"


def front_rank_arcs(geo, charger: str, target: str) -> dict[str, list[str]]:
    """``{arc: [model ids]}`` of the charger's front-rank models by the target arc each
    stands in (ARC_MODEL_POINT), every arc listed ("front", "left", "right", "rear"),
    models in the charger's left-to-right order.

    Raises
    ------
    UnknownIdError
        When either unit has no models on the table.
    """
    rows = geo.formation(charger).rank_rows()
    form = geo.formation(target)
    out: dict[str, list[str]] = {s: [] for s in SIDES}
    for mid in rows[0] if rows else []:
        m = geo.model(mid)
        out[form.arc_of(m.x, m.y)].append(mid)
    return out
