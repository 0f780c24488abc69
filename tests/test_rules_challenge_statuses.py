"""How long a challenge's marks last, and who the `returned` events call engaged (audit 5).

- character-challenge.txt ¶3: the refuser "can't attack that round, and their Leadership can't
  be used for any Leadership test that turn".  One ``fight`` run is one turn's combat phase (one
  round of each engagement): the ``disgraced`` status lives inside the run
  (``character.DISGRACE_LASTS``).
- gambit-challenge.txt Disgraced: "automatically removed in the End Phase of the same Player
  Turn": gone at the end of the run (``gambit.DISGRACED_ENDS``), never written by ``-o``.
- gambit-challenge.txt Resolution: returned models "must be engaged with an enemy unit wherever
  possible"; the ``returned`` events report engagement once every model is back.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from challengekit import battlefield, events, model, unit
from test_rules_challenge_character import CAPTAIN, CHAMPION, formation_unit, rnf
from test_rules_challenge_subphase import blue

from tabletop.board import mapfile
from tabletop.board.state import Decision
from tabletop.geometry import snapshot
from tabletop.rules.challenges.character import RULE_DISGRACE_ENDS
from tabletop.rules.challenges.duellist import duellist
from tabletop.rules.challenges.gambit import RULE_END, return_models
from tabletop.rules.challenges.gambit_rows import ChallengeMemo, set_aside
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.registry import find_ruleset

SCEN = Path(__file__).resolve().parent / "scenarios"
NOBODY_ISSUES = (Decision("red", "issue_challenge", "none"), Decision("blue", "issue_challenge", "none"))


def fight(state, seed):
    log = EventLog()
    res = find_ruleset(state.ruleset).fight(state, Dice(seed, log), Decisions(state.decisions, log), log)
    return res.state, log


def saved(state, tmp_path, name="after.toml", decisions=NOBODY_ISSUES):
    """What ``fight -o`` writes, read back as the next run reads it (with new decisions)."""
    path = mapfile.save(state, str(tmp_path / name))
    return dataclasses.replace(mapfile.load(path), decisions=tuple(decisions))


def attackers(log) -> dict[str, str]:
    return {a["model"]: a["kind"] for e in events(log, "attackers") for a in e["attacks"]}


def notes(log) -> list[str]:
    return [e["text"] for e in events(log, "note")]


# ---------------------------------------------------------------- character challenge, ¶3
def test_a_refuser_does_not_attack_in_the_round_of_the_refusal_only(tmp_path):
    s = mapfile.load(str(SCEN / "character-refusal.toml"))
    after, log = fight(s, 5)
    (ref,) = events(log, "challenge_refused")
    assert (ref["disgraced"], ref["swapped_with"]) == ("swords/2", "swords/7")
    assert "swords/2" not in attackers(log)                            # that round: no attack
    assert any(n.startswith("swords/2 retired in disgrace") for n in notes(log))
    # the round is over: the status goes, with the clause, and -o does not write it
    (gone,) = events(log, "status_removed")
    assert (gone["model"], gone["status"], gone["rule"]) == ("swords/2", "disgraced", RULE_DISGRACE_ENDS)
    assert after.model("swords/2").status == ()
    assert "disgraced" not in mapfile.dumps(after)
    # the next run (the next turn): swords/2 stands in rank 2 behind swords/7 and supports
    nxt, log2 = fight(saved(after, tmp_path), 1)
    assert attackers(log2)["swords/2"] == "support"
    assert not [n for n in notes(log2) if "disgrace" in n]
    assert not events(log2, "challenge_issued") and not events(log2, "status_removed")


def test_a_refusing_commander_lends_no_discipline_that_turn_only(tmp_path):
    # blue's character is its commander (Discipline 8; the troopers' is 7)
    sp = formation_unit("spears", "red", (24, 16), 90, 5, 3, [(2, 1, "commander", CAPTAIN, {})])
    boss = formation_unit("swords", "blue", (24, 16), 270, 5, 3, [(2, 1, "commander", CHAMPION, {})])
    s = rnf(sp, boss, decisions=[("red", "issue_challenge", "spears/2"), ("blue", "accept_challenge", "refuse"),
                                 ("red", "disgrace", "swords/2")])
    after, log = fight(s, 6)
    assert events(log, "challenge_refused")[0]["disgraced"] == "swords/2"
    (bt,) = [e for e in events(log, "break_test") if e["unit"] == "swords"]
    # that turn: the retinue's 7, not the commander's 8; target 7 + ranks - difference
    assert (bt["discipline"], bt["discipline_from"]) == (7, "swords/1")
    assert bt["target"] == 7 + bt["ranks"] - bt["difference"]
    # next turn (the map -o wrote): the commander's 8 again, and nothing keeps it from attacking
    _, log2 = fight(saved(after, tmp_path), 1)
    (bt2,) = [e for e in events(log2, "break_test") if e["unit"] == "swords"]
    assert (bt2["discipline"], bt2["discipline_from"]) == (8, "swords/2")
    assert not [n for n in notes(log2) if "disgrace" in n]


def test_a_disgraced_status_read_from_a_map_is_from_an_earlier_turn():
    # written by fight -o of an older version after the refusal: swords/2 still "disgraced"
    s = mapfile.load(str(SCEN / "character-stale-disgrace.toml"))
    assert "disgraced" in s.model("swords/2").status
    _, log = fight(s, 1)
    (gone,) = events(log, "status_removed")
    assert gone["model"] == "swords/2" and gone["reason"].startswith("read from the map")
    kinds = [e.type for e in log.events]
    assert kinds.index("status_removed") < kinds.index("engagement")
    assert "swords/2" in attackers(log)
    assert not [n for n in notes(log) if "disgrace" in n]


# ---------------------------------------------------------------- gambit Disgraced
def test_disgraced_is_removed_at_the_end_of_the_fight_run(tmp_path):
    s = mapfile.load(str(SCEN / "gambit-refusal.toml"))
    after, log = fight(s, 1)
    # red named breachers/1, a trooper: overridden with the exact reason; the Sergeant is Disgraced
    (ov,) = events(log, "decision_overridden")
    assert ov["reason"] == ("it could not have accepted: 'breachers/1' is not a character "
                            "(a commander, a champion or a Paragon)")
    assert events(log, "challenge_refused")[0]["disgraced"] == "breachers/4"
    steps = [e["step"] for e in events(log, "phase_step")]
    assert steps[-2:] == ["end", "disgraced_end"]                     # after 12.09
    (gone,) = events(log, "status_removed")
    assert (gone["model"], gone["status"], gone["rule"]) == ("breachers/4", "disgraced", RULE_END)
    assert "End Phase of the same Player Turn" in gone["reason"]
    assert after.model("breachers/4").status == ()
    nxt = saved(after, tmp_path)
    assert "disgraced" not in (tmp_path / "after.toml").read_text()
    # the next phase reads WS 5 and Ld 8 again (halved while Disgraced: 3 and 4)
    d = duellist(nxt.model("breachers/4"), "blue")
    assert (d.ws, d.ld, d.disgraced) == (5, 8, False)


def test_disgraced_halves_ws_and_ld_during_the_run():
    s = mapfile.load(str(SCEN / "gambit-refusal.toml"))
    from tabletop.rules.challenges.gambit import challenge_subphase
    log = EventLog()
    mid, _ = challenge_subphase(s, Dice(1, log), Decisions(s.decisions, log), log)
    d = duellist(mid.model("breachers/4"), "blue")
    assert (d.ws, d.ld) == (3, 4)                                      # 5 and 8 halved, rounding up


# ---------------------------------------------------------------- Resolution: engaged, from the final table
R = 32 / 25.4 / 2     # 32mm round base radius, 0.62992"


def lone_champion_challenge(a_at=(10.0, 10.0)):
    """red a/1 (champion) and blue b/1 (a champion alone in its unit) set aside; blue's unit is gone."""
    ms = [model(*a_at, role="champion")] + [model(x, 10.0) for x in (11.26, 12.52, 13.78, 15.04, 16.30)]
    ms += [model(x, 5.0) for x in (11.26, 12.52, 13.78, 15.04, 16.30)]
    s = battlefield([unit("a", "red", ms), blue(troopers=False)])
    after, ch = set_aside(s, ("a", "b"), "a/1", "b/1", ("red", "blue"))
    assert dict(ch.locked_with) == {"a/1": ("b",), "b/1": ("a",)}
    return after, ChallengeMemo(challenges=(ch,), fought=frozenset({"a/1", "b/1"}))


