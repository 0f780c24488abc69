"""Target selection never makes a legal move impossible (fight-phase.txt 12.03, 12.08).

12.03 lets an unengaged unit select one or more enemy units within 5"; 12.08's
engaging mode one or more of those within 3".  Unscripted, the default policy
(``rules/fight_phase/targets.py``) tries the ruleset's default selection, then
single units nearest first, then pairs, ... and keeps the legal move engaging
the most models.

Positions: 25.4mm bases (radius 0.5", touching centres 1" apart, so a gap is
the centre distance - 1"); the "10th" preset (engagement range 1", coherency
2" of one other model, no spread); red is the player whose turn it is.
"""

from __future__ import annotations

import json
import math
import textwrap
import tomllib

import pytest

from tabletop.app.interactive import PlaySession, distinct_options
from tabletop.board import mapfile
from tabletop.board.state import Decision
from tabletop.cli import main
from tabletop.geometry import snapshot
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase import consolidate, fight, pile_in
from tabletop.rules.fight_phase.targets import selection_order

HEADER = """
[map]
name = "targets"
ruleset = "fight-phase"
width = 44.0
depth = 30.0

[rules]
edition = "10th"
{rules}

[[players]]
id = "red"
active = true

[[players]]
id = "blue"
"""

# the wall: impassable, y 18.2..18.6 over x 14..26, so a 0.5" base's centre stays at
# y >= 18.6 + 0.5 = 19.1 above it, and going round an end is more than 6" from (20, 20)
WALL = """
[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[14, 18.2], [26, 18.2], [26, 18.6], [14, 18.6]]
"""


def unit(uid: str, player: str, models, charged: bool = False, attacks: int = 0) -> str:
    weapons = (f'[{{ name = "Blade", A = {attacks}, WS = 3, S = 4, AP = 0, D = 1 }}]'
               if attacks else "[]")
    pts = ", ".join(f"[{x}, {y}]" for x, y in models)
    return f"""
[[units]]
id = "{uid}"
player = "{player}"
base = "25.4mm"
charged = {str(charged).lower()}
profile = {{ T = 4, Sv = 6, W = 1 }}
weapons = {weapons}
models = [{pts}]
"""


def state_of(*parts: str, rules: str = "", extra: str = ""):
    text = HEADER.format(rules=rules) + "".join(parts) + textwrap.dedent(extra)
    return mapfile.from_dict(tomllib.loads(text), path="targets.toml")


def gap(a, b) -> float:
    """Edge gap between two 25.4mm bases at centres ``a`` and ``b``, inches."""
    return math.dist(a, b) - 1.0


# ---------------------------------------------------------------- the closest unit behind a wall
# r/1 at (20, 20).  w/1 at (20, 16.8), under the wall: gap 3.2 - 1 = 2.2".  e/1 at (24.2, 20):
# gap 4.2 - 1 = 3.2".  Both within 5": the default selects both (PILE_IN_TARGETS), and w is the
# closest to r/1, so r/1 must end closer to w (centre nearer than 3.2") and the unit engaged
# (centre within 2" of an enemy's).  Above the wall (y >= 19.1) the points nearer w than 3.2"
# have |x - 20| <= sqrt(3.2^2 - 2.3^2) = 2.225; the one of them nearest e is (22.225, 19.1),
# sqrt(1.975^2 + 0.9^2) = 2.17" > 2" from e's centre; w is at least 19.1 - 16.8 = 2.3" > 2":
# no legal move toward both, none toward w alone; toward e alone r/1 moves 4.2 - 2 = 2.2" <= 3".
def wall_state(consolidating: bool = False, extra: str = ""):
    e_at = (23.6, 20) if consolidating else (24.2, 20)
    return state_of(WALL, unit("r", "red", [(20, 20)], charged=True, attacks=1),
                    unit("w", "blue", [(20, 16.8)]), unit("e", "blue", [e_at]), extra=extra)


def test_pile_in_skips_the_closest_unit_behind_a_wall():
    state = wall_state()
    outcome = pile_in(state, "r")
    assert outcome.legal and outcome.targets == ("e",)
    # tried: the default (both, ids sorted), then w (2.2") before e (3.2")
    assert [(t.targets, t.legal) for t in outcome.tried] == [
        (("e", "w"), False), (("w",), False), (("e",), True)]
    assert outcome.tried[2].engaged == 1           # r's one model
    end = outcome.plan.positions["r/1"]
    assert gap(end, (24.2, 20)) <= 1.0 + state.rules.tol     # engaged with e (10th: 1")
    assert outcome.distances["r/1"] <= 3.0 + 1e-9
    assert outcome.validator == []


