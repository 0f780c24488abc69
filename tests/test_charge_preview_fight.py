"""The charge preview's fight (issue 10 item 1, brief charge-preview faults 1 and 2).

Fault 2: an exact preview of a unit fighting two target units gave a ``null`` chart for the
charger and for the target it did not attack (a unit's chart was its one foe's "models
removed", which exists only when that foe fought it alone).  Each unit's own distribution of
models lost now comes from the odds rows (``fight_phase.odds``: ``models_lost``).

Fault 1: ``gretchin: loses 2.56 of 11`` looked like too few Skorpekh attacks.  Worked
through on the auditor's map: the landing engages one Skorpekh, the fight's pile-in (12.03)
brings the other two in, and all three fight; the figure is lower than 12 x 2/3 x 5/6
because of the Runtherd (T5: the unit is wounded on 3+, ``attacks.WOUND_TOUGHNESS``; W2 and
farthest from the enemy: it takes the first wounds, ``casualties.REMOVAL_ORDER``) and the
auditor's profile (D1).  2.56 was the same arithmetic with 8 attacks (two Skorpekhs fighting,
the landing of that day); the tests pin the worked means.

32mm bases: r = 32 / 25.4 / 2 = 0.629921"; 25mm: 0.492126"; 50mm: 0.984252".
"""

from __future__ import annotations

import json

import pygame
import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main
from tabletop.render.charge_plan import BAR, CHART_W
from tabletop.rules.charge_plan import plan_charge

HEAD = """
[map]
name = "preview fight"
ruleset = "fight-phase"
width = 40
depth = 40

[rules]
edition = "11th"

[[players]]
id = "red"
active = true

[[players]]
id = "blue"
"""

# a: one tough model (W10: nothing the targets do removes it), 1 attack at 3+, S4 AP0 D1.
# t1, t2: one model each, T4 Sv7 (no save) W1, 1 attack at 6+, S1.
TWO_TARGETS = HEAD + """
[[units]]
id = "a"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 3, W = 10, Ld = 6, OC = 1 }
weapons = [{ name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
models = [[12, 20.75]]

[[units]]
id = "t1"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 7, W = 1, Ld = 6, OC = 1 }
weapons = [{ name = "Fists", A = 1, WS = 6, S = 1, AP = 0, D = 1 }]
models = [[20, 20]]

[[units]]
id = "t2"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 7, W = 1, Ld = 6, OC = 1 }
weapons = [{ name = "Fists", A = 1, WS = 6, S = 1, AP = 0, D = 1 }]
models = [[20, 21.5]]
"""


def _bar_runs(png: str) -> int:
    """How many bars of the fight chart the plan picture's panel shows: runs of BAR pixels
    down the column just inside the bars' left end (``_bars``: bars start 70 px into the
    panel's inner rect, which is 12 px right of the board)."""
    img = pygame.image.load(png)
    w, h = img.get_size()
    x = (w - CHART_W) + 12 + 70 + 1
    runs, inside = 0, False
    for y in range(h):
        on = tuple(img.get_at((x, y)))[:3] == BAR
        runs += on and not inside
        inside = on
    return runs


def test_exact_preview_gives_each_of_two_targets_its_own_chart(write_map, capsys, tmp_path):
    # a (12, 20.75) charges t1 (20, 20) and t2 (20, 21.5): the gap is about 8 - 2r = 6.74",
    # so the landing stands a within 2" of both.  a fights first (it charged) with one
    # attack at the unit most of its fighting models can attack, tied 1-1, then file
    # order: t1.  P(t1's model is removed) = P(hit 3+) x P(wound S4 v T4: 4+) x P(no save:
    # Sv7) = 4/6 x 3/6 x 1 = 1/3.  t2 is never attacked; a (W10) loses nothing to two
    # attacks of D1.
    path = write_map(TWO_TARGETS)
    out = tmp_path / "plan.png"
    assert main(["charge", path, "a", "t1", "t2", "--json", "-o", str(out)]) == 0
    p = json.loads(capsys.readouterr().out)
    assert sorted(p["landing_engaged"]) == ["t1", "t2"]
    f = p["fight"]
    assert f["method"] == "exact"
    units = f["units"]
    for u in ("a", "t1", "t2"):
        assert units[u]["models_lost"] is not None          # before: null for a and t2
        assert sum(units[u]["models_lost"].values()) == pytest.approx(1.0, abs=1e-12)
    assert units["t1"]["models_lost"] == {"0": pytest.approx(2 / 3), "1": pytest.approx(1 / 3)}
    assert units["t2"]["models_lost"] == {"0": pytest.approx(1.0)}
    assert units["a"]["models_lost"] == {"0": pytest.approx(1.0)}
    # the picture's chart: a bar for each count of each unit: a 0 lost, t1 0 and 1 lost,
    # t2 0 lost = 4 bars (before: the two null charts drew none)
    assert _bar_runs(str(out)) == 4


