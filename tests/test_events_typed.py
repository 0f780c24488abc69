"""Typed events and drawing out of the rules (issue 9 item 4).

- Every event type is a frozen dataclass (``tabletop.rules.events.EVENT_TYPES``) whose fields
  are the ones docs/json.md's events table lists for it (always -> required, sometimes ->
  optional), and every row of that table has a class.
- A wrong, missing or extra field, or an unknown type, raises TypeError when the event is made.
- ``to_dict`` gives ``type``, ``rule`` and the fields in order (decimals to 4 places) and reads
  back into the same event.
- The rules layer holds no drawing: no draw keys, no colours, no step with a drawing; the
  renderer works a step's drawing out from its events (checked by hand on a small fight).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from fightkit import state_from

from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog

ROOT = Path(__file__).resolve().parent.parent


def _doc_rows() -> dict[str, tuple[set[str], set[str]]]:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    table = text.split("<!-- contract: events -->", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        ident = re.compile(r"`([A-Za-z_]+)`")
        rows[cells[0].strip("`")] = (set(ident.findall(cells[1])), set(ident.findall(cells[2])))
    return rows


def _fields(cls) -> tuple[set[str], set[str]]:
    from tabletop.rules.events import ABSENT
    required, optional = set(), set()
    for f in dataclasses.fields(cls):
        if f.name == "rule":
            continue
        (optional if f.default is ABSENT else required).add(f.name)
    return required, optional


def test_every_documented_event_type_has_a_class_and_back():
    from tabletop.rules.events import EVENT_TYPES
    rows = _doc_rows()
    assert len(rows) >= 60
    assert set(rows) == set(EVENT_TYPES)
    for name, (always, sometimes) in rows.items():
        cls = EVENT_TYPES[name]
        assert cls.type == name and dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen, name
        assert _fields(cls) == (always, sometimes), name


def test_a_wrong_missing_or_extra_field_or_an_unknown_type_raises_when_made():
    from tabletop.rules.events import Event, Removed, make_event
    ok = make_event("removed", "fight-phase.txt 12.05", model="b/1", unit="b", by="a")
    assert (ok.type, ok["model"], ok.get("by"), ok.get("note", "-")) == ("removed", "b/1", "a", "-")
    with pytest.raises(TypeError, match="modle"):
        make_event("removed", "r", modle="b/1")                  # a misspelt field
    with pytest.raises(TypeError, match="model"):
        make_event("removed", "r", unit="b")                     # the needed field left out
    with pytest.raises(TypeError, match="unknown event type 'remvoed'"):
        make_event("remvoed", "r", model="b/1")
    with pytest.raises(TypeError):
        Removed(rule="r", model="b/1", colour="red")             # extra, made by class
    with pytest.raises(TypeError):
        Event(rule="r")                                          # the base is no event type
    with pytest.raises(dataclasses.FrozenInstanceError):
        ok.model = "b/2"                                         # frozen
    log = EventLog()
    with pytest.raises(TypeError):
        log.emit("roll", "r", purpose="hit", dice=[4])           # modifiers ... player missing
    assert log.events == []


def test_to_dict_gives_the_documented_keys_in_order_and_reads_back():
    from tabletop.rules.events import EVENT_TYPES, Removed, Roll, make_event
    # by hand: a removed model with only its id; a roll's decimal rounded to 4 places
    assert Removed(rule="fight-phase.txt 12.05", model="b/1").to_dict() == \
        {"type": "removed", "rule": "fight-phase.txt 12.05", "model": "b/1"}
    roll = Roll(rule="r", purpose="hit", dice=[4, 2], modifiers={}, target=3, result=0.123456,
                player="red")
    assert list(roll.to_dict()) == ["type", "rule", "purpose", "dice", "modifiers", "target",
                                    "result", "player"]
    assert roll.to_dict()["result"] == 0.1235            # 0.123456 to 4 places
    # every type: all its fields given -> type, rule, then the fields in class order
    for name, cls in EVENT_TYPES.items():
        names = [f.name for f in dataclasses.fields(cls) if f.name != "rule"]
        ev = cls(rule="x.txt 1", **{n: f"{n}-value" for n in names})
        d = ev.to_dict()
        assert list(d) == ["type", "rule", *names], name
        assert d["type"] == name
        back = make_event(d["type"], d["rule"], {k: v for k, v in d.items() if k not in ("type", "rule")})
        assert back == ev, name


DRAWING_KEYS = {"arrows", "reach", "ghosts", "highlight", "selected_unit", "focus", "focus_roll",
                "rnf_units", "rnf_attacks", "rnf_notes", "rnf_casualties", "rnf_wounds",
                "rnf_score", "rnf_break", "rnf_flee", "rnf_turn"}
"""Keys only a drawing reads (render.steps.DRAWERS and the framing's ``focus``)."""


def _rules_files() -> list[Path]:
    return sorted((ROOT / "tabletop" / "rules").rglob("*.py"))


def test_the_rules_layer_holds_no_drawing():
    from tabletop.render.theme import NAMED_COLOURS
    colours = set(NAMED_COLOURS) | {"amber", "gold"}
    problems = []
    for path in _rules_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value in DRAWING_KEYS:
                    problems.append(f"{where}:{node.lineno}: draw key {node.value!r}")
                if node.value.lower() in colours:
                    problems.append(f"{where}:{node.lineno}: colour {node.value!r}")
            elif isinstance(node, ast.keyword) and node.arg in DRAWING_KEYS | {"draw"}:
                # Chance(draw=...) rolls dice: the one "draw" the rules know
                if node.arg != "draw" or not _in_chance(tree, node):
                    problems.append(f"{where}: keyword {node.arg}=")
            elif isinstance(node, ast.Call):
                fn = node.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if name == "StepMark" and (len(node.args) > 3 or node.keywords):
                    problems.append(f"{where}:{node.lineno}: StepMark with a drawing")
                if name == "step" and isinstance(fn, ast.Attribute) and (len(node.args) > 3 or node.keywords):
                    problems.append(f"{where}:{node.lineno}: log.step with a drawing")
    assert not problems, "\n".join(problems)
    from tabletop.rules.engine.machine import StepMark
    from tabletop.rules.events import Step
    assert [f.name for f in dataclasses.fields(StepMark)] == ["title", "rule", "battlefield"]
    assert "draw" not in {f.name for f in dataclasses.fields(Step)}
    assert not (ROOT / "tabletop" / "rules" / "fight_phase" / "frames.py").exists()
    assert not (ROOT / "tabletop" / "rules" / "rank_and_flank" / "draw.py").exists()


def _in_chance(tree, kw) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and kw in node.keywords:
            fn = node.func
            return (fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")) == "Chance"
    return False


# A small fight, positions mine: a/1 (red, 32mm: radius 0.63") at (10, 10), b/1 (blue, 32mm) at
# (13, 10): edge to edge 3 - 0.63 - 0.63 = 1.74", within 2" of engagement range.
FIGHT = """
[[units]]
id = "a"
player = "red"
base = "32mm"
profile = { T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Axe", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[10, 10]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = [{ name = "Choppa", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[13, 10]]
"""


def test_the_renderer_works_a_fight_step_drawing_out_of_its_events():
    from tabletop.render.step_draw import ENGAGED_COLOUR, draw_of
    from tabletop.rules.fight_phase import fight
    state = state_from(FIGHT)
    log = EventLog()
    # red (whose turn it is) fights first: hit 6 (3+), wound 6 (S4 v T4: 4+), b/1's save 1
    # (6+ fails); b/1 (W1) is removed and b destroyed, so blue never attacks
    fight(state, FixedDice([6, 6, 1]), Decisions(state.decisions, log), log)
    by_title = {s.title: s for s in log.steps}

    move = by_title["red: a makes its pile-in move"]
    d = draw_of(move)
    (ev,) = [log.events[i] for i in move.events if log.events[i].type == "pile_in"]
    path = d["arrows"]["a/1"]
    assert d["selected_unit"] == "a" and d["arrows"] == ev.moves
    assert path[0] == [10, 10]
    # closer to b/1 but never over it: base contact is b/1's centre less the two radii,
    # 13 - 1.26 = 11.74, so 10 < x <= 11.74 (a move of at most 1.74", within the 3")
    assert 10 < path[-1][0] <= 11.74 + 0.005 and path[-1][1] == pytest.approx(10, abs=0.02)
    assert d["reach"] == {"a/1": [10, 10, 3.0]}               # 3" from where it stood (12.03)
    assert d["ghosts"] == {"a/1": [10, 10, 90.0]}             # its start, facing 90 (default)
    assert d["lines"] == [[path[-1], [13.0, 10.0]]]           # to b/1, the closest enemy model
    assert d["highlight"] == {"a/1": ENGAGED_COLOUR, "b/1": ENGAGED_COLOUR}

    fought = by_title["red: a fights (normal fight)"]
    d = draw_of(fought)
    assert d["selected_unit"] == "a"
    # engaged as the attacks were made (b/1 is gone from the table after them)
    assert d["highlight"] == {"a/1": ENGAGED_COLOUR, "b/1": ENGAGED_COLOUR}
    assert d["casualties"] == [[13.0, 10.0, "32mm", 90.0]]   # where b/1 stood
    assert not fought.state.has_unit("b")

    start = log.steps[0]
    assert set(draw_of(start)) == {"highlight"}              # engaged at the start: 1.74" < 2"
