"""The rank-and-flank events in words: one sentence each, for the frames' captions and the CLI.

``SENTENCES`` is read by ``tabletop.rules.describe.describers()`` (the one
table of wordings), so ``describe(event)`` reads them everywhere; ``tabletop/cli/rnf_event_text.py`` lays the same sentences out
for a terminal (an indent, the clause, the score's breakdown one item a
line).  Sentences carry no clause: ``describe(ev, with_rule=True)`` adds it.
The Fight phase's wordings of ``roll``, ``removed``, ``wounded`` and
``destroyed`` read these events too (same fields).
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.describe import id_list, plural
from tabletop.rules.events import Event

SIDE_NAMES = {"left": "left flank", "right": "right flank"}


def side_name(side: str) -> str:
    """``left`` -> ``left flank``; ``front``/``rear`` as they are."""
    return SIDE_NAMES.get(side, side)


def _sides(d: dict) -> str:
    parts = [f"{e} on its {side_name(s)}" for e, s in (d.get("sides") or {}).items()]
    text = "; ".join(parts) or "no enemy in contact"
    if d.get("surrounded"):
        text += "; SURROUNDED"
    if d.get("disrupted"):
        text += "; disrupted (" + "; ".join(d.get("disrupted_reasons") or []) + ")"
    return text


def engagements(ev: Event) -> str:
    groups = ev["engagements"]
    return f"{plural(len(groups), 'engagement')}: " + "; ".join(" v ".join(g) for g in groups) + "."


def engagement(ev: Event) -> str:
    first = " (the first round after a charge)" if ev.get("first_round") else ""
    return f"Engagement {ev['index']} of {ev['of']}: {' v '.join(ev['units'])}{first}."


def unit_geometry(ev: Event) -> str:
    return f"{ev['unit']}: {ev['files']} wide x {ev['ranks']} deep; {_sides(ev.data)}."


def attackers(ev: Event) -> str:
    parts = [f"{v['models']} {k} ({plural(v['dice'], 'die', 'dice')})"
             for k, v in (ev.get("by_kind") or {}).items()]
    return f"{ev['unit']} attacks with " + (", ".join(parts) if parts else "nobody") + "."


def blows(ev: Event) -> str:
    target = ev.get("target_model") or ev["target"]
    hits = "? hits" if ev.get("hits") is None else plural(ev["hits"], "hit")
    lethal = " x2 (Lethal Strikes)" if ev.get("lethal") else ""
    return (f"{ev['unit']} -> {target}: {plural(ev['dice'], 'die', 'dice')}, {ev['to_hit']} to hit, "
            f"{hits}, saves on {ev['save']}, {ev['unsaved']} failed{lethal} = "
            f"{plural(ev['wounds'], 'wound')}.")


def verdict(winner: str | None, difference: int) -> str:
    """``"won by orcs, by 3"`` or ``"a tie: nobody tests"``: worded round the winner's id,
    which may be singular (``empire``) or plural (``orcs``), so no verb has to agree with it."""
    return f"won by {winner}, by {difference}" if winner else "a tie: nobody tests"


def combat_score(ev: Event) -> str:
    scores = ", ".join(f"{p} {t}" for p, t in (ev.get("scores") or {}).items())
    return f"Combat score: {scores}; {verdict(ev.get('winner'), ev.get('difference', 0))}."


def score_items(ev: Event) -> list[str]:
    """The breakdown of a ``combat_score`` event, one item each:
    ``empire: spearmen ranks +0 (4 wide: a rank needs 5 models)``."""
    out = []
    for it in ev.get("breakdown") or []:
        why = f" ({it['why']})" if it.get("why") else ""
        out.append(f"{it['player']}: {it['unit']} {it['source']} {it['score']:+d}{why}")
    return out


def break_test(ev: Event) -> str:
    if ev.get("test") == "crumble":
        return (f"{ev['unit']} crumbles instead of testing: D3 -> "
                f"{plural(ev['wounds'], 'wound')}.")
    fearless = ", Fearless" if ev.get("fearless") else ""
    return (f"{ev['unit']} break test: 2D6 {'+'.join(str(d) for d in ev['dice'])} = {ev['total']} "
            f"against Discipline {ev['discipline']} + ranks {ev['ranks']} - difference "
            f"{ev['difference']}{fearless} = {ev['target']}: {ev['result']}.")


def fled(ev: Event) -> str:
    sides = " + ".join(f"{side_name(s)} {w:.1f}\"" for s, w in (ev.get("away_sides") or {}).items())
    why = f", opposite its {sides} of contact" if sides else ""
    return (f"{ev['unit']} flees {ev['distance']:.1f}\" directly away from "
            f"{id_list(ev['away_from'])} (heading {ev['direction']:.0f} deg{why}).")


def turned_to_face(ev: Event) -> str:
    return (f"{ev['unit']} turns to face {ev['enemy']} on its {side_name(ev['side'])}, "
            f"its new front on {ev['enemy']}.")


def turn_blocked(ev: Event) -> str:
    return f"{ev['unit']} cannot turn to face {ev['enemy']} and stays as it is: {ev['reason']}."


def duel(ev: Event) -> str:
    return f"The commanders duel: {' v '.join(ev['commanders'])}."


def carried_over(ev: Event) -> str:
    return f"{plural(ev['wounds'], 'wound')} carry over to {ev['unit']}'s commander."


def charge_over(ev: Event) -> str:
    return f"First round over for {id_list(ev['units'])}: {ev['text']}."


def _text(ev: Event) -> str:
    t = str(ev["text"])
    return t if t.endswith(".") else t + "."


SENTENCES: dict[str, Callable[[Event], str]] = {
    "engagements": engagements, "engagement": engagement, "unit_geometry": unit_geometry,
    "attackers": attackers, "duel": duel, "note": _text, "blows": blows,
    "carried_over": carried_over, "stepped_up": _text, "closed_up": _text,
    "close_up_blocked": _text, "combat_score": combat_score,
    "break_test": break_test, "fled": fled, "turned_to_face": turned_to_face,
    "turn_blocked": turn_blocked, "charge_over": charge_over, "no_engagements": _text,
    "wounds_pooled": lambda ev: "",
}
"""The rank-and-flank event types and their sentences (``describe.describers`` reads them)."""

SILENT = frozenset({"wounds_pooled"})
"""Types with no sentence of their own: ``wounds_pooled`` holds the same facts the ``blows``
before it and the ``removed``/``carried_over`` after it tell (frames draw from it)."""
