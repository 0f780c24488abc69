"""Readable lines for the rank-and-flank combat events (merged into ``event_text``)."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.events import Event


def _rule(ev: Event) -> str:
    return f"  ({ev.rule})" if ev.rule else ""


def _sides(d: dict) -> str:
    names = {"left": "left flank", "right": "right flank"}
    parts = [f"{e} on its {names.get(s, s)}" for e, s in (d.get("sides") or {}).items()]
    text = "; ".join(parts) or "no enemy in contact"
    if d.get("surrounded"):
        text += "; SURROUNDED"
    if d.get("disrupted"):
        text += "; disrupted (" + "; ".join(d.get("disrupted_reasons") or []) + ")"
    return text


def _attackers(ev: Event) -> str:
    d = ev.data
    parts = [f"{v['models']} {k} ({v['dice']} dice)" for k, v in (d.get("by_kind") or {}).items()]
    return f"  {d['unit']} attacks with " + (", ".join(parts) if parts else "nobody") + _rule(ev)


def _blows(ev: Event) -> str:
    d = ev.data
    target = d.get("target_model") or d["target"]
    hits = "?" if d.get("hits") is None else d["hits"]
    lethal = " x2 (Lethal Strikes)" if d.get("lethal") else ""
    return (f"  {d['unit']} -> {target}: {d['dice']} dice, {d['to_hit']} to hit, {hits} hits, "
            f"saves on {d['save']}, {d['unsaved']} failed{lethal} = {d['wounds']} wounds")


def _score(ev: Event) -> str:
    d = ev.data
    lines = ["Combat score: " + ", ".join(f"{p} {t}" for p, t in (d.get("scores") or {}).items())
             + (f" -> {d['winner']} wins by {d['difference']}" if d.get("winner") else
                " -> tie: nobody tests") + _rule(ev)]
    for it in d.get("breakdown") or []:
        why = f" ({it['why']})" if it.get("why") else ""
        lines.append(f"    {it['player']}: {it['unit']} {it['source']} {it['score']:+d}{why}")
    return "\n".join(lines)


def _break(ev: Event) -> str:
    d = ev.data
    if d.get("test") == "crumble":
        return f"  {d['unit']} crumbles: D3 -> {d['wounds']} wounds{_rule(ev)}"
    fearless = ", Fearless" if d.get("fearless") else ""
    return (f"  {d['unit']} break test: 2D6 {d['dice']} = {d['total']} vs Discipline "
            f"{d['discipline']} + ranks {d['ranks']} - difference {d['difference']}{fearless} "
            f"= {d['target']}: {d['result']}{_rule(ev)}")


def _fled(ev: Event) -> str:
    d = ev.data
    names = {"left": "left flank", "right": "right flank"}
    sides = " + ".join(f"{names.get(s, s)} {w:.1f}\"" for s, w in (d.get("away_sides") or {}).items())
    why = f", opposite its {sides} of contact" if sides else ""
    return (f"  {d['unit']} flees {d['distance']:.1f}\" directly away from "
            f"{', '.join(d['away_from'])} (heading {d['direction']:.0f} deg{why}){_rule(ev)}")


FORMATS: dict[str, Callable[[Event], str]] = {
    "engagements": lambda ev: f"{len(ev['engagements'])} engagement(s): "
                              + "; ".join(" v ".join(g) for g in ev["engagements"]) + _rule(ev),
    "engagement": lambda ev: (f"== Engagement {ev['index']} of {ev['of']}: {' v '.join(ev['units'])}"
                              + (" (first round after a charge)" if ev.get("first_round") else "")),
    "unit_geometry": lambda ev: (f"  {ev['unit']}: {ev['files']} wide x {ev['ranks']} deep; "
                                 f"{_sides(ev.data)}"),
    "attackers": _attackers,
    "duel": lambda ev: f"  commanders duel: {' v '.join(ev['commanders'])}{_rule(ev)}",
    "note": lambda ev: f"  note: {ev['text']}",
    "blows": _blows,
    "carried_over": lambda ev: f"    {ev['wounds']} wounds carry over to {ev['unit']}'s commander{_rule(ev)}",
    "stepped_up": lambda ev: f"    {ev['text']}",
    "combat_score": _score,
    "break_test": _break,
    "fled": _fled,
    "turned_to_face": lambda ev: (f"  {ev['unit']} turns to face {ev['enemy']} on its "
                                  f"{ev['side']}{_rule(ev)}"),
    "turn_blocked": lambda ev: f"  {ev['text']}{_rule(ev)}",
    "charge_over": lambda ev: f"  first round over for {', '.join(ev['units'])}: {ev['text']}",
    "no_engagements": lambda ev: f"{ev['text']}{_rule(ev)}",
}
