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

Keys may be added freely: keys the tables do not list are not checked
(``tools/json_keys.py`` lists the printed keys no table documents).  The
fight events table is checked the same way per event type: the ``always``
fields of each type present, every documented type seen in the runs.  The
small maps here print what the shipped maps never do: weapon abilities and
Feel No Pain, no legal pile-in, a refused gambit challenge, closing back up
(rank-and-flank), a tied charge arc, exact odds with a character challenge.

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
from rnf_maps import B25, rnf_map
from rnf_maps import unit as rnf_unit

from tabletop.board.mapfile import save
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

# check: the small map of tests/test_cli_check_measure.py (int/3 out of coherency, orks/2 and
# orks/3 overlap, int/4 off the table, worked there); objective A within reach
from test_cli_check_measure import SMALL  # noqa: E402

# fight-phase weapon abilities (issue 8 item 4): R/1 (12 attacks, Lethal Hits, Sustained Hits 1,
# Devastating Wounds dealt as mortal wounds, and a rules word the attacks do not read) against
# B/1 (W 20, Feel No Pain 3+).  At seed 1 every counter of attacks_resolved is above 0.
ABILITIES = HEADER.format(rules='[rules]\ndevastating_wounds = "mortal"') + """
[[units]]
id = "R"
player = "red"
base = "32mm"
charged = true
profile = { T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Blade", A = 12, WS = 3, S = 4, AP = 0, D = 1, rules = ["Lethal Hits", "Sustained Hits 1", "Devastating Wounds", "Jazz Hands"] }]
models = [[10, 10]]

[[units]]
id = "B"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 3, W = 20, FNP = 3 }
weapons = [{ name = "Claw", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[11.26, 10]]
"""

# no legal pile-in whatever the targets (tests/test_rules_fight_targets.py NOTHING): r/1 at
# (20, 20), x/1 4.5" and y/1 4.7" away: 3" of move engages neither.  The default policy tries
# x + y, x, y; pile-in exits 1 with each clause broken, and the fight's no_move names them.
NOTHING = HEADER.format(rules='[rules]\nedition = "10th"') + """
[[units]]
id = "r"
player = "red"
base = "25.4mm"
charged = true
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[20, 20]]

[[units]]
id = "x"
player = "blue"
base = "25.4mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[14.5, 20]]

[[units]]
id = "y"
player = "blue"
base = "25.4mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[25.7, 20]]
"""


def test_check(write_map, capsys, tmp_path):
    c = Contract("check")
    c.check(run_json(capsys, "check", shipped("lessons/pile-in.toml"), "--json"), "lesson-pile-in")
    c.check(run_json(capsys, "check", shipped("lessons/pile-in.toml"), "--json", "-o",
                     str(tmp_path / "check.png")), "with -o (picture)")
    c.check(run_json(capsys, "check", shipped("ca-layout-1-hammer-and-anvil.toml"), "--json",
                     "--layout", shipped("ca-layout-2-crucible-of-battle.toml"), code=1), "layout")
    c.check(run_json(capsys, "check", write_map(SMALL), "--json", code=1), "small")
    d = run_json(capsys, "check", write_map(ABILITIES, "abilities.toml"), "--json", code=1)
    c.check(d, "abilities")
    assert any("unknown rule word 'Jazz Hands'" in w for w in d["warnings"])
    from tests.test_roster_12b import OVERLAP_MAP
    c.check(run_json(capsys, "check", write_map(OVERLAP_MAP, "overlap.toml"), "--json", code=1),
            "overlapping terrain")
    c.assert_covered()


def test_measure(capsys):
    c = Contract("measure")
    c.check(run_json(capsys, "measure", shipped("lessons/pile-in.toml"), "intercessors/1", "boyz",
                     "--json"), "measure")
    c.assert_covered()


def test_pile_in_and_consolidate(write_map, tmp_path, capsys):
    c = Contract("move")
    lesson, layout = shipped("lessons/pile-in.toml"), shipped("ca-layout-1-hammer-and-anvil.toml")
    c.check(run_json(capsys, "pile-in", lesson, "intercessors", "--json",
                     "-o", tmp_path / "after.toml"), "pile-in -o")
    c.check(run_json(capsys, "consolidate", lesson, "intercessors", "--json"), "consolidate")
    c.check(run_json(capsys, "pile-in", layout, "scouts", "--json", code=1), "not eligible")
    c.check(run_json(capsys, "consolidate", layout, "scouts", "--fought", "--json", code=1),
            "no mode")
    # the target search (issue 8 item 3): a legal selection kept, then none legal
    d = run_json(capsys, "pile-in", layout, "bladeguard", "--json")
    assert d["tried"] and d["tried"][0]["legal"] is True
    c.check(d, "tried, legal")
    d = run_json(capsys, "pile-in", write_map(NOTHING, "nothing.toml"), "r", "--json", code=1)
    assert [t["targets"] for t in d["tried"]] == [["x", "y"], ["x"], ["y"]] and d["violations"]
    c.check(d, "no legal move")
    c.assert_covered()


