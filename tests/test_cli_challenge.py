"""``tabletop fight`` on the two challenge lessons end to end: events, -o, --odds, frames.

maps/lessons/gambit-challenge.toml: fight-phase, challenges = "gambit"; tac/4 (commander) and
breachers/4 (champion).  maps/lessons/character-challenge.toml: rank-and-flank, challenges =
"character"; spears/2 (commander) and swords/2 (champion).
"""

from __future__ import annotations

import json
from pathlib import Path

from tabletop.board import mapfile
from tabletop.cli import main

MAPS = Path(__file__).resolve().parent.parent / "maps"
GAMBIT = str(MAPS / "lessons/gambit-challenge.toml")
CHARACTER = str(MAPS / "lessons/character-challenge.toml")


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_gambit_challenge_inside_the_fight_phase(capsys, tmp_path):
    out_map = str(tmp_path / "after.toml")
    code, out, _ = run(capsys, "fight", GAMBIT, "--seed", "3", "--json", "-o", out_map)
    assert code == 0
    events = json.loads(out)["events"]
    kinds = [e["type"] for e in events]
    # the sub-phase sits between the pile-in step and the Fight step
    steps = [e["step"] for e in events if e["type"] == "phase_step"]
    assert steps[:5] == ["start", "pile_in", "challenge", "fight", "resolution"]
    for k in ("challenge_issued", "challenge_accepted", "gambit_chosen", "challenge_advantage",
              "challenge_result"):
        assert k in kinds, k
    assert kinds.index("challenge_result") < kinds.index("selected_to_fight")
    iss = next(e for e in events if e["type"] == "challenge_issued")
    assert (iss["player"], iss["challenger"]) == ("red", "tac/4")
    assert next(e for e in events if e["type"] == "challenge_accepted")["challenged"] == "breachers/4"
    focus = [e for e in events if e["type"] == "roll" and e["purpose"].startswith("Focus Roll")]
    assert focus and all(e["player"] in ("red", "blue") for e in focus)
    # outside support counted from the table after the pile-in: red 12 engaged models -> +2, blue 7 -> +1;
    # every Focus Roll shows it, +0 when its gambit drops it (Grandstand)
    support = {e["player"]: e["bonus"] for e in events if e["type"] == "outside_support"}
    assert support == {"red": 2, "blue": 1}
    gambits: dict[str, str] = {}
    for e in events:                   # the gambits chosen this round, then its Focus Rolls
        if e["type"] == "gambit_chosen":
            gambits[e["player"]] = e["gambit"]
        elif e in focus:
            dropped = gambits[e["player"]] in ("Grandstand", "Test the Foe")
            assert e["modifiers"]["outside support"] == (0 if dropped else support[e["player"]]), e
    assert all(e["rule"].startswith("gambit-challenge.txt") for e in events
               if e["type"].startswith(("challenge_", "gambit_", "returned")))
    # nothing the fight step did touched the duellists: no attack allocated to them
    fought = {e["model"] for e in events if e["type"] in ("wounded",)}
    assert not fought & {"tac/4", "breachers/4"}
    res = next(e for e in events if e["type"] == "challenge_result")
    after = mapfile.load(out_map)
    survivors = {"tac/4", "breachers/4"} - set(res["removed"])
    for mid in survivors:
        assert any(e["type"] == "returned" and e["model"] == mid for e in events)
        after.model(mid)           # back on the table in the map written by -o


def test_character_challenge_inside_the_rank_and_flank_round(capsys):
    code, out, _ = run(capsys, "fight", CHARACTER, "--seed", "2", "--json")
    assert code == 0
    events = json.loads(out)["events"]
    kinds = [e["type"] for e in events]
    assert kinds.index("challenge_issued") < kinds.index("engagement") < kinds.index("challenge_result")
    res = next(e for e in events if e["type"] == "challenge_result")
    score = next(e for e in events if e["type"] == "combat_score")
    challenge_items = [i for i in score["breakdown"] if i["source"] == "challenge"]
    assert sum(i["score"] for i in challenge_items) == sum(res["scores"].values())
    attackers = {a["model"] for e in events if e["type"] == "attackers" for a in e["attacks"]}
    assert not attackers & {"spears/2", "swords/2"}


def test_odds_table_per_gambit_pair(capsys):
    code, out, _ = run(capsys, "fight", GAMBIT, "--odds")
    assert code == 0
    lines = out.split("\nFight odds")[0].splitlines()     # the fight-phase odds follow
    assert lines[0].startswith("Challenge odds in the combat breachers + tac (gambit challenge")
    rows = [ln for ln in lines if ln.startswith("  ") and not ln.startswith("    ") and "%" in ln
            and "default policy" not in ln]   # the pair rows; the glory points lines are indented 4
    assert len(rows) == 64                    # every pair the Face-Off allows
    assert any(ln.strip().startswith("default policy:") for ln in lines)
    glory = [ln.split()[0] for ln in lines if ln.startswith("    ") and " pts " in ln]
    assert glory == ["red", "blue"]           # the default policy's pair: one points line per player
    code, out, _ = run(capsys, "fight", GAMBIT, "--odds", "--json")
    doc = json.loads(out)
    (combat,) = doc["combats"]
    assert combat["challenger"] == "tac/4" and combat["challenged"] == "breachers/4"
    for row in combat["pairs"]:
        assert abs(sum(row["win"].values()) + row["draw"] - 1) < 1e-9


def test_odds_for_a_character_challenge():
    # (through the report directly: the command adds the rank-and-flank ruleset's own
    # engagement odds, an exact enumeration that takes tens of seconds on this map)
    from tabletop.rules.challenges.report import challenge_odds, odds_lines
    report = challenge_odds(mapfile.load(CHARACTER))
    (combat,) = report["combats"]
    pairs = {(r["challenger"], r["challenged"]) for r in combat["pairs"]}
    assert pairs == {("spears/2", "swords/2"), ("swords/2", "spears/2")}
    for r in combat["pairs"]:
        total = sum(r["win"].values()) + r["both_die"] + r["both_survive"]
        assert abs(total - 1) < 1e-9
    text = "\n".join(odds_lines(report))
    assert "character challenge" in text and "spears/2" in text


def test_frames_include_the_challenge_steps(capsys, tmp_path):
    folder = tmp_path / "frames"
    code, _, _ = run(capsys, "fight", GAMBIT, "--seed", "6", "--frames", str(folder))
    assert code == 0
    names = sorted(p.name for p in folder.iterdir())
    for part in ("challenge-set-aside", "face-off-round-1", "focus-round-1", "strike-round-1", "glory",
                 "resolution-challengers-return"):
        assert any(part in n for n in names), part
