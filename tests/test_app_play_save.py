"""``view --play`` saves its run: a run is (map, seed, answers) (issue 9 item 2).

Every answer of a ``--play`` run (the person's, Enter's default, ``d``'s
default policy, single options, the map's own scripted ones) is recorded in
the order the rules asked (``Decisions.history``); ``s`` writes the map as it
was read plus ``[map] seed`` and those answers as ``[[decisions]]`` to a new
file beside the map, and ``tabletop fight`` on that file gives the window's
events.  The window's own ``decision`` events (who answered, ``by:
"window"``) are its note on the run, not part of the phase: the replay has the
map answer instead, so they are left out of the comparison.

Maps (copied into a temporary folder, so the saves land there):
- maps/lessons/pile-in.toml plus two units of my own: marines' ``scouts`` (one
  32mm model at (17, 14), charged) and orks' ``grots`` (one 25mm model at
  (17, 10.6)).  scouts to grots: centres 3.4" apart, edge 3.4 - 0.63 - 0.49 =
  2.28" (not engaged, within 5"); scouts to boyz/3 (14, 10.6): sqrt(3^2 +
  3.4^2) = 4.53 - 1.26 = 3.27".  After scouts piles in it is engaged with both,
  so the questions are: marines' pile-in order (intercessors, scouts), orks'
  (boyz, grots), scouts' attack target (boyz, grots), orks' fight order
  (boyz, grots), and the orks' attack target (intercessors, scouts).
- maps/lessons/gambit-challenge.toml (seed 6): accept, the gambits of both
  players, weapons, prolong.
- maps/lessons/character-challenge.toml (seed 2): red's Captain (spears/2)
  challenges, blue refuses (character-challenge.txt).
"""

from __future__ import annotations

import json
import shutil
import time
import tomllib
from pathlib import Path

import pygame
import pytest

from tabletop.app.app import App
from tabletop.app.interactive import PlaySession
from tabletop.board import mapfile
from tabletop.board.state import Decision
from tabletop.cli import main
from tabletop.errors import TabletopError
from tabletop.rules.decisions import Decisions

BY_MAP, BY_DEFAULT, BY_WINDOW = "map", "default", "window"     # Answer.by

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1400, 900)
PUMP_TIMEOUT = 60.0
PUMP_SLEEP = 0.002
E = pygame.event.Event

EXTRA_UNITS = """
[[units]]
id = "scouts"
player = "marines"
base = "32mm"
profile = { M = 6, T = 4, Sv = 4, W = 2, Ld = 6, OC = 1 }
weapons = [{ name = "Combat knife", A = 3, WS = 3, S = 4, AP = 0, D = 1 }]
charged = true
models = [[17, 14]]

[[units]]
id = "grots"
player = "orks"
base = "25mm"
profile = { M = 5, T = 3, Sv = 7, W = 1, Ld = 8, OC = 2 }
weapons = [{ name = "Close combat weapon", A = 1, WS = 5, S = 2, AP = 0, D = 1 }]
models = [[17, 10.6]]
"""


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(SIZE)
    yield
    pygame.display.quit()


@pytest.fixture
def play_app():
    made = []

    def make(path: Path, seed: int) -> App:
        state = mapfile.load(str(path))
        app = App(state, str(path), SIZE, play=PlaySession(state, seed))
        made.append(app)
        return app

    yield make
    for app in made:
        app.close()


def copy_map(tmp_path: Path, name: str, extra: str = "") -> Path:
    out = tmp_path / "map.toml"
    shutil.copy(ROOT / "maps" / name, out)
    if extra:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(extra)
    return out


def pump(app: App, until) -> None:
    end = time.monotonic() + PUMP_TIMEOUT
    while not until():
        assert time.monotonic() < end, "the resolver never got there"
        app.update(0.016)
        time.sleep(PUMP_SLEEP)


