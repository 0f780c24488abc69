"""Break tests and crumbling (rank-and-flank-combat.txt "Break tests").

Every unit on the losing side takes a break test: it passes on 2d6 <=
Discipline + ranks - score difference.  A unit with a living commander uses
the commander's Discipline; Fearless units ignore the score difference;
Reanimated, Demonic and Construct units never test but crumble, losing D3
wounds.

Named defaults
--------------
BREAK_TEST_RANKS = "ranks behind the front, as the rank bonus, disrupted or not"
    "ranks" is the unit's count of ranks behind the front rank that hold at
    least ``profiles.rank_models`` models, up to MAX_RANK_BONUS (2): the same
    ranks a player counts for the rank bonus.  Being disrupted takes the
    ranks away from the combat score only (the text says so of the score),
    not from the break test.
DIFFERENCE = "to the winning side's total"
    The penalty is the winning total minus the unit's side's total.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabletop.board.state import Battlefield
from tabletop.geometry.ranks import UnitFormation
from tabletop.rules.dice import Dice
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P

BREAK_TEST_RANKS = "ranks behind the front, as the rank bonus, disrupted or not"


@dataclass
class BreakResult:
    """One losing unit's test: ``kind`` "test" or "crumble".

    For a test: ``dice``, ``total``, ``discipline`` (and whose: ``discipline_from``, a
    living model's id, or the unit's id for its rank-and-file profile when only disgraced
    models are left),
    ``ranks``, ``difference`` (0 when Fearless), ``target`` and ``passed``.
    For a crumble: ``wounds`` (the D3).
    """

    unit: str
    player: str
    kind: str
    dice: list[int]
    total: int = 0
    discipline: int = 0
    discipline_from: str = ""
    ranks: int = 0
    difference: int = 0
    fearless: bool = False
    target: int = 0
    passed: bool = True
    wounds: int = 0

    def to_event(self) -> dict:
        if self.kind == "crumble":
            return {"unit": self.unit, "player": self.player, "test": "crumble",
                    "dice": self.dice, "wounds": self.wounds}
        return {"unit": self.unit, "player": self.player, "test": "break", "dice": self.dice,
                "total": self.total, "discipline": self.discipline,
                "discipline_from": self.discipline_from, "ranks": self.ranks,
                "difference": self.difference, "fearless": self.fearless,
                "target": self.target, "passed": self.passed,
                "result": "holds" if self.passed else "breaks"}


def discipline_of(state: Battlefield, unit_id: str, alive: set[str]) -> tuple[int, str]:
    """The Discipline the unit tests on and where it comes from (``discipline_from``): a living
    commander's first; else the unit's rank-and-file (``profiles.retinue_profile``), both
    named by model id.  A model that retired in disgrace from a challenge lends none that
    turn (character-challenge.txt ¶3), not even as the last model left: the unit then tests
    on its rank-and-file's own Discipline (the profile of the models it was raised with),
    and as none of those models is on the table any more the source is the unit's id, never
    a removed model's."""
    unit = state.unit(unit_id)
    for m in unit.models:
        if m.id in alive and (m.role or "") == "commander" and "disgraced" not in m.status:
            return P.model_stat(m, "Discipline"), m.id
    lenders = {m.id for m in unit.models if m.id in alive and "disgraced" not in m.status}
    if lenders:
        m = P.retinue_profile(state, unit_id, lenders)
    else:       # only disgraced models left: the unit's own rank-and-file profile
        troops = {m.id for m in unit.models if "disgraced" not in m.status}
        m = P.retinue_profile(state, unit_id, troops or None)
        return P.model_stat(m, "Discipline"), unit_id
    return P.model_stat(m, "Discipline"), m.id


def break_setup(state: Battlefield, unit_id: str, form: UnitFormation, alive: set[str],
                difference: int) -> BreakResult:
    """What one losing unit's test needs before the dice: a crumble (``kind`` "crumble", no
    wounds yet) or a test with its ``target`` (2D6 <= target passes; ``dice`` empty)."""
    return with_difference(break_base(state, unit_id, form, alive), difference)


def break_base(state: Battlefield, unit_id: str, form: UnitFormation, alive: set[str]
               ) -> BreakResult:
    """``break_setup`` before the score difference is known (what the unit's living models
    give: a crumble, or Discipline, ranks and Fearless, with ``target`` Discipline + ranks);
    ``with_difference`` completes it."""
    player = state.unit(unit_id).player
    if P.unit_has(state, unit_id, *P.CRUMBLES, alive=alive):
        return BreakResult(unit_id, player, "crumble", [], passed=True)
    disc, source = discipline_of(state, unit_id, alive)
    ranks = min(form.full_ranks_behind(P.rank_models(state, unit_id), alive), P.MAX_RANK_BONUS)
    fearless = P.unit_has(state, unit_id, P.FEARLESS, alive=alive)
    return BreakResult(unit_id, player, "test", [], 0, disc, source, ranks, 0, fearless,
                       disc + ranks, True)


def with_difference(base: BreakResult, difference: int) -> BreakResult:
    """``base`` (``break_base``) with the score ``difference`` the unit lost by: a test's
    target is Discipline + ranks - difference (the difference is 0 when Fearless); a crumble
    as it is (a copy)."""
    if base.kind == "crumble":
        return replace(base, dice=[])
    diff = 0 if base.fearless else difference
    return replace(base, dice=[], difference=diff, target=base.discipline + base.ranks - diff)


def roll_break(setup: BreakResult, dice: Dice) -> BreakResult:
    """Roll ``setup``'s test with ``dice`` (2D6, or the crumble's D3), logging the roll."""
    r = setup
    if r.kind == "crumble":
        w = dice.d3(purpose=f"crumble: {r.unit}", rule=C.CRUMBLE, player=r.player)
        return replace(r, dice=[w], wounds=w)
    target = r.target
    mods = {"ranks": r.ranks, "score difference": -r.difference}
    faces = dice.roll(2, purpose=f"break test: {r.unit}", rule=C.BREAK_TESTS, player=r.player,
                      modifiers=mods, target=f"<= {target}",
                      result=lambda f: "holds" if sum(f) <= target else "breaks")
    total = sum(faces)
    return replace(r, dice=list(faces), total=total, passed=total <= target)


def break_test(state: Battlefield, unit_id: str, form: UnitFormation, alive: set[str],
               difference: int, dice: Dice) -> BreakResult:
    """Test one losing unit (or roll its crumble).  Rolls 2D6 (or a D3) with ``dice``."""
    return roll_break(break_setup(state, unit_id, form, alive, difference), dice)
