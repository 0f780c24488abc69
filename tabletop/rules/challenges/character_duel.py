"""The blows of a character challenge in a rank-and-flank round, its combat score and exact odds.

character-challenge.txt ¶5-¶6 inside rank-and-flank-combat.txt.  The two
characters attack each other (all their attacks, at the same time as
everyone else: casualties are removed after all attacks), with the combat
text's tables:

- Attack roll: Skill higher than the defender's hits on 3+, else 4+;
  never worse than 6+ or better than 2+.
- Damage save, Power against Defense: Power 3+ higher saves on 6+, 1-2
  higher 5+, equal 4+, Defense 1-2 higher 3+, 3+ higher 2+.  Halberd: saves
  never better than 4+.  Poisoned Attacks: the defender re-rolls saves of 6.
- Each failed save is one wound; Lethal Strikes: two against a model with
  more than one Wound.
- Named default ``KILLING_BLOW``: the rank-and-flank text has no Killing
  Blow rule, the challenge text only its scoring ("each one scoring wounds
  equal to the victim's own Wounds characteristic"); as in the game it
  comes from, a model with the ``killing-blow`` keyword that rolls a 6 to hit
  slays outright: no save, wounds equal to the victim's Wounds.

Combat score (¶6): every wound inflicted counts, the victim's remaining
Wounds and, when it dies, up to ``OVERKILL_CAP`` (+3) more - "an exception
to the usual rule that a model can't suffer more wounds than it has".

Characteristics are read from ``Skill``/``Power``/``Defense``/``Attacks``/
``Wounds``/``Discipline`` (the map format's rank-and-flank profile), or
``WS``/``S``/``T``/``A``/``W``/``Ld``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from tabletop.board.state import Model
from tabletop.rules.challenges.characters import characteristic
from tabletop.rules.dice import enumerate_outcomes

RULE_BLOWS = "character-challenge.txt ¶5 (with rank-and-flank-combat.txt Attack roll, Damage save)"
RULE_OVERKILL = "character-challenge.txt ¶6"
OVERKILL_CAP = 3
KILLING_BLOW = "killing-blow: a 6 to hit slays outright (no save, wounds = victim's Wounds)"
DUEL_EXEMPT = ("breath weapon", "impact hits", "stomp")


@dataclass(frozen=True)
class Fighter:
    """A character as the rank-and-flank duel reads it."""

    model_id: str
    player: str
    skill: int
    power: int
    defense: int
    attacks: int
    wounds: int
    wounds_left: int
    killing_blow: bool = False
    lethal: bool = False
    halberd: bool = False
    poisoned: bool = False


def fighter(model: Model, player: str) -> Fighter:
    """Read ``model``'s profile (module doc).  Raises ValueError naming the model when one is missing."""
    p = model.profile
    vals = {}
    for key, names in (("skill", ("Skill", "WS")), ("power", ("Power", "S")),
                       ("defense", ("Defense", "T")), ("attacks", ("Attacks", "A")),
                       ("wounds", ("Wounds", "W"))):
        v = characteristic(p, *names)
        if v is None:
            raise ValueError(f"{model.id}: no {names[0]} in its profile")
        vals[key] = v
    return Fighter(model.id, player, vals["skill"], vals["power"], vals["defense"], vals["attacks"],
                   vals["wounds"], max(0, vals["wounds"] - model.wounds_lost),
                   killing_blow=model.has("killing-blow"), lethal=model.has("lethal-strikes"),
                   halberd=model.has("halberd"), poisoned=model.has("poisoned"))


def to_hit(skill: int, enemy_skill: int, modifier: int = 0) -> int:
    """Attack roll target: 3+ if Skill is higher, else 4+; clamped to 2+..6+."""
    base = 3 if skill > enemy_skill else 4
    return max(2, min(6, base - modifier))


def save_on(power: int, defense: int, halberd: bool = False) -> int:
    """Damage save target from Power against Defense (halberd: never better than 4+)."""
    d = power - defense
    t = 6 if d >= 3 else 5 if d >= 1 else 4 if d == 0 else 3 if d >= -2 else 2
    return max(t, 4) if halberd else t


@dataclass
class DuelBlows:
    """One character's attacks on the other: rolls and wounds inflicted (uncapped)."""

    attacks: int = 0
    hits: int = 0
    killing_blows: int = 0
    failed_saves: int = 0
    inflicted: int = 0