def key(app: App, k: int) -> None:
    app.handle(E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def play(app: App, plan: dict[tuple[str, str, int], object], rest_after: int | None = None) -> list:
    """Answer each question: (player, choice, n-th such question from 1) in ``plan`` with
    that option's number key, any other with Enter; after ``rest_after`` questions press
    ``d``.  Returns the (player, choice, answer) of every question asked."""
    seen: dict[tuple[str, str], int] = {}
    asked = []
    while True:
        pump(app, lambda: app.play.question is not None or app.play.finished)
        q = app.play.question
        if q is None:
            assert app.play.outcome == "resolved", app.messages
            return asked
        n = seen[(q.player, q.choice)] = seen.get((q.player, q.choice), 0) + 1
        want = plan.get((q.player, q.choice, n), q.default)
        k = q.options.index(want)
        asked.append((q.player, q.choice, want))
        if rest_after is not None and len(asked) > rest_after:
            key(app, pygame.K_d)
            asked[-1] = (q.player, q.choice, q.default)
        else:
            key(app, pygame.K_1 + k if want != q.default else pygame.K_RETURN)


def phase_events(events) -> list[dict]:
    """The events as ``fight --json`` prints them, without the window's own ``decision`` notes."""
    return json.loads(json.dumps([e.to_dict() for e in events if e.type != "decision"]))


def fight_json(capsys, path: str, *extra: str) -> dict:
    capsys.readouterr()
    assert main(["fight", path, "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def saved_decisions(path: str) -> list[tuple]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return [(d["player"], d["choice"], d.get("value")) for d in data.get("decisions", [])]


def test_pile_in_lesson_fight_order_and_targets_replay(play_app, tmp_path, capsys):
    path = copy_map(tmp_path, "lessons/pile-in.toml", EXTRA_UNITS)
    app = play_app(path, seed=3)
    asked = play(app, {("marines", "pile_in", 1): "scouts",        # default intercessors
                       ("marines", "attack_target", 1): "grots",   # default boyz
                       ("orks", "fight", 1): "grots",              # default boyz
                       ("orks", "attack_target", 1): "scouts"})    # default intercessors
    assert ("marines", "pile_in", "scouts") in asked and ("orks", "attack_target", "scouts") in asked
    key(app, pygame.K_s)
    saved = str(tmp_path / "map-1.toml")
    assert app.saved == [saved]
    # the answers in the order the rules asked: the first pile-in is scouts (the person's),
    # then scouts' targets (one legal selection after the default search, not asked), ...
    got = saved_decisions(saved)
    assert got[:3] == [("marines", "pile_in", "scouts"),
                       ("marines", "pile_in_targets", ["boyz", "grots"]),
                       ("marines", "pile_in", "intercessors")]
    assert ("marines", "attack_target", "grots") in got and ("orks", "attack_target", "scouts") in got
    assert len(got) == len(app.session.decisions.history)
    with open(saved, "rb") as fh:
        assert tomllib.load(fh)["map"]["seed"] == 3
    # the map as it was read: the units stand where the map put them, not where the phase left them
    assert mapfile.load(saved).units == mapfile.load(str(path)).units
    window = phase_events(app.events)
    replay = fight_json(capsys, saved, "--seed", "3")
    assert replay["events"] == window
    first = next(e for e in window if e["type"] == "pile_in")
    assert first["unit"] == "scouts"                # the non-default answer took effect
    assert fight_json(capsys, saved)["events"] == window     # [map] seed = 3 without --seed


def test_gambit_lesson_gambits_and_prolong_replay(play_app, tmp_path, capsys):
    path = copy_map(tmp_path, "lessons/gambit-challenge.toml")
    app = play_app(path, seed=6)
    # round 1 by Enter (red Finishing Blow, blue Grandstand; red prolongs by default), round 2
    # the person's: red Flurry of Blows, blue Taunt and Bait, and red prolongs again though the
    # default (after this round) is not to
    asked = play(app, {("red", "gambit", 2): "Flurry of Blows",
                       ("blue", "gambit", 2): "Taunt and Bait",
                       ("red", "prolong", 2): True})
    assert [a for a in asked if a[1] == "prolong"][:2] == [("red", "prolong", True)] * 2
    key(app, pygame.K_s)
    saved = str(tmp_path / "map-1.toml")
    got = saved_decisions(saved)
    # pile-in order, challenge and accept, the gambits of round 1 by Enter, as TOML values
    assert got[:6] == [("red", "pile_in", "tac"), ("blue", "pile_in", "breachers"),
                       ("red", "issue_challenge", "tac/4"), ("blue", "accept_challenge", "breachers/4"),
                       ("red", "gambit", "Finishing Blow"), ("blue", "gambit", "Grandstand")]
    assert [v for p, c, v in got if c == "prolong"][:2] == [True, True]   # true, not "True"
    window = phase_events(app.events)
    assert [(e["player"], e["gambit"]) for e in window if e["type"] == "gambit_chosen"][2:4] == [
        ("red", "Flurry of Blows"), ("blue", "Taunt and Bait")]
    assert fight_json(capsys, saved, "--seed", "6")["events"] == window


def test_character_challenge_refusal_replays(play_app, tmp_path, capsys):
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    asked = play(app, {("blue", "accept_challenge", 1): "refuse"})     # default swords/2
    assert asked[:2] == [("red", "issue_challenge", "spears/2"), ("blue", "accept_challenge", "refuse")]
    key(app, pygame.K_s)
    saved = str(tmp_path / "map-1.toml")
    got = saved_decisions(saved)
    assert got[:2] == [("red", "issue_challenge", "spears/2"), ("blue", "accept_challenge", "refuse")]
    window = phase_events(app.events)
    assert any(e["type"].startswith("challenge") and "refus" in json.dumps(e) for e in window)
    assert fight_json(capsys, saved, "--seed", "2")["events"] == window


def test_d_answers_are_recorded_and_replay(play_app, tmp_path, capsys):
    # after the second question `d` answers the rest: those default answers are in the file too
    path = copy_map(tmp_path, "lessons/pile-in.toml", EXTRA_UNITS)
    app = play_app(path, seed=5)
    play(app, {("marines", "pile_in", 1): "scouts"}, rest_after=1)
    by = [a.by for a in app.session.decisions.history]
    assert by[:2] == [BY_WINDOW, BY_DEFAULT] and BY_WINDOW not in by[3:]
    key(app, pygame.K_s)
    saved = str(tmp_path / "map-1.toml")
    assert len(saved_decisions(saved)) == len(by)
    assert fight_json(capsys, saved, "--seed", "5")["events"] == phase_events(app.events)


def test_saving_never_overwrites(play_app, tmp_path):
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    taken = tmp_path / "map-1.toml"
    taken.write_text("# mine, keep me\n", encoding="utf-8")
    app = play_app(path, seed=2)
    play(app, {})
    original = path.read_text(encoding="utf-8")
    key(app, pygame.K_s)
    key(app, pygame.K_s)
    # map-1.toml exists: the next free names are map-2.toml, then map-3.toml
    assert app.saved == [str(tmp_path / "map-2.toml"), str(tmp_path / "map-3.toml")]
    assert taken.read_text(encoding="utf-8") == "# mine, keep me\n"
    assert path.read_text(encoding="utf-8") == original
    head = (tmp_path / "map-2.toml").read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith("# Saved by `tabletop view --play` from map.toml") and "seed = 2" in head
    assert "seed 2" in app.messages[-1] and "map-3.toml" in app.messages[-1]


def test_saving_mid_run_keeps_the_unused_scripted_decisions(play_app, tmp_path):
    # character-refusal.toml scripts issue (red spears/2), refuse (blue), disgrace (red swords/2)
    path = tmp_path / "map.toml"
    shutil.copy(ROOT / "tests" / "scenarios" / "character-refusal.toml", path)
    app = play_app(path, seed=2)
    pump(app, lambda: app.play.finished)
    hist = [(a.player, a.choice, a.value, a.by) for a in app.session.decisions.history]
    assert hist[:3] == [("red", "issue_challenge", "spears/2", BY_MAP),
                        ("blue", "accept_challenge", "refuse", BY_MAP),
                        ("red", "disgrace", "swords/2", BY_MAP)]
    key(app, pygame.K_s)
    assert saved_decisions(app.saved[-1])[:3] == [h[:3] for h in hist[:3]]


def test_replay_lists_answers_then_unused_scripted():
    d = Decisions([Decision("red", "fight", "R2"), Decision("blue", "fight", "B1"),
                   Decision("red", "fight", "R1")])
    assert d.choose("red", "fight", ["R1", "R2"], default="R1") == "R2"          # map, 1st red
    assert d.choose("blue", "fight_type", ["normal", "overrun"], default="normal") == "normal"
    assert d.replay() == [Decision("red", "fight", "R2"), Decision("blue", "fight_type", "normal", "default"),
                          Decision("blue", "fight", "B1"), Decision("red", "fight", "R1")]
    # tuples become lists: the form [[decisions]] takes for a selection of targets
    assert d.choose("red", "pile_in_targets", [("A", "B")], default=("A", "B")) == ("A", "B")
    assert d.replay()[2] == Decision("red", "pile_in_targets", ["A", "B"], "default")


def test_an_overridden_scripted_answer_is_not_asked_at_the_window():
    # the map's "R9" is not an option: overridden (decision_overridden), the default policy
    # answers R1 as `fight` does, and the record keeps "R9" so a replay overrides it again
    d = Decisions([Decision("red", "fight", "R9")])
    found, value, _, _ = d.take_scripted("red", "fight", ["R1", "R2"], default="R1")
    assert (found, value) == (True, "R1")       # answered: the window is never asked
    assert [(a.value, a.by, a.overridden) for a in d.history] == [("R9", BY_MAP, True)]
    assert d.replay() == [Decision("red", "fight", "R9")]


def test_map_seed_loads_saves_and_is_checked(tmp_path, capsys):
    src = (ROOT / "maps" / "lessons/pile-in.toml").read_text(encoding="utf-8")
    good = tmp_path / "good.toml"
    good.write_text(src.replace('ruleset = "fight-phase"', 'ruleset = "fight-phase"\nseed = 41'),
                    encoding="utf-8")
    state = mapfile.load(str(good))
    assert state.seed == 41
    assert mapfile.load(mapfile.save(state, str(tmp_path / "again.toml"))).seed == 41
    assert fight_json(capsys, str(good))["seed"] == 41          # no --seed: the map's
    assert fight_json(capsys, str(good), "--seed", "7")["seed"] == 7
    for bad, words in (("-1", "from 0"), ("true", "integer"), ("1.5", "integer")):
        p = tmp_path / "bad.toml"
        p.write_text(src.replace('ruleset = "fight-phase"', f'ruleset = "fight-phase"\nseed = {bad}'),
                     encoding="utf-8")
        assert main(["check", str(p)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "map.seed" in err[0] and words in err[0], err


def test_decisions_keep_their_order_when_one_has_no_value(tmp_path):
    # a saved run's decision without `value` (None) between two with one stays in its place:
    # scripted answers are taken in order per (player, choice).  (Only a saved run, ``by``,
    # may leave `value` out; a hand-written one must give it: test_decision_needs_a_value)
    state = mapfile.load(str(ROOT / "maps" / "lessons/pile-in.toml"))
    from dataclasses import replace
    state = replace(state, decisions=(Decision("marines", "pile_in", "intercessors"),
                                      Decision("orks", "pile_in", None, by="window"),
                                      Decision("marines", "pile_in", "none")))
    back = mapfile.load(mapfile.save(state, str(tmp_path / "d.toml")))
    assert back.decisions == state.decisions


def test_decision_needs_a_value(tmp_path):
    # audit 9: a hand-written [[decisions]] entry with no `value` passed `check` and was
    # overridden at run time with a puzzling reason; it is a located map error now
    text = (ROOT / "maps" / "lessons" / "pile-in.toml").read_text(encoding="utf-8")
    path = tmp_path / "d.toml"
    path.write_text(text + '\n[[decisions]]\nplayer = "orks"\nchoice = "fight"\n', encoding="utf-8")
    with pytest.raises(TabletopError) as err:
        mapfile.load(str(path))
    n = text.count("[[decisions]]")
    assert f"decisions[{n}].value: missing: give the answer, one of the options of choice 'fight'" \
        in str(err.value)


def test_saved_answers_are_decisions_tables_and_the_comments_stay(tmp_path):
    # audit 9: a --play save wrote the answers as one long inline `decisions = [...]` line;
    # they are [[decisions]] tables, as a person writes them, after the map's own text
    src = ROOT / "maps" / "lessons" / "overrun.toml"
    path = tmp_path / "o.toml"
    path.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    from dataclasses import replace
    state = replace(mapfile.load(str(path)), decisions=(
        Decision("red", "fight", "R1", by="window"), Decision("red", "fight_type", "normal", by="default")))
    out = tmp_path / "saved.toml"
    mapfile.save(state, str(out), source=str(path))
    text = out.read_text(encoding="utf-8")
    assert "decisions = [" not in text and text.count("[[decisions]]") == 2
    assert text.startswith("# Hand-built lesson")                      # the comments kept
    assert mapfile.load(str(out)).decisions == state.decisions



def test_a_saved_run_leaves_the_lesson_steps_out(tmp_path):
    # re-audit 9: a run saved from a lesson map kept its [[lesson]] steps, which name the
    # steps of the map's own run; another run's answers made the saved map fail `check`
    from tabletop.app.interactive import PlaySession
    state = mapfile.load(str(ROOT / "maps" / "lessons" / "overrun.toml"))
    assert state.lesson
    run = PlaySession(state, seed=9)
    saved = run.replay_state()
    assert saved.lesson == () and saved.seed == 9
    assert "[[lesson]] steps left out" in run.replay_header("x.toml")
