"""One matching rule for the map's scripted ``[[decisions]]`` (``engine.scripted``, issue 9
item 2): the driver (``tabletop fight``), the odds walks, ``Decisions`` and the window take
the map's answers the same way.

Positions are 32mm bases (1.26" across): two models 1.26" apart centre to centre touch.
Unit helpers from ``fightkit``: T4, a Blade A1 WS3+ S4 AP0 D1 (none when A=0).
"""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction

from fightkit import state_from, unit

from tabletop.board.state import Decision
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.engine import scripted, walk
from tabletop.rules.engine.driver import default_policy, run
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase import fight, phase, pile_in
from tabletop.rules.fight_phase.odds_key import key as fight_key

fp_odds = importlib.import_module("tabletop.rules.fight_phase.odds")


def _decisions(*entries: tuple[str, str, object]) -> str:
    out = ""
    for player, choice, value in entries:
        v = ("[" + ", ".join(f'"{x}"' for x in value) + "]") if isinstance(value, list) \
            else f'"{value}"'
        out += f'\n[[decisions]]\nplayer = "{player}"\nchoice = "{choice}"\nvalue = {v}\n'
    return out


# ------------------------------------------------------------------ the rule itself
def test_take_matches_player_and_choice_in_order_and_leaves_used_to_the_caller():
    entries = [Decision("blue", "fight", "R1"), Decision("red", "fight", "r2 "),
               Decision("red", "fight", "R1")]
    # red's first question: entry 0 is blue's (not red's), entry 1 is red's -> " r2 " is R2
    # (trimmed, case-blind); the option as the rules spell it is the answer
    t = scripted.take(entries, frozenset(), "red", "fight", ("R1", "R2"))
    assert (t.index, t.value, t.overridden) == (1, "R2", None)
    # red's second question, entry 1 used: entry 2 (R1)
    t2 = scripted.take(entries, frozenset({1}), "red", "fight", ("R1", "R2"))
    assert (t2.index, t2.value) == (2, "R1")
    # red's third: none left for red (entry 0 is blue's)
    assert not scripted.take(entries, frozenset({1, 2}), "red", "fight", ("R1",)).found


def test_a_selection_matches_in_any_order_and_an_illegal_value_is_named():
    opts = ("B1", "B2", ("B1", "B2"))
    t = scripted.take([Decision("red", "pile_in_targets", ["b2", "B1"])], frozenset(), "red",
                      "pile_in_targets", opts)
    assert t.value == ("B1", "B2") and t.overridden is None
    bad = scripted.take([Decision("red", "pile_in_targets", "B3")], frozenset(), "red",
                        "pile_in_targets", opts, rule="x 1.0")
    assert bad.found and bad.index == 0 and bad.value is None
    ev = bad.overridden
    # the options as the map writes them: a selection as a list
    assert (ev.type, ev.value, ev.reason) == (
        "decision_overridden", "B3", "not one of ['B1', 'B2', ['B1', 'B2']]")


# ------------------------------------------------------------------ on maps, through fight
def _two_pairs(extra: str):
    # R1 (red, charged) touches B1 at y=3; R2 (red, charged) touches B2 at y=9; the pairs are
    # 6" apart.  No unit has weapons (A=0), so nothing rolls: only the choices matter.
    text = (unit("R1", "red", [(10, 3)], charged=True, A=0) + unit("B1", "blue", [(11.26, 3)], A=0)
            + unit("R2", "red", [(10, 9)], charged=True, A=0)
            + unit("B2", "blue", [(11.26, 9)], A=0))
    return state_from(text, extra=extra)


def _two_pairs_and_far(extra: str):
    # _two_pairs and R3 (red, not charged) alone at (40, 30): 29" from every enemy, so never
    # engaged and never eligible to fight (12.04) - a legal-shaped answer the rules refuse
    text = (unit("R1", "red", [(10, 3)], charged=True, A=0) + unit("B1", "blue", [(11.26, 3)], A=0)
            + unit("R2", "red", [(10, 9)], charged=True, A=0)
            + unit("B2", "blue", [(11.26, 9)], A=0) + unit("R3", "red", [(40, 30)], A=0))
    return state_from(text, extra=extra)


def _order(log) -> list[tuple[str, str]]:
    return [(e["player"], e["unit"]) for e in log.of_type("selected_to_fight")]


