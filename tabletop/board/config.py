"""Ruleset settings a map may override in ``[rules]`` (MAPFORMAT.md).

The fight-phase presets: ``"11th"`` (the default; engagement range 2" per
core rules 03.04, coherency 2" of one other model and every model within 9"
of every other, 03.03) and ``"10th"`` (engagement range 1", two others within
2" in units of 7+, no spread).  Rank-and-flank engages by base contact and
keeps coherency by formation.  Distances are inches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

RULESETS = ("fight-phase", "rank-and-flank")
EDITIONS = ("11th", "10th")
CHALLENGE_OPTIONS = {"fight-phase": ("gambit",), "rank-and-flank": ("character",)}

# the scripted [[decisions]] choice names each ruleset asks for (a typo is a map error)
_GAMBIT_CHOICES = ("issue_challenge", "accept_challenge", "disgrace", "gambit", "feint", "weapon",
                   "prolong", "withdraw")
DECISION_CHOICES: dict[str, tuple[str, ...]] = {
    "fight-phase": ("pile_in", "consolidate", "fight", "fight_type", "attack_target",
                    "pile_in_targets", "consolidation_targets") + _GAMBIT_CHOICES,
    "rank-and-flank": ("commander_target", "issue_challenge", "accept_challenge", "disgrace"),
}

#: named default (fight-phase.txt 12.03, 12.08 "one or more"): how many target selections the
#: default policy tries, nearest first, before it says a pile-in or engaging consolidation has
#: no legal move (``rules/fight_phase/targets.py``).  7 is every selection of up to three
#: candidate units (3 singles, 3 pairs, 1 three); each try is one run of the move solver.
TARGET_SELECTIONS_TRIED = 7

# the value of engagement_range / coherency_range that means "base contact" / "formation"
CONTACT = "contact"
FORMATION = "formation"


@dataclass(frozen=True)
class RulesConfig:
    """Resolved settings for one map.

    Attributes (inches unless stated)
    ----------
    ruleset : "fight-phase" | "rank-and-flank"
    edition : "11th" | "10th" (fight-phase preset; ignored by rank-and-flank)
    contact_tolerance : gap that still counts as base contact; also the one
        tolerance every "within", "closer" and "in base contact" comparison uses.
    engagement_range : edge-to-edge distance that counts as engaged; 0.0 means
        base contact (rank-and-flank).
    coherency_range : None means "formation" (rank-and-flank: each model in
        base contact with another of its unit).
    coherency_neighbours, coherency_neighbours_7plus : how many other models
        each model needs within coherency_range (units of 1-6 / 7+ models).
    coherency_spread : every model within this of every other, or None (off).
    pile_in_distance, pile_in_target_range, consolidate_distance : 12.03, 12.08.
    objective_range : from the marker's edge.
    challenges : None | "gambit" | "character".
    target_selections_tried : fight-phase named default ``TARGET_SELECTIONS_TRIED``:
        how many target selections the default policy tries for a pile-in or
        consolidation move before it reports no legal move (``targets.py``).
    rank_min_models : rank-and-flank named default: how many models make a
        rank that counts for the rank bonus and break tests.
    written : the keys the map file set, kept so saving writes only those.
    """

    ruleset: str = "fight-phase"
    edition: str = "11th"
    contact_tolerance: float = 0.02
    engagement_range: float = 2.0
    coherency_range: float | None = 2.0
    coherency_neighbours: int = 1
    coherency_neighbours_7plus: int = 1
    coherency_spread: float | None = 9.0
    pile_in_distance: float = 3.0
    pile_in_target_range: float = 5.0
    consolidate_distance: float = 3.0
    objective_range: float = 3.0
    challenges: str | None = None
    target_selections_tried: int = TARGET_SELECTIONS_TRIED
    rank_min_models: int = 5
    written: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def tol(self) -> float:
        """The one comparison tolerance (``contact_tolerance``), inches."""
        return self.contact_tolerance

    @property
    def engages_by_contact(self) -> bool:
        return self.engagement_range <= 0.0

    def coherency_needed(self, unit_size: int) -> int:
        """Other models each model needs within ``coherency_range`` (03.03)."""
        return self.coherency_neighbours_7plus if unit_size >= 7 else self.coherency_neighbours


PRESETS: dict[tuple[str, str], dict[str, Any]] = {
    ("fight-phase", "11th"): dict(
        engagement_range=2.0, coherency_range=2.0, coherency_neighbours=1,
        coherency_neighbours_7plus=1, coherency_spread=9.0,
    ),
    ("fight-phase", "10th"): dict(
        engagement_range=1.0, coherency_range=2.0, coherency_neighbours=1,
        coherency_neighbours_7plus=2, coherency_spread=None,
    ),
    ("rank-and-flank", "11th"): dict(
        engagement_range=0.0, coherency_range=None, coherency_neighbours=1,
        coherency_neighbours_7plus=1, coherency_spread=None,
    ),
}
PRESETS[("rank-and-flank", "10th")] = PRESETS[("rank-and-flank", "11th")]

OVERRIDABLE = tuple(
    f.name for f in fields(RulesConfig) if f.name not in ("ruleset", "written")
)


def make_config(ruleset: str, overrides: dict[str, Any] | None = None) -> RulesConfig:
    """Build the resolved settings for ``ruleset`` with the map's ``[rules]``.

    ``engagement_range = "contact"`` and ``coherency_range = "formation"`` are
    accepted as written in MAPFORMAT.md's table; ``coherency_spread = "off"``
    (or ``false``) turns the spread off.

    Raises
    ------
    ValueError
        For an unknown ruleset or edition (message shows the input).
    """
    overrides = dict(overrides or {})
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}: use one of {', '.join(RULESETS)}")
    edition = overrides.get("edition", "11th")
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: use \"11th\" or \"10th\"")
    values: dict[str, Any] = dict(PRESETS[(ruleset, edition)])
    for key, value in overrides.items():
        if key == "engagement_range" and value == CONTACT:
            value = 0.0
        elif key == "coherency_range" and value == FORMATION:
            value = None
        elif key == "coherency_spread" and value in ("off", False):
            value = None
        values[key] = value
    values["edition"] = edition
    return replace(RulesConfig(ruleset=ruleset), **values, written=overrides)
