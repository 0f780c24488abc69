"""What each Step of the Fight phase asks the renderer to draw (``EventLog.step`` draw keys).

Coordinates are inches, origin bottom-left, y up.  The keys follow the
generic drawers of ``tabletop.render.steps`` (all optional):

``arrows``        {model id: [[x, y], ...]}  each moved model's path, start to end
``reach``         {model id: [x, y, inches]}  how far each model that may move can
                  go from its start (3", 12.03 / 12.08)
``lines``         [[[x, y], [x, y]], ...]  from each moved model's end to the
                  closest model (or objective) of its closest target
``highlight``     {model id: colour}  models within engagement range of an enemy model
``selected_unit`` unit id  the unit selected to fight (or moving)
``casualties``    [[x, y, base, facing], ...]  models removed in this step
``ghosts``        {model id: [x, y, facing]}  where moved models started
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.moving import MoveOutcome


ENGAGED_COLOUR = "amber"


def engaged_highlight(geo: Geometry) -> dict[str, str]:
    """Every model within engagement range of an enemy model: ``{model id: colour}``."""
    return {m: ENGAGED_COLOUR for m in sorted({m for pair in geo.engaged_model_pairs for m in pair})}


def casualty_keys(dead: tuple[Any, ...]) -> dict[str, Any]:
    """``casualties`` for the models removed since the last step (``(model, player)`` pairs)."""
    if not dead:
        return {}
    return {"casualties": [[m.x, m.y, m.base.text, m.facing_deg] for m, _ in dead]}


def move_keys(before: Battlefield, outcome: MoveOutcome, after: Battlefield) -> dict[str, Any]:
    """``arrows``, ``reach``, ``lines`` and start ``ghosts`` for one move (``after``: the
    table after it)."""
    paths = outcome.paths
    max_d = outcome.plan.spec.max_distance if outcome.plan is not None else 0.0
    keys: dict[str, Any] = {"selected_unit": outcome.unit}
    keys["arrows"] = {m: [list(p) for p in path] for m, path in paths.items()}
    keys["reach"] = {m: [xy[0], xy[1], max_d] for m, xy in outcome.start.items()
                     if m in paths or _may_move(outcome, m)}
    keys["ghosts"] = {m: [*before.model(m).at, before.model(m).facing_deg] for m in paths}
    lines = []
    closest = getattr(outcome.plan, "closest", {}) or {}
    for m in paths:
        at = _position(after, closest.get(m))
        if at is not None:
            lines.append([list(paths[m][-1]), list(at)])
    keys["lines"] = lines
    return keys


def _may_move(outcome: MoveOutcome, model_id: str) -> bool:
    """Models the text lets move: not those in base contact with an enemy (pile-in, ongoing)."""
    return model_id not in outcome.fixed


def _position(state: Battlefield, any_id: str | None) -> tuple[float, float] | None:
    if not any_id:
        return None
    try:
        return state.model(any_id).at
    except KeyError:
        pass
    try:
        return state.objective(any_id).at
    except KeyError:
        return None
