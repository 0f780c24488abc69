"""``tabletop pile-in|consolidate MAP UNIT --check MOVED``: hand-made moves judged clause by clause.

fight-phase.txt 12.03 / 12.08.  The maps and their arithmetic:
tests/scenarios/validator_illegal.toml, check_coherency.toml, consolidate_objective.toml
(11th edition: engagement range 2", coherency 2", tolerance 0.02"; 32mm bases 1.25984" across).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.board import mapfile
from tabletop.cli import main

TESTS = Path(__file__).resolve().parent
MAPS = TESTS.parent / "maps"
SCENARIOS = TESTS / "scenarios"

ILLEGAL = str(SCENARIOS / "validator_illegal.toml")
COHERENCY = str(SCENARIOS / "check_coherency.toml")
OBJECTIVE = str(SCENARIOS / "consolidate_objective.toml")


def moved(tmp_path, src: str, positions: dict, name: str = "moved.toml") -> str:
    """MOVED: the map ``src`` with ``positions`` changed, written to ``tmp_path``."""
    out = tmp_path / name
    mapfile.save(mapfile.load(src).with_positions(positions), str(out), overwrite=True)
    return str(out)


def run(capsys, *argv) -> tuple[int, list[str], str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out.splitlines(), cap.err


def test_legal_pile_in(tmp_path, capsys):
    # r/3 (18, 16.9) -> (18.5, 18): sqrt(0.5^2 + 1.1^2) = 1.20830";
    # to e/1 sqrt(1.5^2 + 2^2) = 2.5 -> gap 1.24016" (engaged, closer than 2.42933");
    # to r/1 sqrt(1.5^2 + 0.74016^2) = 1.67267 -> gap 0.41283" (coherent, no overlap)
    f = moved(tmp_path, ILLEGAL, {"r/3": (18.5, 18.0)})
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f)
    assert code == 0
    assert out == [
        f"r pile-in (fight-phase.txt 12.03) toward e, as placed in {f} (straight paths): legal",
        '  r/3: (18.00, 16.90) -> (18.50, 18.00) moved 1.21"',
        "The validator finds no broken clause.",
    ]


def test_moved_too_far(tmp_path, capsys):
    # r/3 straight up 16.9 -> 20.31: 3.41" > 3"; it ends sqrt(2^2 + 0.31^2) - 1.25984 =
    # 0.76404" from e/1 (closer, engaged) and 2.54252 - 1.25984 = 1.28268" from r/1 (coherent);
    # its line passes 2" from r/1's and e/1's centres (clear of 1.26")
    f = moved(tmp_path, ILLEGAL, {"r/3": (18.0, 20.31)})
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f)
    assert code == 1
    assert out == [
        f"r pile-in (fight-phase.txt 12.03) toward e, as placed in {f} (straight paths): "
        "1 broken clause",
        '  r/3: (18.00, 16.90) -> (18.00, 20.31) moved 3.41"',
        "broken:",
        '  r/3 moved 3.41" > 3" (12.03)',
    ]


def test_overlapping(tmp_path, capsys):
    # r/4 (20, 16.5) -> (20.3, 17.6): sqrt(0.3^2 + 1.1^2) = 1.14018" moved;
    # to r/1 sqrt(0.3^2 + 1.14016^2) = 1.17897 < 1.25984: overlapping by 0.08087";
    # to e/1 sqrt(0.3^2 + 2.4^2) = 2.41868 -> gap 1.15884" (closer than 2.24016", engaged)
    f = moved(tmp_path, ILLEGAL, {"r/4": (20.3, 17.6)})
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f)
    assert code == 1
    assert out[1:] == [
        '  r/4: (20.00, 16.50) -> (20.30, 17.60) moved 1.14"',
        "broken:",
        '  r/4 ends overlapping r/1 by 0.08" (12.03)',
    ]


def test_not_closer(tmp_path, capsys):
    # r/2 (22, 18.74016) -> (22.5, 18.74016): to e/1 sqrt(2.5^2 + 1.25984^2) = 2.79950
    # -> gap 1.53966" (still engaged, within 2"), but it started sqrt(2^2 + 1.25984^2)
    # - 1.25984 = 1.10389" away: not closer; to r/1 2.5 - 1.25984 = 1.24016" (coherent)
    f = moved(tmp_path, ILLEGAL, {"r/2": (22.5, 18.74016)})
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f)
    assert code == 1
    assert out[1:] == [
        '  r/2: (22.00, 18.74) -> (22.50, 18.74) moved 0.50"',
        "broken:",
        '  r/2 ends 1.54" from e (its closest model e/1), not closer than the 1.10" it started '
        "(12.03)",
    ]


def test_leaves_coherency(tmp_path, capsys):
    # check_coherency.toml: r/2 (22.5, 17.6) -> (23.2, 20.3), 2.78927"; ends 1.95419" from e/1
    # (closer, engaged) and 2.30009" from r/1, its nearest friend: out of coherency
    f = moved(tmp_path, COHERENCY, {"r/2": (23.2, 20.3)})
    code, out, _ = run(capsys, "pile-in", COHERENCY, "r", "--check", f)
    assert code == 1
    assert out[1:] == [
        '  r/2: (22.50, 17.60) -> (23.20, 20.30) moved 2.79"',
        "broken:",
        '  r/2 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.03)',
    ]


def test_json_lists_the_violations(tmp_path, capsys):
    f = moved(tmp_path, ILLEGAL, {"r/3": (18.0, 20.31)})
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f, "--json")
    assert code == 1
    obj = json.loads("\n".join(out))
    assert obj["legal"] is False and obj["paths"] == "straight" and obj["targets"] == ["e"]
    assert obj["moves"] == {"r/3": [[18.0, 16.9], [18.0, 20.31]]}
    assert obj["distances"]["r/3"] == pytest.approx(3.41)
    assert obj["violations"] == [{"model": "r/3", "clause": "fight-phase.txt 12.03",
                                  "message": 'r/3 moved 3.41" > 3" (12.03)'}]


def test_models_absent_from_moved_stay_put(tmp_path, capsys):
    # MOVED has only r/1..r/3 (r/4 dropped): r/4 stays at (20, 16.5); r/3 moves as in the legal test
    state = mapfile.load(ILLEGAL).with_positions({"r/3": (18.5, 18.0)})
    state = state.without_models(["r/4"])
    f = str(tmp_path / "three.toml")
    mapfile.save(state, f)
    code, out, _ = run(capsys, "pile-in", ILLEGAL, "r", "--check", f)
    assert code == 0
    assert out[1:] == ['  r/3: (18.00, 16.90) -> (18.50, 18.00) moved 1.21"',
                       "The validator finds no broken clause."]


def test_the_solvers_move_with_its_paths_is_legal(tmp_path, capsys):
    # the JSON pile-in --json prints carries each model's path (round friends): judged as given
    lesson = str(MAPS / "lessons/pile-in.toml")
    code, out, _ = run(capsys, "pile-in", lesson, "intercessors", "--json")
    assert code == 0
    f = tmp_path / "move.json"
    f.write_text("\n".join(out), encoding="utf-8")
    code, out, _ = run(capsys, "pile-in", lesson, "intercessors", "--check", str(f))
    assert code == 0, out
    assert out[0].endswith(f"along the paths in {f}: legal")


def test_consolidation_onto_an_objective(tmp_path, capsys):
    # consolidate_objective.toml: r/2 (24.87545, 17.04134) is 5.91732" from A's centre, along
    # (0.866025, 0.5).  1.6" toward A: (26.26109, 17.84134), 4.31732 from A's centre ->
    # 4.31732 - 0.7874 - 0.62992 = 2.9" from the marker, within its 3"
    f = moved(tmp_path, OBJECTIVE, {"r/2": (26.26109, 17.84134)})
    code, out, _ = run(capsys, "consolidate", OBJECTIVE, "r", "--check", f)
    # not engaged, did not charge: not eligible unless it fought (12.08 ELIGIBLE IF)
    assert code == 1
    assert out == ["r: not eligible: r is not engaged and did not charge, so it was not eligible "
                   "to fight this phase (fight-phase.txt 12.08 ELIGIBLE IF); pass --fought if it "
                   "fought"]
    code, out, _ = run(capsys, "consolidate", OBJECTIVE, "r", "--check", f, "--fought")
    assert code == 0
    assert out == [
        f"r consolidation (objective) (fight-phase.txt 12.08) toward A, as placed in {f} "
        "(straight paths): legal",
        '  r/2: (24.88, 17.04) -> (26.26, 17.84) moved 1.60"',
        "The validator finds no broken clause.",
    ]
    # 3.2" toward A: (27.64673, 18.64134), 1.3" from the marker; 3.20" > 3"
    f = moved(tmp_path, OBJECTIVE, {"r/2": (27.64673, 18.64134)}, "far.toml")
    code, out, _ = run(capsys, "consolidate", OBJECTIVE, "r", "--check", f, "--fought")
    assert code == 1
    assert out[2:] == ["broken:", '  r/2 moved 3.20" > 3" (12.08)']


def test_bad_input_exits_2(tmp_path, capsys):
    ok = moved(tmp_path, ILLEGAL, {"r/3": (18.5, 18.0)})
    code, out, err = run(capsys, "pile-in", ILLEGAL, "r", "--check", str(tmp_path / "nope.toml"))
    assert code == 2 and out == [] and "nope.toml" in err
    # the unit is missing from MOVED
    only_e = str(tmp_path / "only_e.toml")
    mapfile.save(mapfile.load(ILLEGAL).without_models(["r/1", "r/2", "r/3", "r/4"]), only_e)
    code, out, err = run(capsys, "pile-in", ILLEGAL, "r", "--check", only_e)
    assert code == 2 and err.splitlines() == [f"{only_e}: UNIT: no unit 'r' (units are e)"]
    # a model MAP's unit does not have
    five = str(tmp_path / "five.toml")
    src = open(ILLEGAL, encoding="utf-8").read().replace("[20, 16.5]]", "[20, 16.5], [25, 16.5]]")
    open(five, "w", encoding="utf-8").write(src)
    code, out, err = run(capsys, "pile-in", ILLEGAL, "r", "--check", five)
    assert code == 2 and err.splitlines() == [f"{five}: r/5: r has no such model on {ILLEGAL}"]
    # -o makes no sense with --check
    code, out, err = run(capsys, "pile-in", ILLEGAL, "r", "--check", ok, "-o", str(tmp_path / "x.toml"))
    assert code == 2 and "--check judges a move and writes nothing" in err
    # a JSON move that is not one
    bad = tmp_path / "bad.json"
    bad.write_text('{"moves": {"r/3": [[18, 16.9], [18, "up"]]}}', encoding="utf-8")
    code, out, err = run(capsys, "pile-in", ILLEGAL, "r", "--check", str(bad))
    assert code == 2 and err.splitlines() == [
        f"{bad}: moves.r/3: a path is a list of [x, y] points (inches)"]
