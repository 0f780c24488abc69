"""``tabletop fight``, ``pile-in`` and ``consolidate``: exit codes, text and --json shapes (docs/map-format.md).

32mm bases (radius 0.63"; touching centres 1.26" apart).
"""

from __future__ import annotations

import json

from fightkit import HEADER, unit

from tabletop.board import mapfile
from tests.mapkit import cli

DUEL = HEADER.format(rules="") + unit("R", "red", [(10, 10), (10, 11.4)], charged=True, A=3, W=2) \
    + unit("B", "blue", [(11.26, 10), (11.26, 11.4)], A=2, W=1) + """
[[objectives]]
id = "A"
at = [10, 14]
"""


def test_fight_json_events_have_the_contract_shapes(write_map, capsys):
    path = write_map(DUEL)
    code, out, _ = cli(capsys, "fight", path, "--seed", "7", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["seed"] == 7 and doc["ruleset"] == "fight-phase"
    events = doc["events"]
    assert all("type" in e and e["rule"].startswith("fight-phase.txt 12.") for e in events)
    kinds = {e["type"] for e in events}
    assert {"selected_to_fight", "pile_in", "roll", "consolidate"} <= kinds
    sel = [e for e in events if e["type"] == "selected_to_fight"]
    assert sel[0]["unit"] == "R" and sel[0]["player"] == "red" and sel[0]["fight"] == "normal"
    for e in events:
        if e["type"] == "roll":
            assert set(e) >= {"purpose", "dice", "modifiers", "target", "result", "player"}
        if e["type"] in ("pile_in", "consolidate"):
            assert set(e) >= {"unit", "mode", "moves"}
            for path_pts in e["moves"].values():
                assert all(len(p) == 2 for p in path_pts)
        if e["type"] == "removed":
            assert "model" in e
        if e["type"] == "destroyed":
            assert {"unit", "reason"} <= set(e)
    assert doc["steps"][0]["title"] == "Start of the Fight phase"
    assert doc["steps"][-1]["title"] == "End of the Fight phase"


def test_fight_prints_each_roll_and_writes_the_state_after(write_map, capsys, tmp_path):
    path = write_map(DUEL)
    out_path = str(tmp_path / "after.toml")
    code, out, _ = cli(capsys, "fight", path, "--seed", "7", "-o", out_path)
    assert code == 0
    assert "Hit roll (red)" in out   # the shared wording (tabletop.rules.describe)
    assert "seed 7" in out
    after = mapfile.load(out_path)
    # the JSON run with the same seed removes the same models
    code, js, _ = cli(capsys, "fight", path, "--seed", "7", "--json")
    removed = {e["model"] for e in json.loads(js)["events"] if e["type"] == "removed"}
    left = {m.id for m in after.models()}
    assert left == {"R/1", "R/2", "B/1", "B/2"} - removed
    wounded = {e["model"]: e["wounds_lost"] for e in json.loads(js)["events"]
               if e["type"] == "wounded" and e["model"] not in removed}
    for mid, lost in wounded.items():
        assert after.model(mid).wounds_lost == lost


def test_fight_bad_input_exits_2(write_map, capsys, tmp_path):
    code, _, err = cli(capsys, "fight", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in err
    path = write_map(DUEL.replace("T = 4, Sv = 6", "Sv = 6", 1))
    code, _, err = cli(capsys, "fight", path)
    assert code == 2 and "units[0].profile.T: missing" in err
    path = write_map(DUEL, "duel.toml")
    code, _, err = cli(capsys, "fight", path, "-o", path)
    assert code == 2 and "-o is the input map" in err


def test_fight_odds_prints_the_fight_phase_odds(write_map, capsys):
    code, out, _ = cli(capsys, "fight", write_map(DUEL), "--odds", "--runs", "20")
    assert code == 0 and "Fight odds" in out        # tests/test_rules_fight_odds.py has the numbers


PILE = HEADER.format(rules='[rules]\nedition = "10th"\n') \
    + unit("R", "red", [(10, 10)], charged=True) + unit("N", "red", [(2, 2)]) \
    + unit("B", "blue", [(16.76, 10)], A=0)


def test_pile_in_exit_codes(write_map, capsys, tmp_path):
    # "10th": engagement range 1".  B is 16.76 - 10 - 1.26 = 5.5" from R: outside 5", so R has
    # no pile-in target (exit 1); N did not charge and is not engaged (exit 1); Z is unknown (2).
    path = write_map(PILE)
    code, out, _ = cli(capsys, "pile-in", path, "R", "-o", str(tmp_path / "o.toml"))
    assert code == 1 and "no enemy unit is within 5\"" in out
    code, out, _ = cli(capsys, "pile-in", path, "N", "--json")
    assert code == 1 and "not engaged, did not make a charge move" in json.loads(out)["reason"]
    code, _, err = cli(capsys, "pile-in", path, "Z")
    assert code == 2 and "no unit 'Z'" in err


def test_pile_in_no_legal_move_lists_the_broken_clause(write_map, capsys):
    # B at 4.5" (centre 15.76): within 5", but 3" of move leaves 1.5" > 1": R cannot end
    # engaged (12.03 AFTER MOVING): exit 1 with the clause.
    path = write_map(PILE.replace("[16.76, 10]", "[15.76, 10]"))
    code, out, _ = cli(capsys, "pile-in", path, "R", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["legal"] is False and doc["reason"] == "no legal move"
    assert doc["violations"] and all("12.03" in v["clause"] or "12.03" in v["message"]
                                     for v in doc["violations"])


def test_pile_in_moves_and_writes(write_map, capsys, tmp_path):
    # B at 2" (centre 13.26): R's model moves at most 3" and ends engaged (within 1").
    path = write_map(PILE.replace("[16.76, 10]", "[13.26, 10]"))
    out_path = str(tmp_path / "after.toml")
    code, out, _ = cli(capsys, "pile-in", path, "R", "-o", out_path, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["legal"] and doc["targets"] == ["B"] and doc["output"] == out_path
    assert 0 < doc["distances"]["R/1"] <= 3.0 + 0.02
    after = mapfile.load(out_path)
    assert tuple(round(v, 4) for v in after.model("R/1").at) == tuple(doc["moves"]["R/1"][-1])


def test_consolidate_modes_and_eligibility(write_map, capsys):
    # R alone 2.08" from objective A's edge (14 - 10 - 0.63 - 0.79); no enemy within 3".
    text = HEADER.format(rules="") + unit("R", "red", [(10, 10)]) \
        + unit("B", "blue", [(25, 10)], A=0) + '[[objectives]]\nid = "A"\nat = [10, 13.5]\n'
    path = write_map(text)
    code, out, _ = cli(capsys, "consolidate", path, "R")
    assert code == 1 and "was not eligible to fight this phase" in out
    code, out, _ = cli(capsys, "consolidate", path, "R", "--fought", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["mode"] == "objective" and doc["targets"] == ["A"]


def test_consolidate_says_when_no_mode_applies(write_map, capsys):
    # R charged (eligible, 12.08 ELIGIBLE IF), but B is 25 - 10 - 1.26 = 13.74" away and there
    # is no objective: no consolidation mode applies (12.08 BEFORE MOVING).  That is not the
    # same as "not eligible", and the text says which.
    text = HEADER.format(rules="") + unit("R", "red", [(10, 10)], charged=True) \
        + unit("B", "blue", [(25, 10)], A=0)
    path = write_map(text)
    code, out, _ = cli(capsys, "consolidate", path, "R")
    assert code == 1
    assert out.strip() == ('R: no consolidation mode applies: R is not engaged and no enemy unit '
                           'and no objective is within 3" (fight-phase.txt 12.08 BEFORE MOVING)')
    # a unit that was not eligible to fight still says so
    code, out, _ = cli(capsys, "consolidate", write_map(text.replace("charged = true", ""),
                                                         "n.toml"), "R")
    assert code == 1 and out.startswith("R: not eligible: ")
    # and the pile-in with nothing within 5" names its reason too
    code, out, _ = cli(capsys, "pile-in", path, "R")
    assert code == 1 and out.startswith("R: no pile-in target: ")
