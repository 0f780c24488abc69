"""The ``--json`` contract (docs/json.md): every documented key is there, with its documented type.

The tables of docs/json.md are the contract; this file reads them (each follows a
``<!-- contract: NAME -->`` line) and runs every command with ``--json`` on the
shipped maps (and a few small inline maps for keys the shipped maps never print),
in-process through ``tabletop.cli.main``.  Three checks per contract:

- a key documented ``always`` is present wherever its parent is;
- a documented key that is present has the documented type;
- every documented key was printed by at least one of the runs (apart from
  ``NOT_EXERCISED``, each with the reason), so a renamed or dropped
  conditional key fails too.

Keys may be added freely: keys the tables do not list are not checked.  The
fight events table is checked the same way per event type: the ``always``
fields of each type present, every documented type seen in the runs.

``jsonschema`` is not installed in the project's environment, so the check is
this small reader of the tables rather than JSON Schema files (no new dependency).
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from fightkit import HEADER, unit

from tabletop.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "json.md"
MAPS = ROOT / "maps"

TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


# ------------------------------------------------------------------ reading docs/json.md

def _tables() -> dict[str, list[list[str]]]:
    """Contract name -> rows of its table (cells stripped, backticks removed)."""
    out: dict[str, list[list[str]]] = {}
    name = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"<!-- contract: ([\w-]+) -->", line.strip())
        if m:
            name = m.group(1)
            out[name] = []
            continue
        if name is None:
            continue
        if line.startswith("|"):
            cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
            if cells[0] in ("key", "type") or set(cells[0]) <= {"-", " "}:
                continue                          # header and rule lines
            out[name].append(cells)
        elif out[name]:
            name = None                           # the table ended
    return out


TABLES = _tables()


def _rows(*names: str) -> list[tuple[str, list[str], bool]]:
    """(key path, type names, always) for the contracts ``names``."""
    rows = []
    for n in names:
        for key, typ, when, *_ in TABLES[n]:
            types = [t.strip() for t in typ.split(" or ")]
            assert all(t in TYPES for t in types), f"docs/json.md {n}: {key}: unknown type {typ!r}"
            rows.append((key, types, when == "always"))
    return rows


def _steps(path: str) -> list[str]:
    """``a[].b.*`` -> ["a", "[]", "b", "*"]."""
    out = []
    for part in path.split("."):
        if part.endswith("[]"):
            out += [part[:-2], "[]"]
        else:
            out.append(part)
    return out


def _expand(nodes: list, step: str) -> list:
    if step == "[]":
        return [x for n in nodes if isinstance(n, list) for x in n]
    if step == "*":
        return [x for n in nodes if isinstance(n, dict) for x in n.values()]
    return [n[step] for n in nodes if isinstance(n, dict) and step in n]


class Contract:
    """The documented keys of one or more tables, checked against printed objects."""

    def __init__(self, *names: str) -> None:
        self.names = names
        self.rows = _rows(*names)
        self.seen: set[str] = set()

    def check(self, obj: dict, where: str) -> None:
        problems = []
        for key, types, always in self.rows:
            steps = _steps(key)
            parents = [obj]
            for s in steps[:-1]:
                parents = _expand(parents, s)
            last = steps[-1]
            if last in ("[]", "*"):
                values = _expand(parents, last)
            else:
                values = []
                for p in parents:
                    if isinstance(p, dict) and last in p:
                        values.append(p[last])
                    elif always:
                        problems.append(f"{where}: {key}: missing")
            for v in values:
                if not any(TYPES[t](v) for t in types):
                    problems.append(f"{where}: {key}: {type(v).__name__} {v!r:.60}, "
                                    f"documented {' or '.join(types)}")
            if values:
                self.seen.add(key)
        assert not problems, "\n".join(problems)

    def assert_covered(self, not_exercised: set[str] = frozenset()) -> None:
        missing = [k for k, _, _ in self.rows if k not in self.seen and k not in not_exercised]
        assert not missing, f"docs/json.md {', '.join(self.names)}: never printed: {missing}"


def run_json(capsys, *argv: str, code: int = 0) -> dict:
    got = main([str(a) for a in argv])
    out = capsys.readouterr().out
    assert got == code, f"tabletop {' '.join(map(str, argv))}: exit {got}"
    return json.loads(out)


def shipped(name: str) -> str:
    return str(MAPS / name)


# ------------------------------------------------------------------ the reader itself

def test_the_doc_has_a_table_for_every_contract():
    assert set(TABLES) >= {"check", "measure", "move", "move-check", "fight", "events",
                           "odds-fight-phase", "odds-rank-and-flank", "odds-challenges",
                           "odds-challenges-gambit", "odds-challenges-character", "charge", "bench"}
    assert all(TABLES.values())


def test_a_renamed_or_dropped_key_fails_the_check():
    """The checker against the measure table: the old code's object passes; renaming
    ``distance`` or printing it as a string fails."""
    c = Contract("measure")
    c.check({"a": "x/1", "b": "y", "distance": 1.5, "added": True}, "ok")   # keys may be added
    with pytest.raises(AssertionError, match="distance: missing"):
        c.check({"a": "x/1", "b": "y", "dist": 1.5}, "renamed")
    with pytest.raises(AssertionError, match="distance: str"):
        c.check({"a": "x/1", "b": "y", "distance": "1.5"}, "retyped")
    deep = Contract("move-check")
    with pytest.raises(AssertionError, match=r"violations\[\]\.clause: missing"):
        deep.check({"violations": [{"model": None, "rule": "12.03", "message": "m"}]}, "nested")
    with pytest.raises(AssertionError, match=r"moves\.\*: str"):
        deep.check({"moves": {"r/1": "12,10"}}, "a map's values")


# ------------------------------------------------------------------ the commands

# check: int/3 out of coherency, orks/2 and orks/3 overlap, int/4 off the table (the
# numbers are worked in tests/test_cli_check_measure.py); objective A within reach
SMALL = """
[map]
name = "Small"
ruleset = "fight-phase"
width = 30
depth = 20
[[players]]
id = "red"
active = true
[[players]]
id = "blue"
[[objectives]]
id = "A"
at = [15, 10]
[[units]]
id = "int"
player = "red"
base = "32mm"
models = [[10, 10], [8.5, 10], [2.5, 10], [0.3, 14]]
[[units]]
id = "orks"
player = "blue"
base = "32mm"
models = [[11.259843, 10], [12.5, 12], [13.0, 12]]
"""


def test_check(write_map, capsys):
    c = Contract("check")
    c.check(run_json(capsys, "check", shipped("lesson-pile-in.toml"), "--json"), "lesson-pile-in")
    c.check(run_json(capsys, "check", shipped("ca-layout-1-hammer-and-anvil.toml"), "--json",
                     "--layout", shipped("ca-layout-2-crucible-of-battle.toml"), code=1), "layout")
    c.check(run_json(capsys, "check", write_map(SMALL), "--json", code=1), "small")
    c.assert_covered()


def test_measure(capsys):
    c = Contract("measure")
    c.check(run_json(capsys, "measure", shipped("lesson-pile-in.toml"), "intercessors/1", "boyz",
                     "--json"), "measure")
    c.assert_covered()


def test_pile_in_and_consolidate(tmp_path, capsys):
    c = Contract("move")
    lesson, layout = shipped("lesson-pile-in.toml"), shipped("ca-layout-1-hammer-and-anvil.toml")
    c.check(run_json(capsys, "pile-in", lesson, "intercessors", "--json",
                     "-o", tmp_path / "after.toml"), "pile-in -o")
    c.check(run_json(capsys, "consolidate", lesson, "intercessors", "--json"), "consolidate")
    c.check(run_json(capsys, "pile-in", layout, "scouts", "--json", code=1), "not eligible")
    c.check(run_json(capsys, "consolidate", layout, "scouts", "--fought", "--json", code=1),
            "no mode")
    # a unit with no legal move at all prints its broken clauses here; no shipped map has
    # one, and the same {model, clause, message} objects are checked in test_move_check
    c.assert_covered({"violations[].model", "violations[].clause", "violations[].message"})


def test_move_check(tmp_path, capsys):
    c = Contract("move-check")
    lesson = shipped("lesson-pile-in.toml")
    moved = run_json(capsys, "pile-in", lesson, "intercessors", "--json", "-o", tmp_path / "after.toml")
    (tmp_path / "move.json").write_text(json.dumps(moved), encoding="utf-8")
    c.check(run_json(capsys, "pile-in", lesson, "intercessors", "--check", tmp_path / "move.json",
                     "--json"), "given paths")
    # the same end points as straight lines: intercessors/4 then passes through intercessors/1
    c.check(run_json(capsys, "consolidate", lesson, "intercessors", "--check",
                     tmp_path / "after.toml", "--json", code=1), "straight paths")
    c.check(run_json(capsys, "pile-in", shipped("ca-layout-1-hammer-and-anvil.toml"), "scouts",
                     "--check", shipped("ca-layout-1-hammer-and-anvil.toml"), "--json", code=1),
            "not eligible")
    c.assert_covered()


def test_fight_and_its_events(capsys):
    """Every shipped map resolved (seed 1): the fight object and each event's fields."""
    c = Contract("fight")
    events = {row[0]: ([f.strip() for f in row[1].split(",") if f.strip()]) for row in TABLES["events"]}
    seen: set[str] = set()
    problems = []
    for path in sorted(MAPS.glob("*.toml")):
        d = run_json(capsys, "fight", path, "--seed", "1", "--json")
        c.check(d, path.name)
        for k, ev in enumerate(d["events"]):
            seen.add(ev["type"])
            for f in events.get(ev["type"], []):
                if f not in ev:
                    problems.append(f"{path.name}: events[{k}] ({ev['type']}): {f}: missing")
    assert not problems, "\n".join(problems)
    c.assert_covered()
    # event types the shipped maps do not produce at seed 1 (a scripted choice, a refusal,
    # a blocked turn, ...); their fields are listed from the code that emits them
    rare = {"eligible_to_fight", "pass", "no_attacks", "decision_overridden", "killing_blow",
            "carried_over", "turn_blocked", "challenge_refused", "cannot_refuse", "no_challenge",
            "challenge_continues", "challenge_continues_next_round", "gambit_banned", "prolong",
            "prolong_limit", "status_removed", "no_move", "destroyed", "turned_to_face"}
    assert set(events) - seen <= rare, f"documented event types never printed: {set(events) - seen - rare}"