def test_a_decision_for_the_wrong_player_is_not_used():
    # Entry 0 is blue's "fight" R2: red's question never takes it.  Entry 1 is red's R2.
    # Fights First (both red units charged): red selects R2 (entry 1), then R1 (the default,
    # the only one left); blue has no Fights First unit.  Remaining Combats: blue selects;
    # blue's entry 0 says "R2", not one of blue's units -> overridden, blue's default B1.
    # (a map file naming the enemy's unit is refused when it loads, board/decision_checks.py;
    # the matching rule is the engine's, so the entries are given in code here)
    s = dataclasses.replace(_two_pairs(""), decisions=(Decision("blue", "fight", "R2"),
                                                       Decision("red", "fight", "R2")))
    res = fight(s, FixedDice([]))
    assert _order(res.log)[:2] == [("red", "R2"), ("red", "R1")]
    over = res.log.of_type("decision_overridden")
    assert [(e["player"], e["value"]) for e in over] == [("blue", "R2")]
    # red's question took entry 1 only; entry 0 was taken (and overridden) by blue's question;
    # the phase state is the record
    assert res.extra["phase_state"].used == frozenset({0, 1})


def test_two_decisions_for_one_choice_are_used_in_order_and_recorded_in_the_phase_state():
    # red's "fight" R2 then R1: red selects R2 first although the default is R1 (file order)
    s = _two_pairs(_decisions(("red", "fight", "R2"), ("red", "fight", "R1")))
    res = fight(s, FixedDice([]))
    assert _order(res.log)[:2] == [("red", "R2"), ("red", "R1")]
    assert res.extra["phase_state"].used == frozenset({0, 1})
    fights = [a for a in res.extra["answers"] if a.choice == "fight"]
    assert fights[:2] == [Decision("red", "fight", "R2"), Decision("red", "fight", "R1")]


def test_an_illegal_value_is_overridden_named_and_replays_the_same_way():
    # red's "fight" R3 is red's but never engaged: overridden (the event names "R3" and the
    # true reason), red's default R1 answers.  The run's answers keep "R3", so replaying them
    # overrides it again and gives the same events.
    s = _two_pairs_and_far(_decisions(("red", "fight", "R3")))
    res = fight(s, FixedDice([]))
    over = res.log.of_type("decision_overridden")
    assert [(e["player"], e["choice"], e["value"]) for e in over] == [("red", "fight", "R3")]
    assert over[0]["reason"] == ("R3 is not engaged and did not make a charge move this turn "
                                 "(fight-phase.txt 12.04)")
    assert _order(res.log)[:2] == [("red", "R1"), ("red", "R2")]
    fights = [a for a in res.extra["answers"] if a.choice == "fight"]
    assert fights[0] == Decision("red", "fight", "R3")
    machine, start = phase(s)
    log = EventLog()
    again = run(machine, start, dice=FixedDice([], log), scripted=res.extra["answers"], log=log)
    assert [e.to_dict() for e in log.events] == [e.to_dict() for e in res.log.events]
    assert again.state.battlefield == res.state


def test_an_override_is_answered_by_the_default_policy_not_the_callers_policy():
    # the driver's policy would answer R2; the map's illegal "R3" (never engaged) is answered by
    # the default policy (R1, file order), as Decisions does in the window (rule 4)
    s = _two_pairs_and_far(_decisions(("red", "fight", "R3")))
    machine, start = phase(s)
    asked: list[str] = []

    def r2_first(q):
        asked.append(q.choice)
        return "R2" if q.choice == "fight" and "R2" in q.options else default_policy(q)
    log = EventLog()
    run(machine, start, dice=FixedDice([], log), scripted=s.decisions, policy=r2_first, log=log)
    assert _order(log)[0] == ("red", "R1")


# ------------------------------------------------------------------ fight and odds agree
def _one_on_two(extra: str):
    # R (red, charged) at (10, 10) touches B1 at (11.26, 10) and B2 at (8.74, 10).  B1 has no
    # save (Sv 7), B2 saves on 4+ (AP0).  Blue has no weapons.  The default attack_target is
    # B1 (each target has one fighting model; ties go to file order).
    text = (unit("R", "red", [(10, 10)], charged=True, A=1)
            + unit("B1", "blue", [(11.26, 10)], A=0, Sv=7)
            + unit("B2", "blue", [(8.74, 10)], A=0, Sv=4))
    return state_from(text, extra=extra)