def test_selection_order_is_the_default_then_nearest_first():
    state = wall_state()
    geo = snapshot(state)
    # w 2.2" < e 3.2": singles w, e; then the pair (the default, already first)
    assert list(selection_order(geo, "r", ["e", "w"], ("e", "w"))) == [("e", "w"), ("w",), ("e",)]
    assert list(selection_order(geo, "r", ["e", "w"], ("w",))) == [("w",), ("e",), ("e", "w")]
    assert list(selection_order(geo, "r", ["e", "w"], ("w",), max_size=1)) == [("w",), ("e",)]


def test_the_bound_on_selections_tried_is_a_rules_option():
    # [rules] target_selections_tried = 2: only (e, w) and w are tried, neither legal
    state = state_of(WALL, unit("r", "red", [(20, 20)], charged=True),
                     unit("w", "blue", [(20, 16.8)]), unit("e", "blue", [(24.2, 20)]),
                     rules="target_selections_tried = 2")
    assert state.rules.target_selections_tried == 2
    outcome = pile_in(state, "r")
    assert not outcome.legal and [t.targets for t in outcome.tried] == [("e", "w"), ("w",)]
    assert outcome.targets == ("e", "w")          # the default's move is the one refused


def test_a_scripted_selection_is_used_as_it_is():
    # pile_in_targets = "w": scripted, so no search; w alone has no legal move (above)
    script = '\n[[decisions]]\nplayer = "red"\nchoice = "pile_in_targets"\nvalue = "w"\n'
    outcome = pile_in(wall_state(extra=script), "r")
    assert outcome.targets == ("w",) and not outcome.legal and outcome.tried == []


def test_fight_piles_in_toward_the_reachable_unit_and_fights_it():
    # in the phase r (charged) piles in toward e, is then engaged and makes a normal fight
    # against e (12.05); before, it made no move and its overrun found no one to attack
    res = fight(wall_state(), Dice(1))
    piles = [(e["unit"], e["targets"]) for e in res.log.of_type("pile_in")]
    assert piles[0] == ("r", ["e"])          # then e, now engaged, piles in toward r
    # r charged: Fights First (12.04 (1)); e, engaged now, fights after it
    assert [(e["unit"], e["fight"]) for e in res.log.of_type("selected_to_fight")] == [
        ("r", "normal"), ("e", "normal")]
    assert [e["target"] for e in res.log.of_type("attacks_resolved") if e["unit"] == "r"] == ["e"]


def test_engaging_consolidation_skips_the_closest_unit_behind_a_wall():
    # e/1 at (23.6, 20): gap 3.6 - 1 = 2.6"; w 2.2": both within 3", so the mode is engaging
    # and the default selects the closest, w, which r/1 cannot engage (centre >= 2.3" from
    # w's, above).  e alone: r/1 moves 3.6 - 2 = 1.6" <= 3" and ends engaged with it.
    state = wall_state(consolidating=True)
    outcome = consolidate(state, "r", fought=True)
    assert outcome.mode == "engaging" and outcome.legal and outcome.targets == ("e",)
    # w first (the default), then e (w is skipped as a single: it was the default);
    # e engages r's only model, so the pair (e, w) is never tried
    assert [(t.targets, t.legal, t.engaged) for t in outcome.tried] == [
        (("w",), False, 0), (("e",), True, 1)]
    assert gap(outcome.plan.positions["r/1"], (23.6, 20)) <= 1.0 + state.rules.tol