def test_move_check(tmp_path, capsys):
    c = Contract("move-check")
    lesson = shipped("lessons/pile-in.toml")
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


# a gambit challenge refused (issue 8 item 9): red's commander tac/1 challenges, blue refuses by
# its [[decisions]], and its champion breachers/1 is Disgraced (WS 5 and Ld 8 read halved: 3, 4)
REFUSED = """[map]
name = "tiny gambit"
ruleset = "fight-phase"
width = 30.0
depth = 20.0

[rules]
challenges = "gambit"

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "tac"
player = "red"
base = "32mm"
profile = { M = 7, WS = 4, S = 4, T = 4, W = 1, I = 4, A = 1, Ld = 7, Sv = 3 }
weapons = [{ name = "Chainsword", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]

[[units.models]]
at = [10.0, 10.0]
role = "commander"
profile = { WS = 5, S = 4, T = 4, W = 2, I = 5, A = 3, Ld = 9, Sv = 2 }

[[units.models]]
at = [11.3, 10.0]

[[units]]
id = "breachers"
player = "blue"
base = "32mm"
profile = { M = 6, WS = 4, S = 4, T = 4, W = 1, I = 4, A = 1, Ld = 7, Sv = 2 }
weapons = [{ name = "Combat blade", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]

[[units.models]]
at = [10.0, 11.27]
role = "champion"
profile = { WS = 5, S = 4, T = 4, W = 2, I = 4, A = 3, Ld = 8, Sv = 2 }

[[units.models]]
at = [11.3, 11.27]

[[decisions]]
player = "blue"
choice = "accept_challenge"
value = "refuse"
"""


def close_up_map(tmp_path, rules=None, name="close-up.toml") -> str:
    """tests/test_rules_rnf_contacts.py's flanker: b (2x1, strong) on the left flank of a
    (5x4, fearless, so it holds), touching a/11 and a/16 only.  b's blows kill the rear ranks,
    those two among them, so b closes back up along a's flank (``closed_up``) or, with
    ``close_up = "square"``, cannot (``close_up_blocked``); 39 seeds in 40 do it, seed 1 does."""
    state = rnf_map(rnf_unit("a", "red", (24, 24), 90, 5, 4, keywords=["fearless"],
                             profile={"Defense": 1}),
                    rnf_unit("b", "blue", (24 - 2.5 * B25, 24 - 3 * B25 - 0.25), 0, 2, 1,
                             profile={"Attacks": 10, "Power": 6, "Skill": 6, "Wounds": 3}),
                    rules=rules)
    save(state, str(tmp_path / name))
    return str(tmp_path / name)


def test_fight_and_its_events(write_map, tmp_path, capsys):
    """Every shipped map resolved (seed 1), and small maps for the events they never print:
    the fight object and each event's fields."""
    c = Contract("fight")
    events = {row[0]: ([f.strip() for f in row[1].split(",") if f.strip()]) for row in TABLES["events"]}
    seen: set[str] = set()
    problems = []
    small = {"abilities": write_map(ABILITIES, "abilities.toml"),
             "nothing": write_map(NOTHING, "nothing.toml"),
             "refused": write_map(REFUSED, "refused.toml"),
             "close-up": close_up_map(tmp_path),
             "close-up-square": close_up_map(tmp_path, {"close_up": "square"}, "square.toml")}
    printed = {}
    for name, path in [(p.name, p) for p in sorted(MAPS.glob("**/*.toml"))] + list(small.items()):
        d = run_json(capsys, "fight", path, "--seed", "1", "--json")
        printed[name] = d
        c.check(d, name)
        for k, ev in enumerate(d["events"]):
            seen.add(ev["type"])
            for f in events.get(ev["type"], []):
                if f not in ev:
                    problems.append(f"{name}: events[{k}] ({ev['type']}): {f}: missing")
    assert not problems, "\n".join(problems)
    c.assert_covered()
    # event types none of these runs produce at seed 1 (a scripted choice, a blocked turn,
    # ...); their fields are listed from the code that emits them
    rare = {"eligible_to_fight", "pass", "no_attacks", "decision_overridden", "killing_blow",
            "carried_over", "turn_blocked", "cannot_refuse", "no_challenge",
            "challenge_continues", "challenge_continues_next_round", "gambit_banned", "prolong",
            "prolong_limit", "status_removed", "destroyed", "turned_to_face",
            "no_longer_eligible",   # test_rules_fight_inputs: a "10th" unit whose enemies died
            "decision"}             # the window's log only (view --play), never fight --json
    assert set(events) - seen <= rare, f"documented event types never printed: {set(events) - seen - rare}"

    def of(name, kind):
        return [e for e in printed[name]["events"] if e["type"] == kind]

    # the "sometimes" fields the small maps are there for
    counts = ("critical_hits", "extra_hits", "auto_wounds", "critical_wounds", "mortal_wounds",
              "fnp_ignored")
    r = next(e for e in of("abilities", "attacks_resolved") if e["unit"] == "R")
    assert all(isinstance(r[k], int) and r[k] > 0 for k in counts), r
    (mw,) = of("abilities", "mortal_wounds")
    assert mw["amount"] == r["mortal_wounds"]
    nm = of("nothing", "no_move")[0]                    # r's pile-in
    assert [t["targets"] for t in nm["tried"]] == [["x", "y"], ["x"], ["y"]]
    (ref,) = of("refused", "challenge_refused")
    assert (ref["disgraced"], ref["WS"], ref["Ld"]) == ("breachers/1", 3, 4)
    profiles = of("gambit-challenge.toml", "strike_profile")
    assert profiles[0]["precedence"] == "red"            # the first round: the Active Player
    assert all(isinstance(e["precedence"], str) for e in profiles)
    assert of("close-up", "closed_up") and of("close-up-square", "close_up_blocked")


