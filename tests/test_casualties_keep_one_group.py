"""The default casualty order keeps the unit in one group where it can (issue 9 audit, finding 5).

Core rules 03.03 coherency (the 11th preset: each model within 2" of one other, every model within
9" of every other) holds for a unit split in two clumps, but the next casualty from either clump
can then break it: the gambit replay lost breachers/7, /5, /3 and /6 from a line and /8 ended
alone.  ``removal_order`` now prefers, among the models whose removal keeps coherency, one whose
removal leaves a single group (``connected_subset``), then the farthest from the enemy.
"""

from __future__ import annotations

from fightkit import state_from, unit

from tabletop.geometry import snapshot
from tabletop.geometry.removal import removal_order

# B: six 32mm models (1.26" across) in a line at y = 10: B/1-B/3 at x = 10, 11.3, 12.6 and
# B/4-B/6 at 15.2, 16.5, 17.8 (edge gaps 0.04", and 2.6 - 1.26 = 1.34" between B/3 and B/4:
# one group, in coherency).  R: five models at y = 8.74, each in base contact under B/1, B/2,
# B/4, B/5 and B/6; none under B/3, whose nearest enemy (R under B/2) is
# sqrt(1.3^2 + 1.26^2) - 1.26 = 0.55" away, every other B model's 0": B/3 is the farthest.
XS = [10, 11.3, 12.6, 15.2, 16.5, 17.8]
UNITS = (unit("R", "red", [(x, 8.74) for x in XS if x != 12.6])
         + unit("B", "blue", [(x, 10) for x in XS]))


def test_the_first_casualty_leaves_one_group_not_two_clumps():
    geo = snapshot(state_from(UNITS))
    order = removal_order(geo, "B")
    # Removing B/3 keeps 03.03 - {B/1, B/2} and {B/4, B/5, B/6} each have a neighbour 0.04"
    # away, and B/1 to B/6 is 7.8 - 1.26 = 6.54" <= 9" - but B/2 to B/4 is 3.9 - 1.26 = 2.64"
    # > 2": two clumps (the old order took it first, as the farthest).  Removing B/1, B/2, B/5
    # or B/6 leaves one group; they tie on distance (0"), the later id first: B/6.
    assert order[0] == "B/6"
    assert order.index("B/3") > order.index("B/1")


def test_removing_in_that_order_keeps_one_group_to_the_last_two():
    geo = snapshot(state_from(UNITS))
    gone: frozenset[str] = frozenset()
    taken = []
    for _ in range(4):      # 6 -> 2 models: each casualty the first of the order
        nxt = removal_order(geo, "B", gone)[0]
        taken.append(nxt)
        gone = gone | {nxt}
    # B/6 (an end, 0"), B/5 (now the end; B/4 still 1.34" from B/3), B/4 (now the end), then
    # B/3 (0.55", the farthest, and B/1-B/2 stay 0.04" apart)
    assert taken == ["B/6", "B/5", "B/4", "B/3"]