def test_fight_chart_draws_every_unit_and_the_long_tail(write_map):
    # draw_fight_chart gives every unit with a distribution a bar chart; a unit of 11 with
    # twelve counts shows each count of at least 0.5% (before: the first 8 only)
    pygame.font.init()
    lost = {k: p for k, p in enumerate([0.01, 0.02, 0.05, 0.08, 0.1, 0.12, 0.14, 0.14, 0.12,
                                        0.1, 0.07, 0.05])}
    fight = {"method": "exact", "units": {
        "g": {"models": 11, "expected_models_lost": 0.0, "p_destroyed": 0.05, "models_lost": lost},
        "s": {"models": 3, "expected_models_lost": 0.0, "p_destroyed": 0.0, "models_lost": {0: 1.0}}}}
    from tabletop.render.charge_plan import draw_fight_chart
    surface = pygame.Surface((CHART_W, 700))
    assert draw_fight_chart(surface, pygame.Rect(0, 0, CHART_W - 12, 680), fight) == ["g", "s"]
    # bars start 70 px into the inner rect (8 px in): 12 of g (every count >= 0.5%) + 1 of s
    runs, inside = 0, False
    for y in range(700):
        on = tuple(surface.get_at((8 + 70 + 1, y)))[:3] == BAR
        runs += on and not inside
        inside = on
    assert runs == 13


# --- fault 1: the auditor's Skorpekhs and Gretchin ------------------------------------------

SKORPEKH = """
[map]
name = "skorpekh v gretchin"
ruleset = "fight-phase"
width = 44
depth = 30

[rules]
edition = "11th"

[[players]]
id = "necrons"
active = true

[[players]]
id = "orks"

[[units]]
id = "skorpekh-destroyers"
player = "necrons"
base = "50mm"
keywords = ["infantry"]
profile = {{ M = 8, T = 6, Sv = 3, W = 3, Ld = 7, OC = 1 }}
weapons = [{{ name = "Skorpekh hyperphase weapons", A = 4, WS = 3, S = 7, AP = -2, D = {d} }}]
models = [[17.0157, 17.0157], [17.0157, 14.5472], [14.5472, 17.0157]]

[[units]]
id = "gretchin"
player = "orks"
base = "25mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 2, Sv = 7, W = 1, Ld = 8, OC = 2 }}
weapons = [{{ name = "Close combat weapon", A = 1, WS = 5, S = 2, AP = 0, D = 1 }}]
models = [
    [28.78, 8.6], [28.78, 9.65], [28.78, 10.7], [28.78, 11.75], [28.78, 12.8],
    [29.85, 9.1], [29.85, 10.15], [29.85, 11.2], [29.85, 12.25], [29.85, 13.3],
    {{ at = [31, 11.1], name = "Runtherd", base = "32mm", {runtherd} }},
]
"""


def _skorpekh(write_map, d: int, runtherd: str):
    st = load_map(write_map(SKORPEKH.format(d=d, runtherd=runtherd)))
    p = plan_charge(st, "skorpekh-destroyers", ["gretchin"], 1)
    assert p["landing_legal"] and p["fight"]["method"] == "exact"
    return p