def strike(dice, att: Fighter, dfn: Fighter, *, log: bool = True, rule: str = RULE_BLOWS) -> DuelBlows:
    """Roll ``att``'s attacks on ``dfn``: attack rolls, then damage saves (a batch each)."""
    b = DuelBlows(attacks=att.attacks)
    if att.attacks <= 0:
        return b
    ht = to_hit(att.skill, dfn.skill)
    faces = dice.faces(att.attacks, 6)
    hits = [f for f in faces if f >= ht]
    b.hits = len(hits)
    if att.killing_blow:
        b.killing_blows = sum(1 for f in hits if f == 6)
    if log:
        dice.record("attack roll (challenge)", faces, rule=rule, player=att.player,
                    modifiers={"Skill": att.skill, "enemy Skill": dfn.skill}, target=ht, result=b.hits)
        if b.killing_blows:
            dice.log and dice.log.emit("killing_blow", RULE_OVERKILL, model=att.model_id, count=b.killing_blows,
                                       wounds_each=dfn.wounds)
    to_save = b.hits - b.killing_blows
    if to_save:
        st = save_on(att.power, dfn.defense, att.halberd)
        faces = dice.faces(to_save, 6)
        if att.poisoned:
            faces = [dice.faces(1, 6)[0] if f == 6 else f for f in faces]
        saved = sum(1 for f in faces if f >= st)
        b.failed_saves = to_save - saved
        if log:
            dice.record("damage save (challenge)", faces, rule=rule, player=dfn.player,
                        modifiers={"Power": att.power, "Defense": dfn.defense}, target=st, result=saved)
    per = 2 if (att.lethal and dfn.wounds > 1) else 1
    b.inflicted = b.failed_saves * per + b.killing_blows * dfn.wounds
    return b


@dataclass
class DuelResult:
    """Both sides' blows, who died, and the combat score each side takes from the challenge."""

    blows: dict[str, DuelBlows] = field(default_factory=dict)       # by attacking model id
    removed: list[str] = field(default_factory=list)
    score: dict[str, int] = field(default_factory=dict)             # by player
    overkill: dict[str, int] = field(default_factory=dict)          # counted overkill, by player
    overkill_inflicted: dict[str, int] = field(default_factory=dict)


def duel_score(inflicted: int, victim_left: int) -> tuple[int, int, int]:
    """(combat score, counted overkill, raw overkill) for ``inflicted`` wounds on a victim with ``victim_left``.

    The victim's remaining Wounds count, and when it dies up to
    ``OVERKILL_CAP`` of the wounds beyond them (¶6).
    """
    if inflicted < victim_left:
        return inflicted, 0, 0
    raw = inflicted - victim_left
    counted = min(raw, OVERKILL_CAP)
    return victim_left + counted, counted, raw


def duel(dice, a: Fighter, b: Fighter, *, log: bool = True) -> DuelResult:
    """Both characters strike at the same time; casualties after (rank-and-flank "Attack")."""
    res = DuelResult()
    for att, dfn in ((a, b), (b, a)):
        bl = strike(dice, att, dfn, log=log)
        res.blows[att.model_id] = bl
        score, counted, raw = duel_score(bl.inflicted, dfn.wounds_left)
        res.score[att.player] = score
        res.overkill[att.player] = counted
        res.overkill_inflicted[att.player] = raw
        if bl.inflicted >= dfn.wounds_left:
            res.removed.append(dfn.model_id)
    return res


# ------------------------------------------------------------------ exact odds
@cache
def _one_attack(att: Fighter, dfn: Fighter) -> tuple[tuple[int, Fraction], ...]:
    one = Fighter(att.model_id, att.player, att.skill, att.power, att.defense, 1, att.wounds, att.wounds_left,
                  att.killing_blow, att.lethal, att.halberd, att.poisoned)
    dist = enumerate_outcomes(lambda dice: strike(dice, one, dfn, log=False).inflicted)
    return tuple(sorted(dist.items()))


def inflicted_distribution(att: Fighter, dfn: Fighter) -> dict[int, Fraction]:
    """Exact distribution of the wounds ``att`` inflicts on ``dfn`` in one round.

    One attack is enumerated through ``strike`` itself; attacks are
    independent, so the round is that distribution convolved ``attacks``
    times.
    """
    one = dict(_one_attack(att, dfn))
    out = {0: Fraction(1)}
    for _ in range(att.attacks):
        nxt: dict[int, Fraction] = {}
        for w, p in out.items():
            for k, q in one.items():
                nxt[w + k] = nxt.get(w + k, Fraction(0)) + p * q
        out = nxt
    return out


def duel_odds(a: Fighter, b: Fighter) -> dict[str, object]:
    """One round of a character challenge: each side's chance to kill (and survive), both dying, expected score."""
    da, db = inflicted_distribution(a, b), inflicted_distribution(b, a)
    win = {a.player: Fraction(0), b.player: Fraction(0)}
    both = neither = Fraction(0)
    exp = {a.player: Fraction(0), b.player: Fraction(0)}
    for wa, pa in da.items():
        for wb, pb in db.items():
            p = pa * pb
            kill_b, kill_a = wa >= b.wounds_left, wb >= a.wounds_left
            if kill_b and kill_a:
                both += p
            elif kill_b:
                win[a.player] += p
            elif kill_a:
                win[b.player] += p
            else:
                neither += p
            exp[a.player] += p * duel_score(wa, b.wounds_left)[0]
            exp[b.player] += p * duel_score(wb, a.wounds_left)[0]
    return {"win": win, "both_die": both, "both_survive": neither, "expected_score": exp}
