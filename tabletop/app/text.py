"""What the panel says: plain text lines for the selected model, a step (the keys: ``keys.py``).

No drawing here; ``App`` hands these lines to the panel.  Distances are
inches to 0.01", edge to edge, read from the geometry snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.render.steps import caption_sentences
from tabletop.rules.events import Event, Step

ROLLS_SHOWN = 12        # named default: how many of a step's rolls the panel lists (the last ones)

def inches(d: float) -> str:
    """``1.234`` -> ``1.23"``."""
    return f'{d:.2f}"'


def _kv(d: dict[str, Any]) -> str:
    return "  ".join(f"{k} {v}" for k, v in d.items())


def model_lines(state: Battlefield, geo: Geometry, model_id: str) -> list[str]:
    """The info panel for one model: id, unit, base, profile, weapons, wounds lost,
    nearest enemy model and nearest objective (edge to edge, from ``geo``)."""
    m = state.model(model_id)
    unit = state.unit(m.unit_id)
    title = model_id + (f" - {m.name}" if m.name else "") + (f" ({m.role})" if m.role else "")
    b = m.base
    size = (f'{2 * b.radius:.2f}" across' if b.is_round
            else f'{b.across:.2f}" x {b.along:.2f}" (frontage x depth)')
    lines = [
        title,
        f"unit: {unit.label} ({unit.id}), player {unit.player}, {len(unit.models)} model{'s' if len(unit.models) != 1 else ''}",
        f"base: {b.text} {b.shape}, {size}",
        f"at ({m.x:.2f}, {m.y:.2f}), facing {m.facing_deg:g} deg",
        "profile: " + (_kv(m.profile) if m.profile else "none"),
    ]
    if m.weapons:
        lines.append("weapons:")
        for w in m.weapons:
            rest = {k: v for k, v in w.items() if k != "name"}
            lines.append(f"  {w.get('name', '?')}: {_kv(rest)}")
    else:
        lines.append("weapons: none")
    wounds = m.profile.get("W", m.profile.get("Wounds"))
    lines.append(f"wounds lost: {m.wounds_lost}" + (f" of {wounds}" if wounds is not None else ""))
    enemy, d = geo.nearest_enemy(model_id)
    lines.append(f"nearest enemy: {enemy} {inches(d)}" if enemy else "nearest enemy: none")
    obj, d = geo.nearest_objective(model_id)
    lines.append(f"nearest objective: {obj} {inches(d)}" if obj else "nearest objective: none")
    engaged = sorted({e.rsplit('/', 1)[0] for e in geo.engaged_models(model_id)})
    if engaged:
        lines.append("engaged with: " + ", ".join(engaged))
    status = tuple(m.status) + tuple(unit.status)
    if status:
        lines.append("status: " + ", ".join(status))
    if m.keywords:
        lines.append("keywords: " + ", ".join(m.keywords))
    return lines


def roll_line(ev: Event) -> str:
    """``to hit: dice [6, 3] target 3 -> 1`` from a ``roll`` event."""
    parts = [f"{ev.get('purpose', 'roll')}: dice {ev.get('dice')}"]
    if ev.get("modifiers"):
        parts.append(f"mod {ev.get('modifiers')}")
    if ev.get("target") is not None:
        parts.append(f"target {ev.get('target')}")
    parts.append(f"-> {ev.get('result')}")
    return " ".join(parts)


def step_lines(steps: Sequence[Step], index: int, events: Sequence[Event] | None) -> list[str]:
    """The step panel: title, rule clause, the step's events in words as the frames'
    captions tell them (``render.steps.caption_sentences``) and its last rolls."""
    if not steps:
        return ["no steps"]
    st = steps[index]
    lines = [f"step {index + 1} of {len(steps)}: {st.title}", f"rule: {st.rule}"]
    evs = [events[i] for i in st.events if 0 <= i < len(events)] if events else []
    rolls = [e for e in evs if e.type == "roll"]
    said = caption_sentences(evs)
    if said:
        lines.append("what happens:")
        lines.extend("  " + t for t in said)
    if rolls:
        shown = rolls[-ROLLS_SHOWN:]
        more = len(rolls) - len(shown)
        lines.append(f"rolls ({len(rolls)}" + (f", last {len(shown)})" if more else ")") + ":")
        lines.extend("  " + roll_line(e) for e in shown)
    else:
        lines.append("rolls: none in this step")
    return lines