def test_all_three_skorpekhs_fight_through_the_runtherds_toughness(write_map):
    # The auditor's units and places (audit-12b, both.toml), Skorpekh D2, a Runtherd T5 Sv6
    # W2 among the Gretchin.  Skorpekh/1 and /2 (path lengths 9.02" and 8.48" to engagement
    # range) reach it with the 10" median roll; /3 (11.37") cannot, ends as near as
    # coherency lets it, and the fight's pile-in (3", 12.03) brings it in: 12 attacks.
    # (The old landing queued /1 behind /2 and left /3 5.8" off: 8 attacks.)
    # Wound roll: S7 v the unit's highest T, 5 (the Runtherd): 3+.  Per attack a wound with
    # p = 2/3 x 2/3 = 4/9 (AP-2: Sv6 -> 8+, Sv7: no save).  D2 removes any model it wounds
    # (W1, or the Runtherd's W2), so models lost = min(W, 11), W ~ Binomial(12, 4/9):
    # E = 12 x 4/9 - P(W = 12) = 5.333333 - (4/9)^12 = 5.333333 - 0.0000594 = 5.333274.
    # (The audit's D1 profile loses a wound on the Runtherd: 4.33 now; 2.56 with 8 attacks.)
    p = _skorpekh(write_map, 2, "profile = { T = 5, Sv = 6, W = 2 }")
    assert p["landing_roll"]["inches"] == 10.0
    g = p["fight"]["units"]["gretchin"]
    assert g["expected_models_lost"] == pytest.approx(16 / 3 - (4 / 9) ** 12, abs=1e-9)
    assert g["models_lost"][0] == pytest.approx((5 / 9) ** 12, abs=1e-12)


def test_plain_gretchin_lose_twelve_times_five_ninths(write_map):
    # The brief's profile: D2 Skorpekhs and every Gretchin T2 Sv7 W1 (the Runtherd too).
    # Per attack: hit 3+ (2/3) x wound S7 v T2 2+ (5/6) x no save = 5/9, one model each.
    # K ~ Binomial(12, 5/9); 11 models, so E[min(K, 11)] = 12 x 5/9 - P(K = 12)
    # = 6.666667 - (5/9)^12 = 6.666667 - 0.000854 = 6.665813.
    p = _skorpekh(write_map, 2, "profile = { T = 2, Sv = 7, W = 1 }")
    g = p["fight"]["units"]["gretchin"]
    assert g["expected_models_lost"] == pytest.approx(12 * 5 / 9 - (5 / 9) ** 12, abs=1e-9)
    assert g["p_destroyed"] == pytest.approx((5 / 9) ** 11 * (12 * (4 / 9) + 5 / 9), abs=1e-12)


def test_landing_aim_path_keeps_the_old_queue(write_map):
    # [rules] charge_landing_aim = "path": each model along its own path, stepped back until
    # free and coherent: /1 queues behind /2 (3.8" off), /3 ends 5.8" off, and the pile-in
    # (3") brings /1 in but not /3: 8 attacks.  W ~ Binomial(8, 4/9), never 11:
    # E = 8 x 4/9 = 3.555556.
    text = SKORPEKH.format(d=2, runtherd="profile = { T = 5, Sv = 6, W = 2 }").replace(
        'edition = "11th"', 'edition = "11th"\ncharge_landing_aim = "path"')
    st = load_map(write_map(text))
    assert st.rules.charge_landing_aim == "path"
    p = plan_charge(st, "skorpekh-destroyers", ["gretchin"], 1)
    g = p["fight"]["units"]["gretchin"]
    assert g["expected_models_lost"] == pytest.approx(32 / 9, abs=1e-9)


def test_an_unknown_landing_aim_is_refused(write_map, capsys):
    text = SKORPEKH.format(d=2, runtherd="profile = { W = 2 }").replace(
        'edition = "11th"', 'edition = "11th"\ncharge_landing_aim = "nearest"')
    assert main(["charge", write_map(text), "skorpekh-destroyers", "gretchin"]) == 2
    err = capsys.readouterr().err
    assert "charge_landing_aim" in err and "Traceback" not in err


def test_units_without_profiles_get_one_sentence_not_six_lines(write_map, capsys):
    # two 3-model units 6.74" apart with no profiles (an editor formation): the charge is
    # planned, and the fight that follows says in one line which values are missing where
    # (before: six "units[i].profile.X: missing" lines inside the text's parentheses)
    path = write_map("""
        [map]
        name = "no profiles"
        ruleset = "fight-phase"
        width = 30
        depth = 30
        [[players]]
        id = "red"
        active = true
        [[players]]
        id = "blue"
        [[units]]
        id = "a"
        player = "red"
        base = "32mm"
        models = [[10, 10], [11.5, 10], [13, 10]]
        [[units]]
        id = "b"
        player = "blue"
        base = "32mm"
        models = [[10, 18], [11.5, 18], [13, 18]]
        """)
    assert main(["charge", path, "a", "b", "--json"]) == 0
    fight = json.loads(capsys.readouterr().out)["fight"]
    assert fight == {"method": "none",
                     "why": "no profile to fight with: T, Sv, W missing on a, b"}
    assert main(["charge", path, "a", "b"]) == 0
    out = capsys.readouterr().out
    assert "Fight that follows: no odds (no profile to fight with: T, Sv, W missing" in out
    assert "profile.T: missing" not in out


