"""Turning to face keeps base contact (geometry/turns.py, rules/rank_and_flank/flee.py), by hand.

rank-and-flank-combat.txt Fleeing: "A unit still in contact with a single enemy on its
flank or rear turns to face it, ready for the next round."  B = 25/25.4" is one base.
Scenario: tests/scenarios/rnf_turn_keeps_contact.toml (a 3 x 6 block, c touching a/1 only).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rnf_maps import B25 as B
from rnf_maps import events, rnf_map, run, unit

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.geometry.turns import face_turn, placement_problems
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank.flee import turn_to_face_all

ABS = 1e-6
TURN = Path(__file__).parent / "scenarios" / "rnf_turn_keeps_contact.toml"
# a: c's 2 models fight a's left flank file: 6 dice (a/1, a/4, ..., a/16), all 1s: no hits;
# c: 1 front + 1 supporting die, 1s.  Score: red 0 (disrupted: no ranks); blue: flank +1,
# no ranks (c's second rank is 1 model) = 1: a loses, Fearless: 2D6 [1, 1] = 2 <= 10 holds.
ALL_MISS = [1] * 6 + [1, 1] + [1, 1]


def test_face_turn_centres_the_new_front_on_the_contact():
    state = mapfile.load(str(TURN))
    geo = snapshot(state)
    turn = face_turn(geo, "a", "c")
    # the left flank; the new facing 180; along a's forward (0, 1) from its centre
    # (24, 24 - 3B), c touches y 24-B..24: the stretch is 2B..3B, centred on 2.5B
    assert (turn.side, turn.facing_deg) == ("left", pytest.approx(180.0))
    assert turn.axis == pytest.approx((0.0, 1.0), abs=ABS)
    assert turn.stretch == pytest.approx((2 * B, 3 * B), abs=0.002)
    # frontage 3B; keep = min(stretch B, half a base B/2) = B/2
    assert (turn.width, turn.keep) == pytest.approx((3 * B, B / 2), abs=0.002)
    slide, pos, problems = next(turn.options(geo))
    assert slide == pytest.approx(2.5 * B, abs=0.002) and problems == []
    # a/2 (front rank, middle file) from (24, 24 - B/2): about the centre by +90 ->
    # (24 - 2.5B, 24 - 3B); 1.5B forward onto x = 24 - 1.5B -> (24 - B, 24 - 3B);
    # slid 2.5B along +y -> (24 - B, 24 - B/2): its new front edge x = 24 - 1.5B, flush
    # on c/1's front edge, y 24-B..24
    assert pos["a/2"] == pytest.approx((24 - B, 24 - B / 2, 180.0), abs=0.002)
    assert pos["a/1"] == pytest.approx((24 - B, 24 - 1.5 * B, 180.0), abs=0.002)
    # the spots tried stay where the new front (3B) covers B/2 of y 24-B..24: its middle
    # within y 24-2B..24+B, i.e. slides B..4B
    slides = list(turn.slides())
    assert min(slides) == pytest.approx(B, abs=0.1) and max(slides) == pytest.approx(4 * B, abs=0.1)
    assert all(turn.covers(s) >= B / 2 - 1e-9 for s in slides)


def test_turn_to_face_in_a_round_keeps_the_engagement():
    state = mapfile.load(str(TURN))
    res, log, dice = run(state, ALL_MISS)
    assert dice.remaining == []
    (turn,) = events(log, "turned_to_face")
    assert (turn["unit"], turn["enemy"], turn["side"]) == ("a", "c", "left")
    assert turn["facing_after"] == pytest.approx(180.0) and turn["shift"] == pytest.approx(0.0)
    # the new front's middle: on x = 24 - 1.5B at y = 24 - B/2
    assert turn["front_centre"] == pytest.approx([24 - 1.5 * B, 24 - B / 2], abs=0.002)
    geo = snapshot(res.state)
    assert geo.engagements == [["a", "c"]] and geo.overlaps == []
    assert geo.sides("a").enemy_sides == {"c": "front"}
    f = geo.formation("a")
    assert (f.files(), f.rank_count()) == (3, 6)
    m = res.state.model("a/2")
    assert (m.x, m.y, m.facing_deg) == pytest.approx((24 - B, 24 - B / 2, 180.0), abs=0.002)


def blocked_state():
    base = mapfile.to_dict(mapfile.load(str(TURN)))
    # d: red 2 x 3 facing 90, front edge centred on (24 + 3B, 24): x 24+2B..24+4B,
    # y 24-3B..24, half a base east of a.  Turned, a reaches x = 24 + 4.5B and, wherever its
    # new front (middle y 24-2B..24+B) meets c, spans some of y 24-3B..24: always on d.
    base["units"].append(unit("d", "red", (24 + 3 * B, 24), 90, 2, 3))
    return mapfile.from_dict(base)


def test_a_turn_that_cannot_keep_contact_leaves_the_unit_and_says_why():
    state = blocked_state()
    geo = snapshot(state)
    _, pos, problems = next(face_turn(geo, "a", "c").options(geo))
    # centred: a spans y 24-2B..24+B: d's ranks 1 and 2 (d/1..d/4, y 24-2B..24) are overlapped;
    # d/5, d/6 (y 24-3B..24-2B) only touch the edge y = 24 - 2B
    assert problems == ["it would overlap d/1, d/2, d/3, d/4"]
    res, log, dice = run(state, ALL_MISS)
    assert events(log, "turned_to_face") == []
    (blocked,) = events(log, "turn_blocked")
    assert (blocked["unit"], blocked["enemy"], blocked["side"]) == ("a", "c", "left")
    assert blocked["reason"].startswith("it would overlap d/1, d/2, d/3, d/4")
    before = {m.id: (m.x, m.y, m.facing_deg) for m in state.unit("a").models}
    after = {m.id: (m.x, m.y, m.facing_deg) for m in res.state.unit("a").models}
    assert after == before
    assert snapshot(res.state).engagements == [["a", "c"]]


def test_placement_problems_name_terrain_and_the_table_edge():
    state = rnf_map(unit("a", "red", (2, 24), 90, 3, 1), rules=None)
    data = mapfile.to_dict(state)
    data["terrain"] = [{"id": "rock", "kind": "impassable",
                        "polygon": [[10, 20], [14, 20], [14, 26], [10, 26]]}]
    state = mapfile.from_dict(data)
    geo = snapshot(state)
    # a/1 (x 2-1.5B..2-0.5B) moved 2" left is past x = 0; a/3 moved to (12, 23) is on the rock
    pos = {m.id: (m.x, m.y, m.facing_deg) for m in state.unit("a").models}
    pos["a/1"] = (pos["a/1"][0] - 2, pos["a/1"][1], 90.0)
    pos["a/3"] = (12.0, 23.0, 90.0)
    assert placement_problems(geo, "a", pos) == [
        "it would stand on impassable terrain rock (impassable)",
        "it would stand past the table edge"]


@settings(max_examples=15, deadline=None)
@given(files=st.integers(2, 5), ranks=st.integers(2, 6), width=st.integers(1, 3),
       right=st.booleans(), where=st.floats(0.0, 1.0))
def test_turning_to_face_always_keeps_contact_or_stays(files, ranks, width, right, where):
    # a: red files x ranks facing 90, front edge centred on (24, 24), its flank y 24-ranks*B..24;
    # c: blue, width x 1, on its left (or right) flank, facing it, its front edge overlapping
    # the flank by at least B/4 anywhere along it (``where`` from the rear end to the front)
    lo = 24 - ranks * B - width * B / 2 + B / 4
    hi = 24 + width * B / 2 - B / 4
    y = lo + (hi - lo) * where
    x = 24 + files * B / 2 if right else 24 - files * B / 2
    state = rnf_map(unit("a", "red", (24, 24), 90, files, ranks),
                    unit("c", "blue", (x, y), 180 if right else 0, width, 1))
    log = EventLog()
    after, recs = turn_to_face_all(state, ["a"], log)
    (rec,) = recs
    geo = snapshot(after)
    if rec["turned"]:
        assert geo.sides("a").enemy_sides == {"c": "front"} and geo.overlaps == []
        f = geo.formation("a")
        assert (f.files(), f.rank_count()) == (files, ranks)
    else:
        assert [m.x for m in after.unit("a").models] == [m.x for m in state.unit("a").models]
        assert [e.type for e in log.events] == ["turn_blocked"]
    assert geo.engagements == [["a", "c"]]
