"""A rules question in words, its options as button labels, and the board ids they name.

No pygame here.  ``question_line(q)`` reads e.g. ``"orks: which unit fights
next? (fight-phase.txt 12.04 (1))"``; ``option_label`` turns an option into
a button's text; ``option_models`` says which models to ring on the board
for each option that is a unit or model id.
"""

from __future__ import annotations

from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry

# What each choice the rules ask (``Decisions.choose(player, choice, ...)``) means, in words.
# ``{unit}``, ``{commander}``, ``{round}`` come from the question's context.
CHOICE_TEXT: dict[str, str] = {
    "fight": "which unit fights next?",
    "pile_in": "which unit piles in next?",
    "consolidate": "which unit consolidates next?",
    "fight_type": "what kind of fight does {unit} make?",
    "attack_target": "which unit does {unit} attack?",
    "pile_in_targets": "which enemy units does {unit} pile in towards?",
    "consolidation_targets": "what does {unit} consolidate towards?",
    "issue_challenge": "which model issues a challenge?",
    "accept_challenge": "who accepts the challenge?",
    "disgrace": "which model is Disgraced for refusing the challenge?",
    "gambit": "which gambit (round {round})?",
    "feint": "which gambit does Feint and Riposte forbid?",
    "weapon": "which weapon for the challenge?",
    "prolong": "fight another round of the challenge?",
    "withdraw": "withdraw from the challenge?",
    "commander_target": "which enemy unit does {commander} attack?",
}

# options that mean "stop" or "say no", in words
SPECIAL_OPTIONS = {"none": "none (no more)", "refuse": "refuse"}
# ... where a choice reads them otherwise: one challenge at most is issued (gambit-challenge.txt
# Step 1, character-challenge.txt), so "none" there is no challenge, not "no more"
CHOICE_SPECIAL = {"issue_challenge": {"none": "none (no challenge)"}}


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def question_line(q: Any) -> str:
    """``"<player>: <question>? (<rule>)"`` for a ``Question`` (player, choice, rule, context)."""
    words = CHOICE_TEXT.get(q.choice, q.choice.replace("_", " ") + "?")
    words = words.format_map(_Blank({k: v for k, v in q.context.items()}))
    return f"{q.player}: {words}" + (f" ({q.rule})" if q.rule else "")


def context_lines(q: Any) -> list[str]:
    """Extra lines from the context the rules gave (gambits already chosen, the step ...)."""
    ctx = q.context
    out = []
    if ctx.get("step"):
        out.append(f"combat step: {str(ctx['step']).replace('_', ' ')}")
    if ctx.get("chosen"):
        out.append("already chosen: " + ", ".join(f"{p} {g}" for p, g in ctx["chosen"].items()))
    if ctx.get("after_consolidation_of"):
        out.append(f"after {ctx['after_consolidation_of']}'s engaging consolidation")
    if ctx.get("mode"):
        out.append(f"consolidation mode: {ctx['mode']}")
    if ctx.get("combat"):
        out.append("combat: " + ", ".join(map(str, ctx["combat"])))
    return out


def option_label(option: Any, state: Battlefield | None = None, choice: str = "") -> str:
    """A button's text: ids as written (a named model with its name), lists joined by
    " + ", booleans as yes / no; "none" / "refuse" in words (as ``choice`` reads them)."""
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, (list, tuple)):
        return " + ".join(option_label(o, state) for o in option)
    text = str(option)
    if text in CHOICE_SPECIAL.get(choice, {}):
        return CHOICE_SPECIAL[choice][text]
    if text in SPECIAL_OPTIONS:
        return SPECIAL_OPTIONS[text]
    if state is not None and "/" in text:
        try:
            name = state.model(text).name
        except KeyError:    # not a model id: shown as written
            name = ""
        if name:
            return f"{text} {name}"
    return text


def models_named(any_id: Any, geo: Geometry) -> list[str]:
    """Model ids on the table that ``any_id`` names: a model, a unit's models, a list's; else []."""
    if isinstance(any_id, (list, tuple)):
        return [m for x in any_id for m in models_named(x, geo)]
    if not isinstance(any_id, str):
        return []
    if any_id in geo.ids:
        return [any_id]
    return geo.unit_models(any_id)


def option_models(q: Any, geo: Geometry) -> dict[int, list[str]]:
    """{option index: model ids to ring} for the options that are single ids on the table."""
    out = {}
    for k, o in enumerate(q.options):
        if isinstance(o, (list, tuple)):
            continue        # combinations: their members are options of their own
        ids = models_named(o, geo)
        if ids:
            out[k] = ids
    return out


def asker_models(q: Any, geo: Geometry) -> list[str]:
    """The models the question is about (context ``unit`` / ``commander``), to mark on the board."""
    return [m for key in ("unit", "commander") for m in models_named(q.context.get(key), geo)]
