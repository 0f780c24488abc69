"""Which arc of its target a charger is in: the majority of its front rank, a tie by a D6
or the front-edge centre, and dividing lines within the map's contact tolerance (worked by
hand; measurements.csv TOW "Arcs": quadrants cut by lines at 45 degrees from the corners).

Target a: red 5x4 of 25mm facing 90 with its front edge centred on (24, 24): front y = 24,
left flank x = L = 24 - 2.5B (B = 25/25.4" = 0.98425", L = 21.53937).  A point (x, y) ahead
and to the left is in the front arc when (y - 24) > (L - x), in the left arc when less.
Chargers face 270 (south) in one rank, front edge on y = 26, so their base centres stand
at y = 26 + B/2 = 26.49213: 2.49213" ahead of a's front edge.  Facing 270, a charger's
file 1 is its easternmost model.
"""

from __future__ import annotations

import json

import pytest
from rnf_maps import B25 as B
from rnf_maps import rnf_map, unit

from tabletop.board.mapfile import from_dict
from tabletop.cli import main
from tabletop.errors import MapValidationError
from tabletop.geometry import snapshot
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank.charge_arc import CHARGE_ARC_TIE, charger_arc

L = 24 - 2.5 * B


def charge_state(files, x, rules=None):
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                   unit("w", "blue", (x, 26), 270, files, 1), rules=rules)


def test_majority_of_the_front_rank_decides_not_the_front_edge_centre():
    # w: 3 files, front-edge centre (L - 2.2, 26): 2" ahead, 2.2" out -> that point is in the
    # left arc.  Its models: w/1 at x = L - 2.2 + B (1.21575" out), w/2 at L - 2.2 (2.2" out),
    # w/3 at L - 2.2 - B (3.18425" out), all 2.49213" ahead: front, front, left -> front 2-1.
    geo = snapshot(charge_state(3, L - 2.2))
    call = charger_arc(geo, "w", "a")
    assert call.arc == "front" and call.how == "majority" and call.tied == ()
    assert call.counts == {"front": 2, "left": 1, "right": 0, "rear": 0}
    assert call.models["front"] == ["w/1", "w/2"] and call.models["left"] == ["w/3"]
    assert geo.formation("a").arc_of(*call.point) == "left"


def tie_state(rules=None):
    # w: 4 files, front-edge centre (L - 2.5, 26): models 1.02362", 2.00787" (front) and
    # 2.99213", 3.97638" (left) out, 2.49213" ahead: front 2, left 2, a tie
    return charge_state(4, L - 2.5, rules)


def test_a_tie_is_a_d6_front_on_1_to_3_left_on_4_to_6_and_the_roll_is_logged():
    assert CHARGE_ARC_TIE == "roll"
    geo = snapshot(tie_state())
    log = EventLog()
    call = charger_arc(geo, "w", "a", FixedDice([3], log))
    # tied arcs in the order front, left, right, rear: (front, left); D6 3 -> the first
    assert (call.arc, call.tied, call.how, call.roll) == ("front", ("front", "left"), "roll", (3,))
    (roll,) = [e.data for e in log.events if e.type == "roll"]
    assert roll["dice"] == [3] and roll["result"] == "front"
    call = charger_arc(geo, "w", "a", FixedDice([4]))
    assert (call.arc, call.roll) == ("left", (4,))


def test_a_tie_by_the_front_edge_centre_option():
    # [rules] charge_arc_tie = "front-edge centre": (L - 2.5, 26) is 2" ahead, 2.5" out: left
    state = tie_state({"charge_arc_tie": "front-edge centre"})
    call = charger_arc(snapshot(state), "w", "a", None, state.rules.charge_arc_tie)
    assert (call.arc, call.how, call.roll) == ("left", "front-edge centre", ())
    with pytest.raises(MapValidationError, match="charge_arc_tie"):
        from_dict({"map": {"name": "t", "ruleset": "rank-and-flank", "width": 10, "depth": 10},
                   "rules": {"charge_arc_tie": "coin"}})


def test_on_the_dividing_line_within_the_contact_tolerance_is_the_front():
    f = snapshot(charge_state(1, L - 3)).formation("a")
    # (L - 3 - d, 27): 3" ahead, 3 + d out; the 45-degree line from the front-left corner is
    # d / sqrt(2) away.  Tolerance 0.02": d = 0.02 -> 0.01414" from the line: on it -> front
    # (ARC_ON_LINE: front first); d = 0.03 -> 0.02121": beyond it -> left
    assert f.arc_of(L - 3.02, 27) == "front"
    assert f.arc_of(L - 3.03, 27) == "left"
    # a map measured to 1/16": contact_tolerance 0.0625; d = 0.08 -> 0.05657" from the line
    g = snapshot(charge_state(1, L - 3, {"contact_tolerance": 0.0625})).formation("a")
    assert g.arc_of(L - 3.08, 27) == "front" and g.arc_of(L - 3.09, 27) == "left"


def test_a_one_model_charger_standing_on_the_line_charges_the_front():
    # w: 1 model, front-edge centre (L - 2.49213 - 0.02, 26): its centre (L - 2.51213, 26.49213)
    # is 2.49213" ahead and 2.51213" out: 0.01414" off the line, within 0.02": front
    geo = snapshot(charge_state(1, L - (B / 2 + 2) - 0.02))
    call = charger_arc(geo, "w", "a")
    assert (call.arc, call.counts["front"], call.how) == ("front", 1, "majority")


def test_charge_command_reports_a_rolled_tie(capsys, tmp_path):
    from tabletop.board.mapfile import save
    path = tmp_path / "tie.toml"
    save(tie_state(), str(path))
    assert main(["charge", str(path), "w", "a", "--json", "--seed", "5"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["arc_counts"] == {"front": 2, "left": 2, "right": 0, "rear": 0}
    assert p["arc_tie"] == ["front", "left"] and p["arc_how"] == "roll" and p["seed"] == 5
    # the D6 decides: 1-3 front, 4-6 left
    assert p["side"] == ("front" if p["arc_roll"][-1] <= 3 else "left")
    assert main(["charge", str(path), "w", "a", "--seed", "5"]) == 0
    assert "ties (front 2, left 2): D6" in capsys.readouterr().out