def test_returned_engaged_is_read_once_every_model_is_back():
    after, sub = lone_champion_challenge()
    assert not after.has_unit("b")
    log = EventLog()
    back = return_models(after, sub, log)
    # a/1 goes back first, to (10, 10) (free, touching a/2: gap 1.26 - 2R = 0.00016"), with no
    # enemy on the table; b/1 then goes back to (10, 11.26), its own spot, touching a/1 (same gap)
    assert back.model("a/1").at == (10.0, 10.0) and back.model("b/1").at == (10.0, 11.26)
    evs = events(log, "returned")
    assert [(e["model"], e["engaged"]) for e in evs] == [("a/1", True), ("b/1", True)]
    assert [e["unit_left"] for e in evs] == [True, False]


def test_a_model_not_engaged_is_placed_again_once_its_enemy_is_back():
    # a/1 stood at (10, 5) among the back rank (touching a/7 at (11.26, 5)); b/1 must go back in
    # base contact with unit a: a/1 is not on the table yet, so it touches a/2 (11.26, 10) at 135
    # degrees, 2R + tol/2 = 1.2698" away: (10.3621, 10.8979).  a/1 at (10, 5) is then 5.91" from it
    # (edge gap 4.65" > 2"): not engaged, so it is placed again, engaged and coherent - at least
    # 5.9091 - (2R + 2" + tol) = 2.63" from (10, 5).
    after, sub = lone_champion_challenge(a_at=(10.0, 5.0))
    log = EventLog()
    back = return_models(after, sub, log)
    bx, by = back.model("b/1").at
    assert (bx, by) == pytest.approx((11.26 - (2 * R + 0.01) * 0.5 ** 0.5, 10 + (2 * R + 0.01) * 0.5 ** 0.5))
    g = snapshot(back)
    ax, ay = back.model("a/1").at
    assert ((ax - 10) ** 2 + (ay - 5) ** 2) ** 0.5 >= 5.9091 - (2 * R + 2.0 + g.tol) - 1e-3
    assert g.model_engaged("a/1") and g.overlaps == []
    assert any(g.model_distance("a/1", o) <= 2.0 + g.tol for o in g.unit_models("a") if o != "a/1")
    assert [(e["model"], e["engaged"]) for e in events(log, "returned")] == [("a/1", True), ("b/1", True)]