def test_fight_odds_fight_phase(write_map, capsys, monkeypatch):
    c = Contract("odds-fight-phase")
    # exact: one R v one B (tests/test_rules_fight_odds.py works the numbers by hand)
    duel = unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7) + \
        unit("B", "blue", [(11.26, 10)], A=1, W=1, Sv=7)
    d = run_json(capsys, "fight", write_map(HEADER.format(rules="") + duel), "--odds", "--json")
    assert d["method"] == "exact"
    c.check(d, "duel")
    d = run_json(capsys, "fight", shipped("lessons/pile-in.toml"), "--odds", "--json")
    assert d["method"] == "exact"
    c.check(d, "lesson-pile-in, exact")
    fp_odds = importlib.import_module("tabletop.rules.fight_phase.odds")
    monkeypatch.setattr(fp_odds, "MAX_STATES", 0)       # past the bound: sampled
    d = run_json(capsys, "fight", shipped("lessons/pile-in.toml"), "--odds", "--runs", "20", "--json")
    assert d["method"] == "monte carlo"
    c.check(d, "lesson-pile-in")
    d = run_json(capsys, "fight", shipped("ca-layout-2-crucible-of-battle.toml"), "--odds", "--json")
    assert d["method"] == "none"
    c.check(d, "deployed")
    c.assert_covered()


def tiny_character_challenge(write_map) -> str:
    """maps/lessons/character-challenge.toml with each unit cut to its front rank's first two
    files (the Captain and the Champion among them): the round with its challenge is exact
    in about a second (1130 histories)."""
    text = Path(shipped("lessons/character-challenge.toml")).read_text(encoding="utf-8")
    cut = text.replace("files = 5, ranks = 3, count = 15", "files = 2, ranks = 1, count = 2")
    assert cut.count("files = 2, ranks = 1, count = 2") == 2
    return write_map(cut, "tiny-character-challenge.toml")


def test_fight_odds_rank_and_flank(write_map, capsys, monkeypatch):
    from tabletop.rules.rank_and_flank import odds as rnf_odds
    c = Contract("odds-rank-and-flank")
    d = run_json(capsys, "fight", shipped("lessons/flank-charge.toml"), "--odds", "--json")
    assert d["engagements"][0]["method"] == "exact"
    c.check(d, "lesson-flank-charge")
    # the character challenge run as the fight runs it (issue 8 item 7), exact
    tiny = tiny_character_challenge(write_map)
    d = run_json(capsys, "fight", tiny, "--odds", "--json")
    e = d["engagements"][0]
    assert e["method"] == "exact" and e["challenge"]["challenged"] == "swords/2"
    assert set(e["exact"]) >= {"challenge_slain", "challenge_overkill"}
    c.check(d, "tiny character challenge")
    # Monte Carlo, kept fast: allow the exact walk no states
    monkeypatch.setattr(rnf_odds, "MAX_PATHS", 0)
    d = run_json(capsys, "fight", shipped("lessons/rear-charge.toml"), "--odds", "--runs", "20", "--json")
    assert d["engagements"][0]["method"] == "monte carlo"
    c.check(d, "lesson-rear-charge, monte carlo")
    d = run_json(capsys, "fight", tiny, "--odds", "--runs", "20", "--json")
    assert set(d["engagements"][0]["se"]) >= {"challenge_slain", "challenge_overkill"}
    c.check(d, "tiny character challenge, monte carlo")
    c.assert_covered()


