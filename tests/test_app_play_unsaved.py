"""``view --play``: answers given and not saved are autosaved and ``q`` / ``Esc`` ask first.

Issue 9 audit, finding 2: ``q`` or ``Esc`` with answers given closed the window at once and
no file kept them.  Now the run is written to ``<map>.play-autosave.toml`` after each answer
the person gives (``app.play.PLAY_AUTOSAVE_SUFFIX``), and quitting asks y/n first
(``app.unsaved``) until ``s`` saves the run.  Driven with posted key events.
"""

from __future__ import annotations

import pygame
from test_app_play_save import copy_map, display, key, play, play_app, pump, saved_decisions  # noqa: F401

from tabletop.app.play import play_autosave_path


def _first_answer(app) -> tuple:
    pump(app, lambda: app.play.question is not None)
    q = app.play.question
    key(app, pygame.K_RETURN)                       # the person answers: the default
    pump(app, lambda: app.play.question not in (None, q) or app.play.finished)   # the next one
    return (q.player, q.choice, q.default)


def test_q_and_esc_ask_first_and_the_answers_are_in_the_autosave(play_app, tmp_path):  # noqa: F811 (the fixture)
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    auto = tmp_path / "map.play-autosave.toml"
    assert play_autosave_path(str(path)) == str(auto)
    player, choice, value = _first_answer(app)
    # one answer of the person's: written at once, before any quit
    assert saved_decisions(str(auto))[0] == (player, choice, value)
    key(app, pygame.K_q)
    assert app.running and app.messages[-1].startswith("quit with 1 answer not saved? y: quit; "
                                                       "they stay in map.play-autosave.toml")
    key(app, pygame.K_n)                            # keep playing
    assert app.running
    key(app, pygame.K_ESCAPE)                       # Esc with a question open asks too
    assert app.running and app.messages[-1].startswith("quit with 1 answer not saved?")
    key(app, pygame.K_y)
    assert not app.running
    assert saved_decisions(str(auto))[0] == (player, choice, value)   # kept after the quit


def test_a_saved_run_quits_at_once_and_drops_the_autosave(play_app, tmp_path):  # noqa: F811 (the fixture)
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    play(app, {})                                   # every question answered at the window
    auto = tmp_path / "map.play-autosave.toml"
    n = len(app.session.decisions.history)
    assert len(saved_decisions(str(auto))) == n     # the end of the phase: every answer
    key(app, pygame.K_s)
    assert not auto.exists()
    key(app, pygame.K_q)
    assert not app.running


def test_an_autosave_that_cannot_be_written_is_never_promised(play_app, tmp_path, monkeypatch):  # noqa: F811 (the fixture)
    # issue 11 item 7 (read-only folder): the play autosave's write fails (EROFS, as in a
    # read-only folder; monkeypatched since the tests may run as root); q must not say
    # the answers stay in it
    import errno

    from tabletop.app import play as play_mod

    def refuse(path, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", path)
    monkeypatch.setattr(play_mod, "write_atomic", refuse)
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    _first_answer(app)
    assert not (tmp_path / "map.play-autosave.toml").exists()
    key(app, pygame.K_q)
    said = app.messages[-1]
    assert app.running and "stay in" not in said
    assert said.startswith("quit with 1 answer not saved? y: quit; no file holds them (the "
                           "autosave cannot be written): they will be lost")
    key(app, pygame.K_n)


def test_the_play_autosave_is_rewritten_as_s_writes_the_run(play_app, tmp_path):  # noqa: F811 (the fixture)
    # issue 11 leftover: the play autosave was tomli-w's (one inline decisions = [...] array,
    # no comments) while s writes the map's own text with [[decisions]] tables.  It is still
    # written so at once (a few ms in the frame), then, once the window has been idle
    # IDLE_FRAMES frames, rewritten by another process (app.autosave_keep) as s writes it
    from tabletop.app.autosave_keep import IDLE_FRAMES

    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    auto = tmp_path / "map.play-autosave.toml"
    _first_answer(app)                              # red's challenge: spears/2, at the window
    assert "decisions = [" in auto.read_text(encoding="utf-8")     # the fast copy
    kept = app.play.kept
    assert kept.state == "fast"
    for _ in range(IDLE_FRAMES):                    # the next question waits: idle frames
        app.update(0.016)
    assert kept.state == "working" and kept.proc is not None
    kept.proc.wait(timeout=120)
    app.update(0.016)                               # the frame that takes its result
    assert kept.state == "kept"
    text = auto.read_text(encoding="utf-8")
    key(app, pygame.K_s)                            # s: the run to a new file beside the map
    assert not auto.exists()
    saved = [p for p in tmp_path.iterdir() if p.name not in ("map.toml",)]
    assert len(saved) == 1, saved
    # the same text but for the file the header's replay line names
    assert text == saved[0].read_text(encoding="utf-8").replace(saved[0].name, auto.name)
    assert "# Lesson: a character challenge inside a rank-and-flank combat" in text
    assert "\n[[decisions]]\n" in text and "decisions = [" not in text
    assert text.startswith("# Saved by `tabletop view --play` from map.toml")


def _click(app, button) -> None:
    pos = button.rect.center
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.update(0.016)


def test_the_quit_question_takes_the_question_panels_place(play_app, tmp_path):  # noqa: F811 (the fixture)
    # issue 9 leftover: q with answers unsaved asked only in the small message box while the
    # big question panel stayed over the board (its buttons live).  Now the quit question is
    # shown in the panel's place, y and n buttons, the question panel hidden until answered
    path = copy_map(tmp_path, "lessons/character-challenge.toml")
    app = play_app(path, seed=2)
    _first_answer(app)                              # red challenged; blue's question is open
    q = app.play.question
    assert q is not None and app.play.ask.panel is not None
    key(app, pygame.K_q)
    quit_panel = app.play.quit_panel
    assert quit_panel is not None and app.play.ask.panel is None    # the question panel hidden
    assert quit_panel.lines[0] == "quit with 1 answer not saved?"
    assert quit_panel.lines[1].startswith("y: quit; they stay in map.play-autosave.toml")
    assert [b.text for b in quit_panel.buttons] == ["y: quit", "n: keep playing"]
    assert quit_panel.rest_button is None
    # where the question panel was: over the board
    assert app.board_rect.contains(quit_panel.rect)
    key(app, pygame.K_2)                            # an option's key is not an answer now
    assert app.play.question is q and app.running
    _click(app, quit_panel.buttons[1])              # n: keep playing
    assert app.running and app.play.quit_panel is None
    assert app.play.question is q and app.play.ask.panel is not None      # back, same question
    assert app.messages[-1] == "quit cancelled: the board is kept"
    key(app, pygame.K_ESCAPE)                       # asked again; Esc says no
    assert app.play.quit_panel is not None
    key(app, pygame.K_ESCAPE)
    app.update(0.016)                               # the next frame brings the question back
    assert app.play.quit_panel is None and app.play.ask.panel is not None and app.running
    key(app, pygame.K_q)
    _click(app, app.play.quit_panel.buttons[0])     # y: quit
    assert not app.running