# ---------------------------------------------------------------- both break coherency
# r/1 at (20, 20), r/2 at (22, 20): gap 1".  a/1 at (15.8, 20): 3.2" from r/1 (5.2" from
# r/2); b/1 at (26.5, 20): 3.5" from r/2 (5.5" from r/1).  Toward both, r/1's closest is a
# and r/2's is b.  r/1 engages a only with its centre within 2" of (15.8, 20); r/2 moved must
# stay nearer b than 4.5" (centre); r/2 at rest is 4.2 > 3" (centre) from any such spot: so to
# engage a, r/2 must move and ends more than 10.7 - 4.5 - 2 = 4.2" (centre) from r/1: out of
# coherency (03.03: 2" gap, 3" centres).  The same holds for engaging b (10.7 - 4.2 - 2 = 4.5
# > 3; r/1 unmoved 6.5 - 2 = 4.5 > 3).  Unengaged is illegal (12.03 AFTER MOVING): no legal
# move toward both.  Toward a alone both models move toward a: r/1 ends engaged; r/2 cannot
# (a point within 2" of a's centre is at least 4.2 - 2 = 2.2"... past r/1, so one model
# engaged; toward b alone one model too: a tie, and a (3.2") is nearer than b (3.5").
COHERENCY = (unit("r", "red", [(20, 20), (22, 20)], charged=True),
             unit("a", "blue", [(15.8, 20)]), unit("b", "blue", [(26.5, 20)]))


def test_pile_in_toward_one_unit_when_both_break_coherency():
    state = state_of(*COHERENCY)
    outcome = pile_in(state, "r")
    assert outcome.legal and outcome.targets == ("a",)
    assert [(t.targets, t.legal, t.engaged) for t in outcome.tried] == [
        (("a", "b"), False, 0), (("a",), True, 1), (("b",), True, 1)]
    assert any("coherency" in t for t in [outcome.tried[0].reason])
    after = outcome.state_after(state)
    geo = snapshot(after)
    assert geo.model_engaged_with_unit("r/1", "a") and geo.in_coherency("r")


def test_the_selection_engaging_more_models_is_kept():
    # r/1 (20, 20), r/2 (21.2, 20): gap 0.2".  a/1 (17, 20): 3 - 1 = 2" from r/1, 3.2" from r/2;
    # b/1 (25, 20): 2.8" from r/2, 4" from r/1.  Toward both (the default), r/1's closest is a,
    # r/2's is b: engaging a (r/1 centre <= 19) and b (r/2 centre >= 23) leaves 4 > 3" between
    # centres, so at most one engages: legal, 1 model.  Toward a alone r/2 can engage a too:
    # (21.2, 20) -> (18.6, 21): sqrt(2.6^2 + 1) = 2.79" <= 3", then sqrt(1.6^2 + 1) = 1.89" <= 2"
    # from a's centre: 2 models, every model of r, so the search stops there.
    state = state_of(unit("r", "red", [(20, 20), (21.2, 20)], charged=True),
                     unit("a", "blue", [(17, 20)]), unit("b", "blue", [(25, 20)]))
    outcome = pile_in(state, "r")
    assert outcome.legal and outcome.targets == ("a",)
    assert [(t.targets, t.legal, t.engaged) for t in outcome.tried] == [
        (("a", "b"), True, 1), (("a",), True, 2)]
    geo = snapshot(outcome.state_after(state))
    assert geo.model_engaged_with_unit("r/1", "a") and geo.model_engaged_with_unit("r/2", "a")


# ---------------------------------------------------------------- nothing legal
# r/1 at (20, 20); x/1 at (14.5, 20): gap 5.5 - 1 = 4.5"; y/1 at (25.7, 20): gap 4.7".  Both
# within 5", but 3" of move leaves 1.5" and 1.7" > 1": no selection can end engaged.
NOTHING = (unit("r", "red", [(20, 20)], charged=True), unit("x", "blue", [(14.5, 20)]),
           unit("y", "blue", [(25.7, 20)]))


def test_no_legal_move_names_every_selection_tried():
    outcome = pile_in(state_of(*NOTHING), "r")
    assert not outcome.legal and outcome.targets == ("x", "y")
    assert [t.targets for t in outcome.tried] == [("x", "y"), ("x",), ("y",)]
    reason = outcome.no_move_reason()
    assert reason.startswith("no legal move for any of the 3 target selections tried")
    assert "x + y: no legal move (" in reason and "; x: no legal move (" in reason
    assert "; y: no legal move (" in reason and "12.03" in reason


