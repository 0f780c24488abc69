"""One engagement's round: its table of rows (open, plan, close), the plan, casualties, score.

rank-and-flank-combat.txt "Engagements": every unit attacks at the same
time (attack rolls, then damage saves); casualties are removed only after
everyone has attacked, so models killed this round still strike back; then
each side adds up its combat score and every unit on the losing side takes
a break test.

This module changes no state and rolls no dice: ``plan_round`` plans the
round (who attacks whom with how many dice, grouped into rolls by
``roll_groups``), and ``unit_casualties``/``casualties`` work out what a
tally of wounds does.  The phase's rows (``phase.py``) leave one chance per
roll group pending, then apply the casualties, score and break tests; the
odds (``odds.py``) walk those same rows.

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
re-rolls; then a character challenge's duellists; then the losing units'
break tests (or crumbles) in engagement order.

The round's rows that are plain code (``steps.RoundStep``): ``round_steps(rules)``
composes them for a map - this ruleset's ``BASE_ROUND_STEPS`` (``who_attacks``
in the ``PLAN`` stage), and with ``[rules] challenges = "character"`` the
character challenge's rows (``challenges.character_steps.CHARACTER_ROUND_STEPS``):
issue the challenge (``OPEN``), point the duellists at each other (``PLAN``,
after ``who_attacks``) and carry the challenge on (``CLOSE``); the duellists'
blows are the phase's chance rows (``phase.rows``).  A ``PLAN`` row may edit
``ctx.attacks`` (e.g. point two characters at each other with
``target_model``), ``ctx.duels``, put models in ``ctx.excluded`` (they do not
attack) or ``ctx.protected`` (no wound from a unit's pool reaches them:
character-challenge.txt ¶5) and append combat score items to
``ctx.score_extra``.  The table is chosen once per round (``plan_round``
keeps it on ``ctx.steps``), never registered at import time.
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
from tabletop.rules.rank_and_flank.commanders import plan_commanders
from tabletop.rules.rank_and_flank.rolls import hit_spec, save_spec
from tabletop.rules.rank_and_flank.score import Score
from tabletop.rules.rank_and_flank.steps import PLAN, RoundStep, in_stage
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
    (duels) and caused by each attacking unit (combat score)."""

    pools: dict[str, int] = field(default_factory=dict)
    duel: dict[str, int] = field(default_factory=dict)
    caused: dict[str, int] = field(default_factory=dict)


@dataclass
class RoundOutcome:
    """What a round did: casualties and living models per unit, who stepped
    up into gaps (``steps`` {unit: [(mover, dead)]}), the formations once
    casualties are removed and the score.  ``sides_at_blows`` are the contacts when the blows were struck
    (``ctx.sides``): the score and the surrounded test read these."""

    ctx: RoundContext
    blows: Blows
    casualties: dict[str, Casualties]
    alive: dict[str, set[str]]
    steps: dict[str, list[tuple[str, str]]]
    forms_after: dict[str, UnitFormation]
    score: Score

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
    state = P.indexed(state)
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


def group_facts(ctx: RoundContext, key: tuple, members: list[Attack]) -> dict:
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


BASE_ROUND_STEPS: tuple[RoundStep, ...] = (
    RoundStep("who_attacks", PLAN, "Who attacks", C.WHO_ATTACKS, plan_attacks),
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


def unit_casualties(ctx: RoundContext, unit: str, pool: int, duel: dict[str, int]
                    ) -> tuple[Casualties, set[str]]:
    """One unit's wound ``pool`` and the wounds struck straight at its models (``duel``, by
    model id; others ignored) applied after everyone has attacked: its casualties and living
    models.  Protected models (a challenge's duellists) take their duel wounds only."""
    alive = set(ctx.forms[unit].placements)
    duel = {m: w for m, w in duel.items() if m in alive}
    shielded = alive & ctx.protected
    if not shielded:
        return allocate(ctx.state, ctx.forms[unit], alive, pool, duel), alive
    cas = allocate(ctx.state, ctx.forms[unit], alive, 0, duel)
    rest = alive - shielded
    cas = allocate(ctx.state, ctx.forms[unit], rest, pool, None, cas)
    return cas, rest | (alive & shielded)


def casualties(ctx: RoundContext, blows: Blows) -> tuple[dict[str, Casualties], dict[str, set[str]]]:
    """Each unit's wound pool applied (after everyone has attacked)."""
    out, alive = {}, {}
    for u in ctx.units:
        out[u], alive[u] = unit_casualties(ctx, u, blows.pools.get(u, 0), blows.duel)
    return out, alive
