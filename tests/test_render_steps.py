"""Teaching frames: draw_step's generic keys draw at the expected pixels; save_frames."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest
from loose_events import any_event as make_event

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.render.step_draw import with_keys
from tabletop.render.steps import (
    describe_event,
    draw_step,
    drawer_keys,
    focus_box,
    save_frames,
    slug,
)
from tabletop.render.theme import DEFAULT_THEME
from tabletop.render.view import View
from tabletop.rules.events import EventLog, Step

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
SCALE = 22.0


@pytest.fixture(scope="module")
def state():
    return mapfile.load(str(SCENARIOS / "render-pixels.toml"))


def draw(step, **kw):
    st = step.state
    view = View(SCALE, 40, 40 + st.table.depth * SCALE)
    surface = pygame.Surface((int(st.table.width * SCALE) + 80, int(st.table.depth * SCALE) + 80))
    draw_step(surface, step, view, caption=False, **kw)
    return surface, view


def px(surface, view, x, y):
    c = surface.get_at(view.to_screen_int(x, y))
    return (c.r, c.g, c.b)


def step_of(state, **draw):
    return with_keys(Step("t", "fight-phase.txt 12.03", state, range(0)), draw)


def test_no_draw_keys_leaves_the_cloth(state):
    s, v = draw(step_of(state))
    assert px(s, v, 6.5, 10.3) == DEFAULT_THEME.cloth


def test_arrow_drawn_along_the_path(state):
    # a/1 piles in from (6.5, 8.5) straight up 3" to (6.5, 11.5); the shaft passes (6.5, 10.3)
    # (the length label sits beside the shaft, not on it)
    s, v = draw(step_of(state, arrows={"a/1": [[6.5, 8.5], [6.5, 11.5]]}))
    assert px(s, v, 6.5, 10.3) == DEFAULT_THEME.arrow
    # beside the path, 0.8" left (off the 6" grid line), still cloth
    assert px(s, v, 5.7, 10.3) == DEFAULT_THEME.cloth


def ring_hits(surface, view, centre, radius_in, colour, tol=40, n=180):
    cx, cy = view.to_screen(*centre)
    r = view.length(radius_in)
    hits = 0
    for k in range(n):
        a = 2 * math.pi * k / n
        c = surface.get_at((round(cx + r * math.cos(a)), round(cy + r * math.sin(a))))
        hits += all(abs(p - q) <= tol for p, q in zip((c.r, c.g, c.b), colour))
    return hits


def test_reach_is_the_base_edge_grown_by_the_distance(state):
    # b/1 (32mm, radius 0.63") reaching 3": the dashed outline at 3.63" from (12.5, 8.5),
    # dashes 9 on / 6 off -> about 60% of the circle inked
    s, v = draw(step_of(state, reach={"b/1": [12.5, 8.5, 3.0]}))
    colour = DEFAULT_THEME.reach
    assert ring_hits(s, v, (12.5, 8.5), 3.63, colour) > 70
    # not at 3" (the reach of the centre) and not at 4"
    assert ring_hits(s, v, (12.5, 8.5), 3.0, colour) < 10
    assert ring_hits(s, v, (12.5, 8.5), 4.0, colour) < 10


def test_casualty_cross_at_the_removed_model(state):
    # a 32mm model removed at (9.5, 4.5): the red cross is centred there
    s, v = draw(step_of(state, casualties=[[9.5, 4.5, "32mm"]]))
    assert px(s, v, 9.5, 4.5) == DEFAULT_THEME.casualty
    s0, _ = draw(step_of(state))
    assert px(s0, v, 9.5, 4.5) == DEFAULT_THEME.cloth


def test_ghost_is_a_faint_base_at_the_start(state):
    # a/1 started at (9.5, 4.5): a faint red base there (between cloth and the player's red)
    s, v = draw(step_of(state, ghosts={"a/1": [9.5, 4.5, 90]}))
    r, g, b = px(s, v, 9.3, 4.4)
    cloth = DEFAULT_THEME.cloth
    assert (r, g, b) != cloth and 176 < r <= cloth[0] + 5 and 58 < g < cloth[1]


def test_lines_highlight_and_selected_unit(state):
    step = step_of(state, lines=[[[8.5, 4.5], [10.5, 4.5], "green"]], highlight={"b/1": "amber"},
                   selected_unit="a")
    s, v = draw(step)
    assert px(s, v, 9.5, 4.5) == DEFAULT_THEME.colour("green")
    # the amber ring is centred 3 px outside b/1's 0.63" edge
    assert ring_hits(s, v, (12.5, 8.5), 0.63 + 3 / SCALE, DEFAULT_THEME.colour("amber"), 30) > 120
    # a's unit outline is thick yellow: 0.15" outside the base edge
    assert ring_hits(s, v, (6.5, 8.5), 0.78, DEFAULT_THEME.selected, 60) > 90


def test_a_drawer_in_the_table_runs_and_unknown_keys_are_skipped(state, monkeypatch):
    from tabletop.render import steps as S
    seen = []
    monkeypatch.setitem(S.DRAWERS, "test-key", (lambda c, value: seen.append((value, c.step.title)),
                                                "over"))
    _s, _v = draw(step_of(state, **{"test-key": 7, "no-such-key": 1}))
    assert seen == [(7, "t")]
    # the one table: the generic keys, the rank-and-flank ones and the challenge ones
    from tabletop.render import challenges, rank_and_flank
    assert {"arrows", "reach", "lines", "highlight", "selected_unit", "casualties",
            "ghosts"} <= set(drawer_keys())
    assert set(rank_and_flank.DRAWERS) | set(challenges.DRAWERS) <= set(drawer_keys())
    assert all(layer in S.LAYERS for _fn, layer in S.DRAWERS.values())


def test_describe_roll_event():
    ev = make_event("roll", "fight-phase.txt 12.05", {"purpose": "hit", "dice": [4], "modifiers": [],
                                                 "target": 3, "result": True})
    # the caption reads the shared wording (tabletop.rules.describe)
    assert describe_event(ev) == "Hit: rolled 4 needing 3+ -> yes."


def test_save_frames_names_and_sizes(tmp_path, state):
    log = EventLog()
    log.emit("selected_to_fight", "fight-phase.txt 12.02", unit="d", player="red", fight="normal",
             step="remaining", fights_first=False)
    with_keys(log.step("Red selects d to fight", "fight-phase.txt 12.02", state), {"selected_unit": "d"})
    log.emit("roll", "fight-phase.txt 12.05", purpose="hit", dice=[5], modifiers=[], target=3,
             result=True, player="red")
    after = state.without_models(["e/1"])
    with_keys(log.step("e/1 is removed", "fight-phase.txt 12.06", after),
              {"casualties": [[16.26, 12.5, "32mm"]]})
    paths = save_frames(log.steps, str(tmp_path / "frames"), log, size=(800, 600))
    names = [Path(p).name for p in paths]
    assert names == ["001-red-selects-d-to-fight.png", "002-e-1-is-removed.png"]
    for p in paths:
        assert pygame.image.load(p).get_size() == (800, 600)


def test_focus_box_round_the_action(state):
    step = step_of(state, casualties=[[16.26, 12.5, "32mm"]], selected_unit="d")
    # d/1 at (15, 12.5) and the casualty at 16.26: grown by 6" and clipped to the 24 x 16 table
    assert focus_box([step]) == pytest.approx((9.0, 6.5, 22.26, 16.0))
    assert focus_box([step_of(state)]) is None


def test_slug():
    assert slug("Pile-in: int (12.03)") == "pile-in-int-12-03"
    assert slug("!!!") == "step"


def test_geo_passed_in_is_used(state):
    geo = snapshot(state)
    s, v = draw(step_of(state), geo=geo)
    assert px(s, v, 6.5, 8.5) == (176, 58, 46)


def _save(result, model="b/1", die=1):
    return make_event("roll", "fight-phase.txt 12.05", {"purpose": f"armour save: {model}", "dice": [die],
                                                   "modifiers": {}, "target": 5, "result": result,
                                                   "player": "blue"})


def test_caption_sentences_group_a_run_of_saves():
    from tabletop.render.steps import caption_sentences
    evs = [_save("failed", "b/1", 1), make_event("wounded", "", {"model": "b/1", "damage": 1}),
           _save("saved", "b/2", 6), _save("failed", "b/2", 2)]
    # three single-die saves of one kind, player and target read as one sentence where the
    # first was; the wound stays (4 sentences or fewer: nothing is dropped)
    assert caption_sentences(evs) == [
        "Armour saves (blue): rolled 1 6 2 needing 5+ -> 2 failed, 1 saved.",
        "b/1 takes 1 damage."]


def test_caption_drops_wounds_and_casualties_first_and_counts_them():
    from tabletop.render.steps import CAPTION_EVENTS, caption_sentences
    assert CAPTION_EVENTS == 7
    sel = make_event("selected_to_fight", "", {"unit": "a", "player": "red", "fight": "normal"})
    att = make_event("attacks_resolved", "", {"unit": "a", "target": "b", "weapon": "Choppa", "attacks": 6,
                                          "hits": 3, "wounds": 3, "unsaved": 3,
                                          "removed": ["b/1", "b/2", "b/3"]})
    evs = [sel]
    for k in (1, 2, 3):
        evs += [make_event("wounded", "", {"model": f"b/{k}", "damage": 1}),
                make_event("removed", "", {"model": f"b/{k}", "by": "a"})]
    evs.append(att)
    # 8 sentences > 7: keep 6 - the two main ones and the latest four details
    # (b/3's pair, b/2's pair), drop b/1's wound and removal and say so
    out = caption_sentences(evs)
    assert out == ["red selects a to fight: a normal fight.",
                   "b/2 takes 1 damage.", "b/2 is removed as a casualty (attacked by a).",
                   "b/3 takes 1 damage.", "b/3 is removed as a casualty (attacked by a).",
                   "a attacks b with Choppa: 6 attacks, 3 hits, 3 wounds, 3 unsaved; 3 models "
                   "removed (b/1, b/2 and b/3).",
                   "Not shown here (see the log): 1 wound, 1 casualty."]