NAMED_MAP = """
    [map]
    name = "profile-less target not first"
    ruleset = "fight-phase"
    width = 40
    depth = 30
    [[players]]
    id = "orks"
    active = true
    [[players]]
    id = "humans"
    [[units]]
    id = "warboss"
    player = "orks"
    base = "32mm"
    profile = { M = 6, T = 5, Sv = 4, W = 6, Ld = 6, OC = 1 }
    weapons = [{ name = "Klaw", A = 4, WS = 2, S = 8, AP = -2, D = 2 }]
    models = [[10, 10]]
    [[units]]
    id = "boyz"
    player = "orks"
    base = "32mm"
    profile = { M = 6, T = 5, Sv = 5, W = 1, Ld = 7, OC = 2 }
    weapons = [{ name = "Choppa", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]
    models = [[35, 25]]
    [[units]]
    id = "unit-2"
    player = "humans"
    base = "25mm"
    models = [[10, 16], [11.5, 16]]
    """


def test_profile_less_target_is_named_by_id_not_by_a_copys_index(write_map, capsys):
    # issue 12 finding 1: the preview fight runs on a copy holding only warboss and unit-2,
    # where unit-2 is units[1]; in the file units[1] is boyz, which has a profile.  The
    # line must name unit-2 (the only unit missing T, Sv, W) and never "units[1]".
    # warboss (32mm, r 0.6299") at (10, 10), unit-2's nearest model (25mm, r 0.4921") at
    # (10, 16): gap 6 - 0.6299 - 0.4921 = 4.878", a charge of 2D6 >= 4 reaches it.
    path = write_map(NAMED_MAP)
    assert main(["charge", path, "warboss", "unit-2", "--json"]) == 0
    fight = json.loads(capsys.readouterr().out)["fight"]
    assert fight == {"method": "none",
                     "why": "no profile to fight with: T, Sv, W missing on unit-2"}
    assert main(["charge", path, "warboss", "unit-2"]) == 0
    out = capsys.readouterr().out
    assert "T, Sv, W missing on unit-2" in out and "units[1]" not in out


def test_window_sampler_names_the_unit_in_one_line(write_map):
    # the window's sampler (FightSampler) used str(error): three "units[1].profile.X:
    # missing" lines joined by newlines, drawn over each other; now the same one line
    from tabletop.rules.charge_fight import FightSampler
    state = load_map(write_map(NAMED_MAP))
    sampler = FightSampler(state, "warboss", ["unit-2"])
    sampler.step()
    assert sampler.summary() == {"method": "none",
                                 "why": "no profile to fight with: T, Sv, W missing on unit-2"}


def test_no_odds_reason_is_wrapped_inside_the_panel():
    # a long reason (and one holding newlines) is drawn as wrapped 14px lines, each inside
    # the chart's inner width (rect 300 wide - 2 * 8 margin = 284 px), one below the other
    from tabletop.render import prims
    from tabletop.render.charge_plan import draw_fight_chart
    pygame.init()
    surface = pygame.Surface((300, 400))
    why = "no profile to fight with: T, Sv, W missing on unit-2\nmore: text " * 3
    seen: list[tuple[str, tuple[int, int]]] = []
    real = prims.text

    def spy(surf, t, size, colour, pos, anchor="topleft"):
        seen.append((t, (size, round(pos[1]))))
        return real(surf, t, size, colour, pos, anchor)
    prims.text = spy
    try:
        draw_fight_chart(surface, pygame.Rect(0, 0, 300, 400), {"method": "none", "why": why},
                         compact=True)
    finally:
        prims.text = real
    assert len(seen) > 1
    assert all("\n" not in t and prims.font(14).size(t)[0] <= 284 for t, _ in seen)
    assert all(size == 14 for _, (size, _) in seen)
    ys = [y for _, (_, y) in seen]
    assert ys == sorted(set(ys))      # each line below the last: nothing overprinted