def test_fight_odds_with_challenges(capsys, monkeypatch):
    """Both challenge lessons: the ruleset's keys and the challenge keys side by side.
    The ruleset's odds are kept fast: the fight-phase odds go straight to Monte Carlo, the
    rank-and-flank round is sampled (its exact enumeration takes tens of seconds)."""
    fp_odds = importlib.import_module("tabletop.rules.fight_phase.odds")   # the package exports odds()
    from tabletop.rules.rank_and_flank import odds as rnf_odds
    monkeypatch.setattr(fp_odds, "MAX_STATES", 0)
    monkeypatch.setattr(rnf_odds, "MAX_PATHS", 0)
    both, gambit, character = (Contract("odds-challenges"), Contract("odds-challenges-gambit"),
                               Contract("odds-challenges-character"))
    fp, rnf = Contract("odds-fight-phase"), Contract("odds-rank-and-flank")
    d = run_json(capsys, "fight", shipped("lessons/gambit-challenge.toml"), "--odds", "--runs", "3",
                 "--json")
    for c in (both, gambit, fp):
        c.check(d, "lesson-gambit-challenge")
    gambit.check(d["challenge_odds"], "lesson-gambit-challenge: challenge_odds")
    d = run_json(capsys, "fight", shipped("lessons/character-challenge.toml"), "--odds", "--runs", "3",
                 "--json")
    for c in (both, character, rnf):
        c.check(d, "lesson-character-challenge")
    character.check(d["challenge_odds"], "lesson-character-challenge: challenge_odds")
    for c in (both, gambit, character):
        c.assert_covered()


def test_charge(tmp_path, capsys):
    c = Contract("charge")
    arcs = shipped("lessons/charge-arcs.toml")
    for charger in ("wolf-riders", "orc-mob", "goblins", "trolls"):
        d = run_json(capsys, "charge", arcs, charger, "spearmen", "--json")
        assert d["arc_how"] == "majority" and d["arc_tie"] == [] and "seed" not in d
        c.check(d, f"rank-and-flank, {charger}")
    # a tie rolled for (tests/test_rules_rnf_charge_arc.py tie_state): w's front rank of 4
    # stands 2 in a's front arc, 2 in its left arc
    tie = tmp_path / "tie.toml"
    save(rnf_map(rnf_unit("a", "red", (24, 24), 90, 5, 4),
                 rnf_unit("w", "blue", (24 - 2.5 * B25 - 2.5, 26), 270, 4, 1)), str(tie))
    d = run_json(capsys, "charge", tie, "w", "a", "--json", "--seed", "5")
    assert d["arc_tie"] == ["front", "left"] and d["arc_how"] == "roll" and d["seed"] == 5
    c.check(d, "rank-and-flank, a tie")
    layout = shipped("ca-layout-1-hammer-and-anvil.toml")
    c.check(run_json(capsys, "charge", layout, "bladeguard", "gretchin", "--json"), "fight-phase")
    d = run_json(capsys, "charge", layout, "scouts", "boyz-2", "--json")
    assert d["distance"] > 12, "scouts to boyz-2 must be beyond the 12\" declare range"
    c.check(d, "fight-phase, out of range")
    # several targets, a landing, the fight and the picture
    d = run_json(capsys, "charge", layout, "stormboyz", "intercessors-b", "captain", "--json",
                 "-o", str(tmp_path / "plan.png"))
    assert len(d["targets"]) == 2 and "fight" in d and d["landing"]
    c.check(d, "fight-phase, two targets")
    # an oval that turns to land (tests/test_charge_oval_turn.py): landing_facings
    from test_charge_oval_turn import MAP as OVAL
    oval = tmp_path / "oval.toml"
    oval.write_text(OVAL.format(rules=""))
    d = run_json(capsys, "charge", str(oval), "c", "t", "--json")
    assert d["landing_facings"] == {"c/1": 90.0}
    c.check(d, "fight-phase, an oval turned")
    c.assert_covered()
    # a unit that may not charge (nobz is engaged), and every enemy in reach
    refused = Contract("charge-refused")
    d = run_json(capsys, "charge", layout, "nobz", "--json")
    assert d["eligible"] is False
    refused.check(d, "engaged")
    refused.assert_covered()
    reach = Contract("charge-reach")
    reach.check(run_json(capsys, "charge", layout, "stormboyz", "--json"), "in reach")
    reach.check(run_json(capsys, "charge", layout, "stormboyz", "--json", "--shade", "-o",
                         str(tmp_path / "odds.png")), "in reach, shaded")
    reach.assert_covered()


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