def test_fight_odds_fight_phase(write_map, capsys, monkeypatch):
    c = Contract("odds-fight-phase")
    # exact: one R v one B (tests/test_rules_fight_odds.py works the numbers by hand)
    duel = unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7) + \
        unit("B", "blue", [(11.26, 10)], A=1, W=1, Sv=7)
    d = run_json(capsys, "fight", write_map(HEADER.format(rules="") + duel), "--odds", "--json")
    assert d["method"] == "exact"
    c.check(d, "duel")
    d = run_json(capsys, "fight", shipped("lesson-pile-in.toml"), "--odds", "--runs", "20", "--json")
    assert d["method"] == "monte carlo"
    c.check(d, "lesson-pile-in")
    d = run_json(capsys, "fight", shipped("ca-layout-2-crucible-of-battle.toml"), "--odds", "--json")
    assert d["method"] == "none"
    c.check(d, "deployed")
    c.assert_covered()


def test_fight_odds_rank_and_flank(capsys, monkeypatch):
    from tabletop.rules.rank_and_flank import odds as rnf_odds
    c = Contract("odds-rank-and-flank")
    d = run_json(capsys, "fight", shipped("lesson-flank-charge.toml"), "--odds", "--json")
    assert d["engagements"][0]["method"] == "exact"
    c.check(d, "lesson-flank-charge")
    # Monte Carlo, kept fast: pretend the round has too many histories to enumerate
    monkeypatch.setattr(rnf_odds, "histories_estimate", lambda ctx: 10 ** 9)
    d = run_json(capsys, "fight", shipped("lesson-rear-charge.toml"), "--odds", "--runs", "20", "--json")
    assert d["engagements"][0]["method"] == "monte carlo"
    c.check(d, "lesson-rear-charge, monte carlo")
    c.assert_covered()