def test_the_lone_champion_lesson_reports_both_engaged():
    s = mapfile.load(str(SCEN / "gambit-lone-champion.toml"))
    after, log = fight(s, 4)
    evs = {e["model"]: e for e in events(log, "returned")}
    assert set(evs) == {"tac/4", "breachers/1"}
    g = snapshot(after)
    for mid, e in evs.items():
        assert e["engaged"] is True and g.model_engaged(mid), mid


# ---------------------------------------------------------------- red's own accept, blue's model
def test_reds_accept_naming_a_blue_model_is_overridden_for_that_reason():
    # a map file naming an enemy model is refused when it loads (board/decision_checks.py);
    # the rules' own refusal still holds for scripts built in code
    s = rnf(formation_unit("spears", "red", (24, 16), 90, 5, 2, [(2, 1, "commander", CAPTAIN, {})]),
            formation_unit("swords", "blue", (24, 16), 270, 5, 2, [(2, 1, "champion", CHAMPION, {})]))
    s = dataclasses.replace(s, decisions=(Decision("red", "issue_challenge", "none"),
                                          Decision("blue", "issue_challenge", "swords/2"),
                                          Decision("red", "accept_challenge", "swords/3")))
    _, log = fight(s, 1)
    (ov,) = events(log, "decision_overridden")
    assert ov["reason"] == "'swords/3' is blue's model, not one of red's"
