"""``fight --odds`` gives a row to every unit that takes part, also one engaged only during the phase.

Issue 9 audit, finding 3: a unit that an overrun fight's extra pile-in (fight-phase.txt 12.06)
brings into the fight had no row although another row attacks it.
"""

from __future__ import annotations

from fractions import Fraction

from fightkit import state_from

from tabletop.rules.fight_phase.odds import odds

# 32mm bases (radius 0.63").  R1 (8.74, 10) and R2 (11.26, 10), both charged, touch B (10, 10)
# from either side.  D stands at (16.02, 10): 16.02 - 11.26 - 1.26 = 3.5" from R2's base, out
# of engagement range (2") but within a 3" pile-in of it.  Blades: A1, WS 3+, S4 v T4 (4+),
# AP0 v Sv 6+: a model dies with 2/3 x 1/2 x 5/6 = 10/36.  B and D have no weapons.
UNITS = """
[[units]]
id = "R1"
player = "red"
base = "32mm"
charged = true
profile = { T = 4, Sv = 6, W = 1 }
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[8.74, 10]]

[[units]]
id = "R2"
player = "red"
base = "32mm"
charged = true
profile = { T = 4, Sv = 6, W = 1 }
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[11.26, 10]]

[[units]]
id = "B"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[10, 10]]

[[units]]
id = "D"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 6, W = 1 }
weapons = []
models = [[16.02, 10]]
"""


def test_a_unit_an_overrun_brings_in_has_its_row():
    got = odds(state_from(UNITS))
    rows = {r["unit"]: r for r in got["units"]}
    assert got["method"] == "exact"
    # R1 fights first (file order): B dies with 10/36.  Then R2: B alive (26/36) -> a normal
    # fight at B (10/36); B dead (10/36) -> R2 is no longer engaged, makes an overrun fight
    # (12.06), piles in 3" to D and attacks it (10/36).
    # P(B destroyed) = 1 - (26/36)^2 = 1 - 676/1296 = 620/1296 = 155/324
    assert rows["B"]["p_destroyed_exact"] == str(Fraction(155, 324))
    # P(D destroyed) = 10/36 x 10/36 = 100/1296 = 25/324
    assert "D" in rows and rows["D"]["p_destroyed_exact"] == str(Fraction(25, 324))
    assert rows["R2"]["targets"] == ["B", "D"]
    # R2 removes a model with 26/36 x 10/36 (B) + 10/36 x 10/36 (D) = 360/1296 = 5/18
    assert abs(rows["R2"]["expected_models_removed"] - 5 / 18) < 1e-12