def test_fight_odds_with_challenges(capsys, monkeypatch):
    """Both challenge lessons: the ruleset's keys and the challenge keys side by side.
    The ruleset's odds are kept fast: the fight-phase odds go straight to Monte Carlo, the
    rank-and-flank round is sampled (its exact enumeration takes tens of seconds)."""
    fp_odds = importlib.import_module("tabletop.rules.fight_phase.odds")   # the package exports odds()
    from tabletop.rules.rank_and_flank import odds as rnf_odds
    monkeypatch.setattr(fp_odds, "EXACT_MAX_ROLLS", -1)
    monkeypatch.setattr(rnf_odds, "histories_estimate", lambda ctx: 10 ** 9)
    both, gambit, character = (Contract("odds-challenges"), Contract("odds-challenges-gambit"),
                               Contract("odds-challenges-character"))
    fp, rnf = Contract("odds-fight-phase"), Contract("odds-rank-and-flank")
    d = run_json(capsys, "fight", shipped("lesson-gambit-challenge.toml"), "--odds", "--runs", "3",
                 "--json")
    for c in (both, gambit, fp):
        c.check(d, "lesson-gambit-challenge")
    gambit.check(d["challenge_odds"], "lesson-gambit-challenge: challenge_odds")
    d = run_json(capsys, "fight", shipped("lesson-character-challenge.toml"), "--odds", "--runs", "3",
                 "--json")
    for c in (both, character, rnf):
        c.check(d, "lesson-character-challenge")
    character.check(d["challenge_odds"], "lesson-character-challenge: challenge_odds")
    for c in (both, gambit, character):
        c.assert_covered()


