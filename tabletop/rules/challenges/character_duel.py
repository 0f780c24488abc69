"""The blows of a character challenge in a rank-and-flank round, its combat score and exact odds.

character-challenge.txt ¶5-¶6 inside rank-and-flank-combat.txt.  The two
characters attack each other with all their attacks, at the same time as
everyone else (casualties after all attacks).  The dice are the rank-and-flank
ruleset's own (``rank_and_flank.rolls``: the attack-roll table, to-hit
modifiers and re-rolls, the damage-save table, Halberd, Poisoned Attacks)
and its stats (``rank_and_flank.profiles``: Power with a charge bonus in the
first round, Frenzy's extra attack, Lethal Strikes' two wounds against a
model with more than one Wound).

Named default ``KILLING_BLOW``: the rank-and-flank text has no Killing Blow
rule, the challenge text only its scoring ("each one scoring wounds equal to
the victim's own Wounds characteristic"); as in the game it comes from, a
model with the ``killing-blow`` keyword that rolls a natural 6 to hit slays
outright: no save, wounds equal to the victim's Wounds.

Combat score (¶6, ``duel_score``): every wound inflicted counts - the
victim's remaining Wounds and, when it dies, up to ``OVERKILL_CAP`` (+3) more,
"an exception to the usual rule that a model can't suffer more wounds than it
has".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TypedDict

from tabletop.board.state import Battlefield
from tabletop.rules.dice import enumerate_outcomes
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank.attacks import model_attacks
from tabletop.rules.rank_and_flank.rolls import HitSpec, SaveSpec, roll_saves, roll_to_hit
from tabletop.rules.rank_and_flank.round import attack_specs

RULE_BLOWS = "character-challenge.txt ¶5"
RULE_OVERKILL = "character-challenge.txt ¶6"
OVERKILL_CAP = 3
KILLING_BLOW = "killing-blow: a natural 6 to hit slays outright (no save, wounds = victim's Wounds)"
DUEL_EXEMPT = ("breath weapon", "impact hits", "stomp")


@dataclass(frozen=True)
class Fighter:
    """One character's attacks on the other this round: dice, the attack roll and the
    enemy's damage save (rank-and-flank specs), and its own Wounds."""

    model_id: str
    player: str
    attacks: int
    wounds: int
    wounds_left: int
    hit: HitSpec
    save: SaveSpec
    lethal: bool = False
    killing_blow: bool = False


def fighters(state: Battlefield, a: str, b: str, first_round: bool = False) -> tuple[Fighter, Fighter]:
    """``a`` and ``b`` read as each other's opponent (stats and keywords of ``rank_and_flank.profiles``).

    Raises
    ------
    KeyError
        A stat the rules read is missing (``P.check_profiles`` reports it first in a fight).
    """
    def one(me: str, foe: str) -> Fighter:
        m, d = state.model(me), state.model(foe)
        hit, save, lethal = attack_specs(state, m, d, first_round)
        w = P.model_stat(m, "Wounds")
        return Fighter(me, state.owner(me), model_attacks(state, me, first_round), w,
                       max(0, w - m.wounds_lost), hit, save, lethal, m.has("killing-blow"))

    return one(a, b), one(b, a)


@dataclass
class DuelBlows:
    """One character's attacks on the other: hits, Killing Blows, failed saves, wounds inflicted (uncapped)."""

    attacks: int = 0
    hits: int | None = 0              # None when drawn as a count (exact odds)
    killing_blows: int | None = 0
    failed_saves: int | None = 0
    inflicted: int = 0


def strike(dice, att: Fighter, dfn: Fighter) -> DuelBlows:
    """Roll ``att``'s attacks on ``dfn``: attack rolls, then damage saves for the hits that are
    not Killing Blows (each roll logged by the rank-and-flank roll code).  The wounds
    inflicted are distributed as ``inflicted_distribution`` (this function enumerated for
    one attack, convolved): the phase's chance for these blows lists that distribution.
    """
    b = DuelBlows(attacks=att.attacks)
    if att.attacks <= 0:
        return b
    faces: list[int] = []
    label = f"{dfn.model_id} (challenge)"
    hits = roll_to_hit(dice, att.attacks, att.hit, player=att.player, against=label, faces_out=faces)
    kbs = sum(1 for f in faces if f == 6) if att.killing_blow else 0
    if kbs and dice.log is not None:
        dice.log.emit("killing_blow", RULE_OVERKILL, model=att.model_id, count=kbs,
                      wounds_each=dfn.wounds)
    failed = roll_saves(dice, hits - kbs, att.save, player=dfn.player, against=label)
    per = 2 if (att.lethal and dfn.wounds > 1) else 1
    b.hits, b.killing_blows, b.failed_saves = hits, kbs, failed
    b.inflicted = failed * per + kbs * dfn.wounds
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
    """(combat score, counted overkill, raw overkill) for ``inflicted`` wounds on a victim
    with ``victim_left`` Wounds: they count up to its Wounds and, when it dies, up to
    ``OVERKILL_CAP`` more (¶6)."""
    if inflicted < victim_left:
        return inflicted, 0, 0
    raw = inflicted - victim_left
    counted = min(raw, OVERKILL_CAP)
    return victim_left + counted, counted, raw


def duel(dice, a: Fighter, b: Fighter) -> DuelResult:
    """Both characters strike at the same time; casualties after (rank-and-flank "Attack")."""
    return duel_result(a, b, {f.model_id: strike(dice, f, g) for f, g in ((a, b), (b, a))})


def duel_result(a: Fighter, b: Fighter, blows: dict[str, DuelBlows]) -> DuelResult:
    """Who died and each side's combat score (¶6) from both sides' ``blows`` (by attacker)."""
    res = DuelResult()
    for att, dfn in ((a, b), (b, a)):
        bl = blows[att.model_id]
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
    one = Fighter(att.model_id, att.player, 1, att.wounds, att.wounds_left, att.hit, att.save,
                  att.lethal, att.killing_blow)
    dist = enumerate_outcomes(lambda dice: strike(dice, one, dfn).inflicted)
    return tuple(sorted(dist.items()))


def inflicted_distribution(att: Fighter, dfn: Fighter) -> dict[int, Fraction]:
    """Exact distribution of the wounds ``att`` inflicts on ``dfn`` in one round: one attack
    enumerated through ``strike`` itself, convolved ``attacks`` times (attacks are independent)."""
    return dict(_inflicted(att, dfn))


@cache
def _inflicted(att: Fighter, dfn: Fighter) -> tuple[tuple[int, Fraction], ...]:
    one = dict(_one_attack(att, dfn))
    out = {0: Fraction(1)}
    for _ in range(att.attacks):
        nxt: dict[int, Fraction] = {}
        for w, p in out.items():
            for k, q in one.items():
                nxt[w + k] = nxt.get(w + k, Fraction(0)) + p * q
        out = nxt
    return tuple(sorted(out.items()))


class DuelOdds(TypedDict):
    """``duel_odds``' answer: by player, the chance to kill the other and live (``win``) and
    the expected combat score (``expected_score``); the chances that both die or both live."""

    win: dict[str, Fraction]
    both_die: Fraction
    both_survive: Fraction
    expected_score: dict[str, Fraction]


def duel_odds(a: Fighter, b: Fighter) -> DuelOdds:
    """One round of a character challenge: each side's chance to kill the other and live, both
    dying, both living, and each side's expected combat score from it (exact Fractions)."""
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
