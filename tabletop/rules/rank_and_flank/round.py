"""One round of one engagement: its table of rows (plan, blows), casualties, score, break tests.

rank-and-flank-combat.txt "Engagements": every unit attacks at the same
time (attack rolls, then damage saves); casualties are removed only after
everyone has attacked, so models killed this round still strike back; then
each side adds up its combat score and every unit on the losing side takes
a break test.

This module changes no state: ``resolve_round`` returns what happened, and
``fight.py`` applies it (removing models, fleeing, turning to face).  The
odds (``odds.py``) run the very same ``resolve_round`` with enumerated or
random dice.

Contact facts are those of the round: which side each enemy touches, the
flank and rear bonuses, disrupted (and so the rank bonus) and surrounded are
read from ``ctx.sides``, the one snapshot of the contacts taken when the blows
are struck (after the ``OPEN`` rows, before any removal), never from the
contacts left once casualties are removed.  Ranks themselves are counted from
the models left (``forms_after``).

Order of the dice (tests script ``FixedDice`` in this order): units in
engagement order (``Geometry.engagements``: sorted ids), each unit's attack
groups in the order front, lance, flank, support, then commanders and duels
(a group is one attacking unit against one target with one profile): all
its attack rolls, any re-rolls, then the target's damage saves and any
re-rolls; then the losing units' break tests (or crumbles) in engagement order.

The round as a table of rows (``steps.RoundStep``): ``round_steps(rules)``
composes it for a map - this ruleset's ``BASE_ROUND_STEPS`` (``who_attacks``
in the ``PLAN`` stage, ``strike`` in the ``BLOWS`` stage), and with
``[rules] challenges = "character"`` the character challenge's rows
(``challenges.character_steps.CHARACTER_ROUND_STEPS``): issue the challenge
(``OPEN``), point the duellists at each other (``PLAN``, after
``who_attacks``), their blows (``BLOWS``, after ``strike``) and carry the
challenge on (``CLOSE``).  A ``PLAN`` row may edit ``ctx.attacks`` (e.g.
point two characters at each other with ``target_model``), ``ctx.duels``,
put models in ``ctx.excluded`` (they do not attack) or ``ctx.protected`` (no
wound from a unit's pool reaches them: character-challenge.txt ¶5) and
append combat score items to ``ctx.score_extra``.  The table is chosen once
per round (``plan_round`` keeps it on ``ctx.steps``), never registered at
import time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.geometry.ranks import UnitFormation, UnitSides
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank.attacks import Attack, first_round, has_charge_bonus, plan_unit
from tabletop.rules.rank_and_flank.breaks import BreakResult, break_test
from tabletop.rules.rank_and_flank.commanders import plan_commanders
from tabletop.rules.rank_and_flank.rolls import hit_spec, save_spec, strike
from tabletop.rules.rank_and_flank.score import Score, combat_score
from tabletop.rules.rank_and_flank.steps import BLOWS, PLAN, RoundStep, in_stage
from tabletop.rules.rank_and_flank.wounds import Casualties, allocate

KIND_ORDER = {"front": 0, "lance": 1, "flank": 2, "support": 3, "commander": 4, "duel": 5}


@dataclass
class RoundContext:
    """Everything one engagement's round knows before the dice are rolled.

    ``units`` the engagement (ids, in order); ``forms``/``sides`` the unit
    geometry at the start of the round; ``attacks`` who attacks whom with how
    many dice; ``duels`` pairs of commander model ids; ``excluded`` models
    that do not attack; ``score_extra`` extra combat score items
    ``{player, unit, source, score, rule}``; ``notes`` why models do not attack;
    ``steps`` the round's table of rows (``round_steps``), chosen when it is planned.
    """

    state: Battlefield
    geo: Geometry
    units: list[str]
    forms: dict[str, UnitFormation]
    sides: dict[str, UnitSides]
    first_round: bool
    attacks: list[Attack]
    duels: list[tuple[str, str]]
    notes: list[str]
    decisions: Decisions
    log: EventLog | None = None
    dice: Dice | None = None
    excluded: set[str] = field(default_factory=set)
    protected: set[str] = field(default_factory=set)
    score_extra: list[dict] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    steps: tuple[RoundStep, ...] = ()

    def players(self) -> list[str]:
        out: list[str] = []
        for u in self.units:
            p = self.state.unit(u).player
            if p not in out:
                out.append(p)
        return out


@dataclass
class Blows:
    """Wounds struck this round: to each unit's pool, straight to commanders
    (duels), caused by each attacking unit (combat score), and one dict per
    roll group for reports and drawing."""

    pools: dict[str, int] = field(default_factory=dict)
    duel: dict[str, int] = field(default_factory=dict)
    caused: dict[str, int] = field(default_factory=dict)
    groups: list[dict] = field(default_factory=list)


@dataclass
class RoundOutcome:
    """What a round did: casualties and living models per unit, who stepped
    up into gaps (``steps`` {unit: [(mover, dead)]}), the formations and
    sides once casualties are removed (``sides_after``: for drawing and the
    way a fleeing unit runs, not for the score), the score and any break
    tests.  ``sides_at_blows`` are the contacts when the blows were struck
    (``ctx.sides``): the score and the surrounded test read these."""

    ctx: RoundContext
    blows: Blows
    casualties: dict[str, Casualties]
    alive: dict[str, set[str]]
    steps: dict[str, list[tuple[str, str]]]
    forms_after: dict[str, UnitFormation]
    sides_after: dict[str, UnitSides]
    score: Score
    breaks: list[BreakResult] = field(default_factory=list)

    @property
    def sides_at_blows(self) -> dict[str, UnitSides]:
        """The contacts as they stood when the blows were struck (``ctx.sides``)."""
        return self.ctx.sides


def plan_round(state: Battlefield, geo: Geometry, units: list[str], decisions: Decisions,
               log: EventLog | None = None, dice: Dice | None = None,
               steps: tuple[RoundStep, ...] | None = None) -> RoundContext:
    """The round of the engagement ``units`` planned on ``state`` (``geo`` its snapshot):
    the ``PLAN`` rows of ``steps`` (None: ``round_steps(state.rules)``) run in order on a
    fresh ``RoundContext`` - who attacks, commanders and duels (``who_attacks``), then
    any challenge's rows.  The table is kept on ``ctx.steps`` for the blows.

    Raises
    ------
    MapValidationError
        When a unit lacks a stat the rules read (``profiles.check_profiles``).
    """
    P.check_profiles(state, units)
    steps = round_steps(state.rules) if steps is None else tuple(steps)
    state = P.Indexed(state)
    ctx = RoundContext(state, geo, units, {u: geo.formation(u) for u in units},
                       {u: geo.sides(u) for u in units}, first_round(state, units), [], [], [],
                       decisions, log, dice, steps=steps)
    for row in in_stage(steps, PLAN):
        row.run(ctx)
    return ctx


def plan_attacks(ctx: RoundContext) -> None:
    """Row ``who_attacks`` (rank-and-flank-combat.txt "Who attacks"; "Commanders"): every
    unit's attacks by the side it fights from (``attacks.plan_unit``), then commanders and
    duels (``commanders.plan_commanders``, which may ask ``ctx.decisions``)."""
    for u in ctx.units:
        a, n = plan_unit(ctx.state, ctx.geo, u, ctx.first_round)
        ctx.attacks += a
        ctx.notes += n
    ca, duels, cn = plan_commanders(ctx.state, ctx.geo, ctx.units, ctx.first_round, ctx.decisions)
    ctx.attacks += ca
    ctx.duels += duels
    ctx.notes += cn


def attack_specs(state: Battlefield, attacker, defender, first_round: bool) -> tuple:
    """(HitSpec, SaveSpec, lethal) for ``attacker``'s blows at ``defender`` (models): Skill
    against Skill with the to-hit modifiers and re-rolls, Power (with a charge bonus in the first
    round) against Defense, Halberd, Poisoned Attacks, Lethal Strikes.  Used by the round and by
    character challenges."""
    m, d = attacker, defender
    power = P.model_stat(m, "Power")
    if first_round and has_charge_bonus(state, m.unit_id):
        power += P.charge_power(m)
    reroll = "misses" if P.has(m, P.REROLL_MISSES) else ("ones" if P.has(m, P.REROLL_ONES) else None)
    mod = P.to_hit_modifier(m) - (1 if P.has(d, P.HARD_TO_HIT) else 0)
    hit = hit_spec(P.model_stat(m, "Skill"), P.model_stat(d, "Skill"), mod, reroll,
                   P.has(d, P.FORCE_REROLL_HITS))
    save = save_spec(power, P.model_stat(d, "Defense"), P.has(m, P.HALBERD), P.has(m, *P.POISONED))
    lethal = P.has(m, P.LETHAL) and P.model_stat(d, "Wounds") > 1
    return hit, save, lethal


def _spec_key(ctx: RoundContext, a: Attack) -> tuple:
    state = ctx.state
    m = state.model(a.model)
    if a.target_model is not None:
        d = state.model(a.target_model)
    else:
        d = P.retinue_profile(state, a.target_unit)
    hit, save, lethal = attack_specs(state, m, d, ctx.first_round)
    return (a.unit, a.target_unit, a.target_model, hit, save, lethal)


def roll_groups(ctx: RoundContext) -> dict[tuple, list[Attack]]:
    """The attacks grouped into rolls, in dice order (cached on the context
    for as long as its attacks and exclusions stay the same)."""
    live = [a for a in ctx.attacks if a.model not in ctx.excluded and a.dice > 0]
    stamp = tuple((id(a), a.dice, a.target_unit, a.target_model) for a in live)
    cached = ctx.extra.get("_groups")
    if cached is not None and cached[0] == stamp:
        return cached[1]
    groups: dict[tuple, list[Attack]] = {}
    for a in sorted(live, key=lambda a: (ctx.units.index(a.unit), KIND_ORDER.get(a.kind, 9))):
        groups.setdefault(_spec_key(ctx, a), []).append(a)
    ctx.extra["_groups"] = (stamp, groups)
    return groups


def _group_facts(ctx: RoundContext, key: tuple, members: list[Attack]) -> dict:
    """What a roll group says about itself before the dice (cached with the groups)."""
    unit, target, target_model, hit, save, lethal = key
    kinds: dict[str, int] = {}
    for a in members:
        kinds[a.kind] = kinds.get(a.kind, 0) + a.dice
    return {"unit": unit, "player": ctx.state.unit(unit).player, "target": target,
            "target_model": target_model, "models": [a.model for a in members],
            "dice": sum(a.dice for a in members), "by_kind": kinds,
            "to_hit": f"{hit.target}+", "save": f"{save.target}+", "lethal": lethal,
            "defender": ctx.state.unit(target).player,
            "label": f"{target_model or target} ({unit})",
            "rule": C.LETHAL if lethal else C.SIMULTANEOUS}


def strike_all(ctx: RoundContext, dice: Dice) -> Blows:
    """Every blow of the round, simultaneously: the ``BLOWS`` rows of ``ctx.steps`` in
    order with ``dice`` (``strike``: the roll groups, see the module docstring for the
    order; then any challenge's blows).  Nothing is removed here."""
    blows = Blows()
    if ctx.dice is None:
        ctx.dice = dice            # rows that roll later read the round's dice from the context
    for row in in_stage(ctx.steps, BLOWS):
        row.run(ctx, blows, dice)
    return blows


def strike_groups(ctx: RoundContext, blows: Blows, dice: Dice) -> None:
    """Row ``strike`` (rank-and-flank-combat.txt "Engagements", "Lethal Strikes"): each roll
    group's attack rolls and damage saves; its wounds go to the target unit's pool (or
    straight to a commander in a duel) and count as caused by the attacking unit."""
    groups = roll_groups(ctx)
    facts = ctx.extra.get("_group_facts")
    if facts is None or facts[0] is not groups:
        facts = (groups, [_group_facts(ctx, k, m) for k, m in groups.items()])
        ctx.extra["_group_facts"] = facts
    for key, f in zip(groups, facts[1]):
        unit, target, target_model, hit, save, lethal = key
        hits, unsaved = strike(dice, f["dice"], hit, save, attacker=f["player"],
                               defender=f["defender"], label=f["label"])
        wounds = unsaved * (2 if lethal else 1)
        if target_model is not None:
            blows.duel[target_model] = blows.duel.get(target_model, 0) + wounds
        else:
            blows.pools[target] = blows.pools.get(target, 0) + wounds
        blows.caused[unit] = blows.caused.get(unit, 0) + wounds
        g = {k: v for k, v in f.items() if k not in ("defender", "label")}
        g.update(hits=hits, unsaved=unsaved, wounds=wounds)
        blows.groups.append(g)
        if ctx.log is not None:
            ctx.log.emit("blows", g["rule"], **{k: v for k, v in g.items() if k != "rule"})


def group_branches(ctx: RoundContext) -> int:
    """For the exact odds' count of histories: ``strike`` branches once per roll group on
    how many of its attacks wound (0..n), so the product of (dice + 1) over the groups."""
    n = 1
    for members in roll_groups(ctx).values():
        n *= sum(a.dice for a in members) + 1
    return n


BASE_ROUND_STEPS: tuple[RoundStep, ...] = (
    RoundStep("who_attacks", PLAN, "Who attacks", C.WHO_ATTACKS, plan_attacks),
    RoundStep("strike", BLOWS, "Blows struck simultaneously", C.SIMULTANEOUS, strike_groups,
              branches=group_branches),
)
"""The rank-and-flank round's own rows (every map)."""


def round_steps(rules) -> tuple[RoundStep, ...]:
    """The round's table of rows for a map whose ``[rules]`` are ``rules`` (a ``RulesConfig``).

    ``BASE_ROUND_STEPS``, and only when ``rules.challenges == "character"`` the character
    challenge's rows (``challenges.character_steps.CHARACTER_ROUND_STEPS``,
    character-challenge.txt ¶1-¶7), each after the base row of its stage.  The same
    ``rules`` always gives an equal table, whatever was imported before.
    """
    if rules.challenges != "character":
        return BASE_ROUND_STEPS
    # imported here: the challenge rows read this package's clauses and roll code
    from tabletop.rules.challenges.character_steps import CHARACTER_ROUND_STEPS
    return BASE_ROUND_STEPS + CHARACTER_ROUND_STEPS


def casualties(ctx: RoundContext, blows: Blows) -> tuple[dict[str, Casualties], dict[str, set[str]]]:
    """Each unit's wound pool applied (after everyone has attacked)."""
    alive = {u: set(ctx.forms[u].placements) for u in ctx.units}
    out = {}
    for u in ctx.units:
        duel = {m: w for m, w in blows.duel.items() if m in alive[u]}
        shielded = alive[u] & ctx.protected
        if not shielded:
            out[u] = allocate(ctx.state, ctx.forms[u], alive[u], blows.pools.get(u, 0), duel)
            continue
        # protected models take their duel wounds only, never the pool's
        cas = allocate(ctx.state, ctx.forms[u], alive[u], 0, duel)
        rest = alive[u] - shielded
        out[u] = allocate(ctx.state, ctx.forms[u], rest, blows.pools.get(u, 0), None, cas)
        alive[u] = rest | (alive[u] & shielded)
    return out, alive


def after_casualties(ctx: RoundContext, cas: dict[str, Casualties], alive: dict[str, set[str]]):
    """Steps up into gaps (``UnitFormation.step_up``), the formations and the
    sides touched once the casualties are removed."""
    steps = {u: ctx.forms[u].step_up(cas[u].removed, alive[u]) for u in ctx.units}
    forms = {u: ctx.forms[u].after_steps(steps[u]) for u in ctx.units}
    stand_ins = {dead: mover for u in ctx.units for mover, dead in steps[u]}
    every = set().union(*alive.values()) if alive else set()
    sides = {u: ctx.sides[u].restricted(every, stand_ins) for u in ctx.units}
    return steps, forms, sides


def resolve_round(ctx: RoundContext, dice: Dice, break_tests: bool = True) -> RoundOutcome:
    """Blows, casualties, combat score and (optionally) break tests; no state change."""
    blows = strike_all(ctx, dice)
    cas, alive = casualties(ctx, blows)
    steps, forms_after, sides_after = after_casualties(ctx, cas, alive)
    # the score reads the contacts of the round, not those left after the casualties
    score = combat_score(ctx.state, ctx.units, forms_after, ctx.sides, blows.caused, alive,
                         ctx.score_extra)
    out = RoundOutcome(ctx, blows, cas, alive, steps, forms_after, sides_after, score)
    if break_tests and score.winner is not None:
        for u in ctx.units:
            if ctx.state.unit(u).player in score.losers and alive[u]:
                out.breaks.append(break_test(ctx.state, u, forms_after[u], alive[u],
                                             score.difference, dice))
    return out
