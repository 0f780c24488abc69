"""A charge path never passes through enemy bases, declared targets included (issue 10,
audit-uses finding 1).  The auditor's screen: nine 25mm models in a line at x = 25,
1.5" apart (y 16 .. 28), a 40mm "prize" behind at (29, 22), 32mm chargers at x = 20.

25mm: R = 25 / 25.4 / 2 = 0.492126"; 32mm: r = 0.629921"; 40mm: P = 0.787402".
The gap between two screen bases is 1.5 - 2R = 0.515748", narrower than a 32mm base
(2r = 1.259843"): a charger cannot pass between them.  Engagement range 2" (11th preset).
"""

from __future__ import annotations

import math

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import landing_problems, plan_charge

R25 = 25 / 25.4 / 2
R32 = 32 / 25.4 / 2
R40 = 40 / 25.4 / 2
SCREEN_Y = [16 + 1.5 * k for k in range(9)]

MAP = """
[map]
name = "screen"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "chargers"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Blade", A = 2, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[20, 21], [20, 22.3], [20, 23.6]]

[[units]]
id = "screen"
player = "blue"
base = "25mm"
keywords = ["infantry"]
profile = { M = 6, T = 3, Sv = 7, W = 1 }
weapons = [{ name = "Knife", A = 1, WS = 4, S = 3, AP = 0, D = 1 }]
models = [[25, 16], [25, 17.5], [25, 19], [25, 20.5], [25, 22], [25, 23.5], [25, 25], [25, 26.5], [25, 28]]

[[units]]
id = "prize"
player = "blue"
base = "40mm"
keywords = ["infantry", "character"]
profile = { M = 6, T = 4, Sv = 3, W = 5 }
weapons = [{ name = "Sword", A = 4, WS = 2, S = 5, AP = -2, D = 2 }]
models = [[29, 22]]
"""


def _seg_dist(p, a, b) -> float:
    """Distance from point p to segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _clear_of_screen(points, tol=0.02) -> bool:
    """No leg brings a 32mm centre within r + R (less the tolerance) of a screen centre."""
    return all(_seg_dist((25, y), a, b) >= R32 + R25 - tol
               for a, b in zip(points, points[1:]) for y in SCREEN_Y)


def test_declaring_the_screen_does_not_open_a_way_through_it(write_map):
    # The prize's goal: centre within r + P + 2 = 0.6299 + 0.7874 + 2 = 3.4173" of (29, 22),
    # i.e. x >= 25.58 near y = 22: behind the screen (its grown line spans x 25 -+ (R + r) =
    # 23.88 .. 26.12).  No gap lets a 32mm centre through, so the path goes round an end of
    # the line: over the top the centre passes (25, 28 + R + r) = (25, 29.122) or beyond;
    # from chargers/3 (20, 23.6): hypot(5, 5.522) = 7.449, then hypot(4, 7.122) - 3.4173 =
    # 8.169 - 3.417 = 4.752: at least 12.20".  Under the bottom from chargers/1 (20, 21) via
    # (25, 16 - 1.122 = 14.878): hypot(5, 6.122) = 7.904 + hypot(4, 7.122) - 3.417 = 4.752:
    # at least 12.66".  Both exceed 12, the most 2D6 rolls: the charge is out of reach
    # (before: a straight 5.59" through a 0.52" gap, "needs 6", 72.2%).
    p = plan_charge(load_map(write_map(MAP, "screen.toml")), "chargers", ["screen", "prize"], 1,
                    fight=False)
    prize = next(r for r in p["targets"] if r["id"] == "prize")
    assert prize["needs"] is None or prize["needs"] >= 12.20 - 0.01
    assert p["probability"] == 0.0
    if prize["path"]:
        assert _clear_of_screen(prize["path"])


def test_a_landing_against_the_screen_comes_round_no_screen_model(write_map):
    # Declaring the screen alone: the chargers end against it (gap 5 - R - r = 3.878", needs
    # 1.88": every roll), and no landing path crosses a screen base.
    p = plan_charge(load_map(write_map(MAP, "screen.toml")), "chargers", ["screen"], 1,
                    fight=False)
    assert p["probability"] == 1.0
    assert p["landing_legal"] and p["landing_problems"] == []
    for pts in p["landing_paths"].values():
        assert _clear_of_screen(pts)


def test_the_landing_check_refuses_a_path_through_the_screen(write_map):
    # The auditor's old path for chargers/2: (20, 22.3) -> (25.9461, 21.12), d = (5.9461, -1.18),
    # |d| = 6.0621.  screen/5 (25, 22): cross((5, -0.3), d) = -5.9 + 1.784 = -4.116 -> 0.679";
    # screen/4 (25, 20.5): cross((5, -1.8), d) = -5.9 + 10.703 = 4.803 -> 0.792"; both under
    # R + r = 1.122" (and both feet fall inside the leg): the base sweeps through both.
    # screen/3 (25, 19) is cross 13.41 / 6.06 = 2.21" off: clear.
    st = load_map(write_map(MAP, "screen.toml"))
    landed = st.with_models([st.model("chargers/2").moved_to(25.9461, 21.12)])
    got = landing_problems(landed, "chargers", ["screen", "prize"], 2.0,
                           paths={"chargers/2": [(20, 22.3), (25.9461, 21.12)]})
    assert "chargers/2's path passes through screen/4" in got
    assert "chargers/2's path passes through screen/5" in got
    assert not any("screen/3" in g for g in got)