def _p_destroyed(result: dict, uid: str) -> Fraction:
    return Fraction(next(u for u in result["units"] if u["unit"] == uid)["p_destroyed_exact"])


def test_exact_odds_of_a_scripted_choice_equal_the_odds_with_it_made_by_hand():
    s = _one_on_two(_decisions(("red", "attack_target", "b2")))
    got = fp_odds.odds(s)
    assert got["method"] == "exact"
    # on B2: hit 3+ (4/6) x wound 4+ S4 v T4 (3/6) x save 4+ fails on 1-3 (3/6) = 1/6
    assert _p_destroyed(got, "B2") == Fraction(4, 6) * Fraction(3, 6) * Fraction(3, 6)
    assert _p_destroyed(got, "B1") == 0
    # the same choice made by hand: the map without [[decisions]], a policy answering B2
    plain = _one_on_two("")
    machine, start = phase(plain)

    def b2(q):
        return "B2" if q.choice == "attack_target" and q.player == "red" else default_policy(q)
    by_hand = walk.exact(machine, start, outcome=lambda st: st.battlefield.has_unit("B2"),
                         key=fight_key, policy=b2)
    assert by_hand.p(lambda alive: not alive) == _p_destroyed(got, "B2") == Fraction(1, 6)
    # unscripted, the default B1: 4/6 x 3/6 = 1/3 (no save)
    assert _p_destroyed(fp_odds.odds(plain), "B1") == Fraction(1, 3)
    # and fight takes the same answer: hit 3, wound 4, save 1 -> B2 removed, B1 untouched
    res = fight(s, FixedDice([3, 4, 1]))
    assert not res.state.has_unit("B2") and res.state.has_unit("B1")
    assert Decision("red", "attack_target", "B2") in res.extra["answers"]


def _pile_in_pair(extra: str):
    # R (red, charged) at (10, 10), not engaged; B1 at (14, 10) and B2 at (10, 14): each 4"
    # centre to centre (2.74" between bases), so both are within 5" and R chooses its
    # pile-in targets.  No unit has weapons.
    text = (unit("R", "red", [(10, 10)], charged=True, A=0) + unit("B1", "blue", [(14, 10)], A=0)
            + unit("B2", "blue", [(10, 14)], A=0))
    return state_from(text, extra=extra)


def test_a_selection_in_another_order_is_the_same_answer_for_fight_odds_and_commands():
    # ["B2", "B1"] names the option ["B1", "B2"]: taken, not overridden, everywhere
    s = _pile_in_pair(_decisions(("red", "pile_in_targets", ["B2", "B1"])))
    res = fight(s, FixedDice([]))
    assert res.log.of_type("decision_overridden") == []
    assert res.extra["moves"][0].unit == "R" and res.extra["moves"][0].targets == ("B1", "B2")
    piled, _ = fp_odds._piled_in(s)
    assert piled.used == frozenset({0})
    assert piled.memo.moves[0].targets == ("B1", "B2")
    log = EventLog()
    out = pile_in(s, "R", Decisions(s.decisions, log), log)
    assert out.targets == ("B1", "B2") and log.of_type("decision_overridden") == []


# ------------------------------------------------------------------ the window, same rule
def test_the_window_takes_the_maps_answers_by_the_same_rule_and_saves_them():
    # as test_a_decision_for_the_wrong_player_is_not_used, driven from the window's loop with
    # the person choosing "the default for the rest": the same selections, the same override,
    # and the phase state records the same entries; the saved run replays to the same events
    from tabletop.app.interactive import PlaySession
    s = dataclasses.replace(_two_pairs(""), decisions=(Decision("blue", "fight", "R2"),
                                                       Decision("red", "fight", "R2")))
    session = PlaySession(s, seed=1)
    session.use_defaults = True
    session.start()
    session.run_to_question()
    assert session.resolution is not None
    log = session.log
    assert _order(log)[:2] == [("red", "R2"), ("red", "R1")]
    over = log.of_type("decision_overridden")
    assert [(e["player"], e["value"]) for e in over] == [("blue", "R2")]
    assert session._phase.used == frozenset({0, 1})
    replayed = fight(session.replay_state(), FixedDice([]))
    assert [e.to_dict() for e in replayed.log.events] == [e.to_dict() for e in log.events]
