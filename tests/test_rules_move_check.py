"""rules.move_check: the check is set up as the real move (targets through Decisions) and
judges distance exactly as 12.03 states it ("MAXIMUM DISTANCE: 3\"")."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from moves_support import scenario

from tabletop.board import mapfile
from tabletop.rules.move_check import check_move, move_setup

# r/1 (10, 10) charged; a/1 (14, 10) and b/1 (10, 14) are each 4 - 1.25984 = 2.74016" away:
# neither engaged (> 2"), both within 5" -> the player selects one or more pile-in targets
TWO_FOES = """\
[map]
name = "Two foes"
ruleset = "fight-phase"
width = 30
depth = 30

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "r"
player = "red"
base = "32mm"
charged = true
models = [[10, 10]]

[[units]]
id = "a"
player = "blue"
base = "32mm"
models = [[14, 10]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
models = [[10, 14]]
"""


def test_targets_come_through_decisions(write_map):
    state = mapfile.load(write_map(TWO_FOES))
    # the named default PILE_IN_TARGETS: every enemy unit within 5"
    assert move_setup(state, "r", "pile_in").targets == ("a", "b")
    scripted = mapfile.load(write_map(TWO_FOES + """
[[decisions]]
player = "red"
choice = "pile_in_targets"
value = "b"
"""))
    setup = move_setup(scripted, "r", "pile_in")
    assert setup.targets == ("b",) and setup.spec.targets == ("b",)
    # b is then the only target: r/1 moved 1" toward a, to (11, 10), ends
    # sqrt(1^2 + 4^2) - 1.25984 = 2.86327" from b/1, not closer than the 2.74016" it started
    check = check_move(scripted, setup, {"r/1": (11.0, 10.0)})
    assert check.lines()[0] == ('r/1 ends 2.86" from b (its closest model b/1), not closer '
                                'than the 2.74" it started (12.03)')


@settings(max_examples=12, deadline=None)
@given(angle=st.floats(0, 2 * math.pi), dist=st.floats(0.1, 4.5))
def test_the_distance_clause_is_broken_exactly_past_3_inches(angle, dist):
    # validator_illegal.toml: r/3 (18, 16.9) moved ``dist`` in any direction, straight
    state, geo = scenario("validator_illegal")
    setup = move_setup(state, "r", "pile_in")
    x, y = 18 + dist * math.cos(angle), 16.9 + dist * math.sin(angle)
    check = check_move(state, setup, {"r/3": (x, y)}, geo=geo)
    too_far = [v.message for v in check.violations if " moved " in v.message]
    if dist > 3 + state.rules.tol:
        assert too_far == [f'r/3 moved {dist:.2f}" > 3" (12.03)']
    elif dist <= 3:
        assert too_far == []
    assert check.moved == ["r/3"] and math.isclose(check.distances["r/3"], dist, abs_tol=1e-9)