def test_cli_pile_in_no_legal_move_lists_what_was_tried(tmp_path, capsys):
    path = tmp_path / "nothing.toml"
    path.write_text(HEADER.format(rules="") + "".join(NOTHING))
    assert main(["pile-in", str(path), "r", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False and doc["targets"] == ["x", "y"]
    assert [t["targets"] for t in doc["tried"]] == [["x", "y"], ["x"], ["y"]]
    assert [t["legal"] for t in doc["tried"]] == [False, False, False]
    assert doc["reason"].startswith("no legal move for any of the 3 target selections tried")
    assert main(["pile-in", str(path), "r"]) == 1
    out = capsys.readouterr().out
    assert "target selections tried" in out and "    x: no legal move (" in out


def test_fight_no_move_event_names_what_was_tried():
    res = fight(state_of(*NOTHING), Dice(1))
    ev = res.log.of_type("no_move")[0]
    assert ev["unit"] == "r" and [t["targets"] for t in ev["tried"]] == [["x", "y"], ["x"], ["y"]]
    assert ev["reason"].startswith("no legal move for any of the 3 target selections tried")


def test_cli_pile_in_json_keeps_its_keys_and_adds_tried(tmp_path, capsys):
    path = tmp_path / "coherency.toml"
    path.write_text(HEADER.format(rules="") + "".join(COHERENCY))
    assert main(["pile-in", str(path), "r", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"unit", "mode", "rule", "targets", "legal", "reason", "moves",
                        "distances", "violations", "output", "tried"}
    assert doc["targets"] == ["a"] and doc["reason"] is None
    assert [(t["targets"], t["legal"]) for t in doc["tried"]] == [
        (["a", "b"], False), (["a"], True), (["b"], True)]


# ---------------------------------------------------------------- the window offers the legal ones
def test_the_window_is_offered_the_legal_selections_with_the_search_pick_as_default():
    # the coherency case: a + b has no legal move; a and b each have one, a preferred
    state = state_of(*COHERENCY)
    log = EventLog()
    asked = {}

    def person(player, choice, options, default, context):
        asked[choice] = (distinct_options(options), default)
        return "b"

    outcome = pile_in(state, "r", Decisions((), log, policy=person), log)
    assert asked["pile_in_targets"] == (["a", "b"], "a")
    assert outcome.legal and outcome.targets == ("b",)
    geo = snapshot(outcome.state_after(state))
    assert geo.model_engaged_with_unit("r/2", "b")      # r/2 moves 3.5 - 1 = 2.5" to engage


def test_play_session_asks_for_the_legal_selections():
    # view --play: the fight's pile-in step puts the same question to the window
    session = PlaySession(state_of(*COHERENCY), seed=1)
    session.start()
    try:
        item = None
        for _ in range(100_000):
            got = [(k, i) for k, i in session.poll() if k == "question"]
            if got:
                kind, item = got[-1]
                if item.choice == "pile_in_targets":
                    break
                # "which unit piles in next?": r (or none)
                assert (item.choice, item.default) == ("pile_in", "r")
                item.reply_default()
            assert not session.finished
        assert item is not None and (item.options, item.default) == (["a", "b"], "a")
    finally:
        assert session.stop()


@pytest.mark.parametrize("value", ["b", ["a", "b"]])
def test_decisions_search_runs_only_without_a_scripted_answer(value):
    calls = []

    def search():
        calls.append(1)
        return ["a"], "a"

    dec = Decisions([Decision("red", "pile_in_targets", value)])
    assert dec.choose("red", "pile_in_targets", ["a", "b", ["a", "b"]], default="a",
                      search=search) == value
    assert calls == []
    assert dec.choose("red", "pile_in_targets", ["a", "b"], default="b", search=search) == "a"
    assert calls == [1]


def test_objective_consolidation_keeps_the_nearest_objective_with_a_legal_move():
    # r/1 at (20, 20), no enemy within 3" (b far away): objective mode (12.08).  40mm markers
    # (radius 0.7874"): n at (20, 22.5): 2.5 - 0.5 - 0.7874 = 1.2126" from r/1; f at (16.5, 20):
    # 3.5 - 0.5 - 0.7874 = 2.2126".  Both within 3", so both selectable; n is the nearest and
    # r is already within its range, so it is legal and the search stops there: one try.
    objectives = '\n[[objectives]]\nid = "n"\nat = [20, 22.5]\n\n[[objectives]]\nid = "f"\nat = [16.5, 20]\n'
    state = state_of(unit("r", "red", [(20, 20)], charged=True), unit("b", "blue", [(40, 5)]),
                     extra=objectives)
    outcome = consolidate(state, "r", fought=True)
    assert outcome.mode == "objective" and outcome.legal and outcome.targets == ("n",)
    assert [(t.targets, t.legal) for t in outcome.tried] == [(("n",), True)]
