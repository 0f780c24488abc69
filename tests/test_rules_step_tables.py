"""The rules' tables are composed from the map's [rules], never registered at import (issue 9 item 1).

- The rank-and-flank round's rows (``round.round_steps``) and the Fight phase's steps
  (``sequence.phase_steps``) are functions of the map's ``RulesConfig``: the challenge rows are
  in the table only with their option, placed where the rule texts put them.
- A map without challenges runs no challenge row: rows that would raise if run are never run,
  and its events hold no challenge event.
- The tables (round rows, phase steps, wordings, drawers, focus) and the events of a fight are
  the same whatever order the modules are imported in, and after importing them twice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tabletop.board import mapfile
from tabletop.board.config import make_config
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase.sequence import PHASE_STEPS, phase_rows, phase_steps
from tabletop.rules.rank_and_flank.phase import rows as rnf_rows
from tabletop.rules.rank_and_flank.round import BASE_ROUND_STEPS, round_steps
from tabletop.rules.rank_and_flank.steps import CLOSE, OPEN, PLAN, RoundStep, in_stage
from tabletop.rules.registry import find_ruleset

ROOT = Path(__file__).resolve().parent.parent
CHARACTER_LESSON = ROOT / "maps" / "lessons/character-challenge.toml"
GAMBIT_LESSON = ROOT / "maps" / "lessons/gambit-challenge.toml"
GAMBIT_SMALL = ROOT / "tests" / "scenarios" / "gambit-lone-champion.toml"


def names(steps) -> list[str]:
    return [s.name for s in steps]


def challenge_types() -> set[str]:
    from tabletop.rules.challenges.wording import SENTENCES
    return set(SENTENCES)


# ------------------------------------------------------------------ the round's rows
def test_round_rows_without_the_character_option_are_the_rulesets_own():
    # no [rules] challenges, or the Fight phase's "gambit" option: who attacks, then the blows
    # (rank-and-flank-combat.txt "Who attacks", "Engagements"), nothing else
    for rules in (make_config("rank-and-flank"), make_config("rank-and-flank", {"challenges": "gambit"})):
        steps = round_steps(rules)
        assert names(steps) == ["who_attacks"]
        assert steps == BASE_ROUND_STEPS
        assert in_stage(steps, OPEN) == () and in_stage(steps, CLOSE) == ()
        # the phase's engine rows: the blows are one chance row, no duel rows
        assert [r.name for r in rnf_rows(rules)] == [
            "start", "engagement", "open", "plan", "strike", "casualties", "break", "turn"]


def test_round_rows_with_character_challenges_sit_where_the_text_puts_them():
    steps = round_steps(make_config("rank-and-flank", {"challenges": "character"}))
    # ¶1: issued at the start of the round, before any blow -> the OPEN stage;
    # ¶5: the duellists attack only each other -> PLAN, after the ruleset has planned who attacks;
    # ¶5-¶6: their blows and capped overkill -> the phase's duel rows, after the units'
    #        roll groups (the dice order the character tests script);
    # ¶7: the challenge goes on or ends once the round is over -> CLOSE
    assert names(in_stage(steps, OPEN)) == ["challenge"]
    assert names(in_stage(steps, PLAN)) == ["who_attacks", "challenge_targets"]
    rules = make_config("rank-and-flank", {"challenges": "character"})
    assert [r.name for r in rnf_rows(rules)] == [
        "start", "engagement", "open", "plan", "strike", "duel", "duel_result", "casualties",
        "break", "turn"]
    assert names(in_stage(steps, CLOSE)) == ["challenge_carry_on"]
    # the same rules give an equal table every time (nothing accumulates)
    assert round_steps(make_config("rank-and-flank", {"challenges": "character"})) == steps


def test_a_round_step_names_a_known_stage():
    with pytest.raises(ValueError, match="unknown stage 'later'"):
        RoundStep("x", "later", "x", "x", lambda ctx: None)


# ------------------------------------------------------------------ the Fight phase's steps
def test_phase_steps_without_gambit_challenges_have_no_challenge_step():
    # fight-phase.txt 12.01-12.09: start, pile in (12.02-12.03), fight (12.04-12.06),
    # consolidate (12.07-12.08), end (12.09); "character" is the rank-and-flank option
    for rules in (make_config("fight-phase"), make_config("fight-phase", {"challenges": "character"})):
        assert phase_steps(rules) == ("start", "pile_in", "fight", "consolidate", "phase_end")
        assert phase_steps(rules) == PHASE_STEPS
        rows = [r.name for r in phase_rows(rules)]
        assert not {"challenge", "challenge_resolution", "disgraced_end"} & set(rows)
        assert not any(r.startswith("gambit_") for r in rows)


def test_phase_steps_with_gambit_challenges_follow_subphase_place():
    rules = make_config("fight-phase", {"challenges": "gambit"})
    steps = phase_steps(rules)
    # gambit_steps.SUBPHASE_PLACE: the Challenge Sub-phase after pile-in and before the Fight
    # step, the Resolution after the Fight step and before consolidation, and the End Phase's
    # removal of Disgraced after the phase's end
    assert steps == ("start", "pile_in", "challenge", "fight", "challenge_resolution", "consolidate",
                     "phase_end", "disgraced_end")
    assert phase_steps(make_config("fight-phase", {"challenges": "gambit"})) == steps
    assert PHASE_STEPS == ("start", "pile_in", "fight", "consolidate", "phase_end")   # untouched
    # the sub-phase is the gambit rows themselves (gambit_rows), in the phase's table
    rows = {r.name for r in phase_rows(rules)}
    assert {"challenge", "gambit_challenge", "gambit_issue", "gambit_strike", "challenge_resolution",
            "gambit_resolution", "disgraced_end"} <= rows
    assert [r.name for r in phase_rows(rules)] == [r.name for r in phase_rows(rules)]


# ------------------------------------------------------------------ no challenge row runs
def _boom(*_args, **_kw):
    raise AssertionError("a challenge row ran on a map without challenges")


def _fight(state, seed=3):
    log = EventLog()
    return find_ruleset(state.ruleset).fight(state, Dice(seed), Decisions(state.decisions, log), log)


def test_a_rank_and_flank_map_without_challenges_runs_no_challenge_row(monkeypatch):
    from tabletop.rules.challenges import character_steps
    # the character lesson's two units and characters, with the option taken away
    lesson = mapfile.load(str(CHARACTER_LESSON))
    plain = replace(lesson, rules=replace(lesson.rules, challenges=None))
    monkeypatch.setattr(character_steps, "CHARACTER_ROUND_STEPS",
                        tuple(replace(r, run=_boom) for r in character_steps.CHARACTER_ROUND_STEPS))
    res = _fight(plain)
    types = {e.type for e in res.log.events}
    assert "engagement" in types and "combat_score" in types       # the round was fought
    assert not types & challenge_types()                            # and no challenge in it
    assert not any("challenge" in s.title.lower() for s in res.log.steps)
    assert not any(m.status for m in res.state.models())             # no challenge status written
    # the same map with the option does run the rows (here: the raising ones)
    with pytest.raises(AssertionError, match="a challenge row ran"):
        _fight(lesson)


def test_a_fight_phase_map_without_challenges_runs_no_challenge_step(monkeypatch):
    from tabletop.rules.challenges import gambit_steps
    lesson = mapfile.load(str(GAMBIT_LESSON))
    plain = replace(lesson, rules=replace(lesson.rules, challenges=None))
    for name in ("challenge_rows", "resolution_rows"):
        real = getattr(gambit_steps, name)
        monkeypatch.setattr(gambit_steps, name, lambda nxt, real=real: [
            replace(r, enter=_boom) for r in real(nxt)])
    real_end = gambit_steps.disgraced_end_row
    monkeypatch.setattr(gambit_steps, "disgraced_end_row",
                        lambda nxt: replace(real_end(nxt), enter=_boom))
    res = _fight(plain)
    types = {e.type for e in res.log.events}
    assert "selected_to_fight" in types                              # the units fought
    assert not types & challenge_types()
    assert not {e["step"] for e in res.log.events if e.type == "phase_step"} & \
        {"challenge", "resolution", "disgraced_end"}
    with pytest.raises(AssertionError, match="a challenge row ran"):
        _fight(lesson)


# ------------------------------------------------------------------ import order and twice
FINGERPRINT = r'''
import importlib, json, sys
order = [m for m in sys.argv[1].split(",") if m]
for name in order:
    importlib.import_module(name)
if sys.argv[2] == "twice":
    for name in order:
        importlib.reload(sys.modules[name])
from tabletop.board import mapfile
from tabletop.board.config import make_config
from tabletop.rules.decisions import Decisions
from tabletop.rules.describe import describe, describer_types
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase.sequence import phase_steps
from tabletop.rules.rank_and_flank.round import round_steps
from tabletop.rules.registry import find_ruleset
from tabletop.render.framing import FOCUS
from tabletop.render.steps import drawer_keys
out = {}
for ruleset in ("fight-phase", "rank-and-flank"):
    for ch in (None, "gambit", "character"):
        rules = make_config(ruleset, {"challenges": ch} if ch else {})
        out[f"round {ruleset} {ch}"] = [(s.name, s.stage) for s in round_steps(rules)]
        out[f"phase {ruleset} {ch}"] = list(phase_steps(rules))
out["describers"] = describer_types()
out["drawers"] = drawer_keys()
out["focus"] = sorted(FOCUS)
for path in sys.argv[3:]:
    state = mapfile.load(path)
    log = EventLog()
    find_ruleset(state.ruleset).fight(state, Dice(3), Decisions(state.decisions, log), log)
    out[path] = [[e.type, e.rule, describe(e), json.dumps(e.data, sort_keys=True, default=str)]
                 for e in log.events]
print(json.dumps(out))
'''

ORDERS = {
    "rank-and-flank first": "tabletop.rules.rank_and_flank,tabletop.rules.challenges,tabletop.rules.fight_phase",
    "challenge rows first": "tabletop.rules.challenges.character_steps,tabletop.rules.challenges.gambit_steps,"
                            "tabletop.rules.challenges.wording,tabletop.rules.rank_and_flank.wording",
    "cli and render first": "tabletop.cli.event_text,tabletop.render.challenges,tabletop.render.rank_and_flank,"
                            "tabletop.render.steps,tabletop.rules.describe",
}
TWICE = ("tabletop.rules.challenges.character_steps,tabletop.rules.challenges.gambit_steps,"
         "tabletop.rules.challenges.wording,tabletop.rules.rank_and_flank.wording,"
         "tabletop.rules.rank_and_flank,tabletop.rules.fight_phase,tabletop.render.rank_and_flank,"
         "tabletop.render.challenges,tabletop.cli.event_text")


def _fingerprint(order: str, mode: str = "once") -> dict:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", FINGERPRINT, order, mode, str(CHARACTER_LESSON),
                           str(GAMBIT_SMALL)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_import_order_and_importing_twice_change_nothing():
    fps = {label: _fingerprint(order) for label, order in ORDERS.items()}
    fps["imported twice"] = _fingerprint(TWICE, "twice")
    first = next(iter(fps.values()))
    for label, fp in fps.items():
        assert fp == first, label
    # and what they agree on is the composed tables, not empty ones
    assert first["round rank-and-flank character"] == [
        ["who_attacks", "plan"], ["challenge", "open"],
        ["challenge_targets", "plan"], ["challenge_carry_on", "close"]]
    assert first["round rank-and-flank None"] == [["who_attacks", "plan"]]
    assert first["phase fight-phase gambit"][2] == "challenge"
    character_events = first[str(CHARACTER_LESSON)]
    # one challenge issued in the lesson's one combat (¶1: one challenge per combat), however
    # many times the modules were imported
    assert [e[0] for e in character_events].count("challenge_issued") == 1
    assert {"challenge_issued", "combat_score"} <= {e[0] for e in character_events}
    assert "challenge_issued" in {e[0] for e in first[str(GAMBIT_SMALL)]}