def test_charge(capsys):
    c = Contract("charge")
    c.check(run_json(capsys, "charge", shipped("lesson-charge-arcs.toml"), "wolf-riders", "spearmen",
                     "--json"), "rank-and-flank")
    layout = shipped("ca-layout-1-hammer-and-anvil.toml")
    c.check(run_json(capsys, "charge", layout, "bladeguard", "gretchin", "--json"), "fight-phase")
    d = run_json(capsys, "charge", layout, "scouts", "boyz-2", "--json")
    assert d["distance"] > 12, "scouts to boyz-2 must be beyond the 12\" declare range"
    c.check(d, "fight-phase, out of range")
    c.assert_covered()


def test_bench(capsys):
    """The snapshot benchmark at 12 models (as tests/test_bench.py runs it: a check of the
    output, not a timing).  The pile-in, window and odds rows are not run here (benchmarks
    are run by hand; tests/test_bench.py runs the odds bench's smallest case); their keys
    are read from tabletop/bench/*_bench.py."""
    c = Contract("bench")
    c.check(run_json(capsys, "bench", "--sizes", "12", "--only", "snapshot", "--json"), "snapshot")
    c.assert_covered({"benchmarks[].fight_side", "benchmarks[].solver_s", "benchmarks[].engaged",
                      "benchmarks[].naive_engaged", "benchmarks[].violations",
                      "benchmarks[].naive_legal", "benchmarks[].layout", "benchmarks[].naive_ms",
                      "benchmarks[].pan_ms", "benchmarks[].zoom_ms", "benchmarks[].pan_settle_ms",
                      "benchmarks[].zoom_settle_ms", "benchmarks[].case", "benchmarks[].engine",
                      "benchmarks[].runs", "benchmarks[].cpu_s", "benchmarks[].times_s",
                      "benchmarks[].method", "benchmarks[].method_text", "benchmarks[].histories",
                      "benchmarks[].mc_runs", "benchmarks[].largest_se", "benchmarks[].target_s",
                      "benchmarks[].target_method", "benchmarks[].over_target",
                      "benchmarks[].count", "benchmarks[].dice", "benchmarks[].own_ms",
                      "benchmarks[].icepool_ms", "benchmarks[].agree",
                      "benchmarks[].icepool_version"})
