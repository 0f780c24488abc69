"""``view --fight --play``: the window side of a ``PlaySession``.

``PlayController(app, session)`` starts the session and, from the window's
loop (``App.update``), lets it work a little each frame (no thread) and takes
what it produced: events and steps are
appended to the app's step-through as they come (the view follows the newest
step while the person is at the last one, letting a pile-in or consolidation
slide along its paths first - ``App.motion`` - then catching up; ``p`` steps
back, ``n`` forward),
and a question opens the question panel (``ask_panel.AskPanel``) and rings
the options that are units or models on the board, numbered like their
buttons.  The panel docks clear of those rings (``ask_panel.AskPanel.dock``);
when no place over the board is clear the view pans so they are (``_pan_clear``).
Each option's number (its badge) is placed by the lesson labels' placer
(``render.label_place``) beside its unit, clear of every model, ring and the
panel, and a click on it answers that option (``click_badge``).  The person answers with a button, a number key, a click on a
ringed model, Enter (the default) or ``d`` (the default for the rest).
Closing the window stops the session (``close``).  ``s`` (``save``) writes the
run so far - the map as read, the seed and every answer - to a new map file
that ``tabletop fight`` replays; until then the person's answers are kept in
an autosave (``PLAY_AUTOSAVE_SUFFIX``) and ``q`` / ``Esc`` ask first
(``quit_question``, held by ``app.unsaved``).

A frame does at most one heavy thing, chosen by counting, never by a clock
(issue 9: no frame over 100 ms on the 60x44 layout):

- A frame shows at most one new step or question (``_take``), the rest of the
  session's news held for the next frame.
- ``HOLD_AFTER_SOLVE = True`` (named default): when the session's poll ran a
  solver step (its work reached ``interactive.SOLVER_STEP_WORK``) and brought a
  new step, a question or the end, the window takes that news at the next
  frame, with no engine work in it: showing a step redraws the whole board and
  opening a question builds its panel, each about as long as a solver step.
- ``REST_FRAMES = 2`` (named default): the session rests in a frame where the
  window has heavy work of its own - a new step to draw on the board (a step
  shown, or the view catching up after a slide), or panel text boxes waiting
  to be laid out again (``Panel.stale``: one a frame, tens of milliseconds for
  a long one) - but never more than this many frames in a row, so the engine
  still works at least every third frame.  The panel's texts for news are set
  at the frame after the news is shown (``_take``), and no text box is laid
  out in a frame that draws a new step (``panel_boxes``), so the board's redraw
  and a box's rebuild fall in different frames.

Neither changes what the phase does, only at which frame the window shows it:
the same map, seed and answers give the same frames.
"""

from __future__ import annotations

import math
import os
from typing import Any

import pygame

from tabletop.app import question_text
from tabletop.app.ask_panel import AskPanel
from tabletop.app.autosave_keep import KeptAutosave
from tabletop.app.board_theme import board_theme
from tabletop.app.interactive import SOLVER_STEP_WORK, PlaySession, Question
from tabletop.app.plates import PlateCache
from tabletop.board import mapfile
from tabletop.board.writes import write_atomic
from tabletop.errors import TabletopError
from tabletop.geometry import Geometry
from tabletop.render.label_place import LabelPlacer, around
from tabletop.render.theme import font as theme_font
from tabletop.rules.decisions import BY_WINDOW
from tabletop.rules.describe import describers

# ring colours, apart from render's (amber engaged, yellow selected, magenta overlap, red coherency)
OPTION_COLOUR = (40, 200, 255)      # rings round the models an option names
DEFAULT_COLOUR = (70, 240, 110)     # ... and round the default option's models
ASKER_COLOUR = (245, 245, 245)      # the unit or model the question is about
HALO_COLOUR = (20, 22, 26)          # a dark edge so the rings read on the light cloth
RING_WIDTH_PX = 3
RING_PAD_PX = 4                     # the ring's gap outside the base, pixels
BADGE_FONT_PX = 22                  # an option's number on the board (the window's label size)
BADGE_GAP_PX = 2                    # pixels between a badge and the ring it numbers
NUMBER_KEYS = {getattr(pygame, f"K_{k}"): k - 1 for k in range(1, 10)}
NUMBER_KEYS.update({getattr(pygame, f"K_KP{k}"): k - 1 for k in range(1, 10)})
HOLD_AFTER_SOLVE = True             # a solving frame's new step or question: shown next frame
REST_FRAMES = 2                     # frames in a row at most the session rests for the window
PLAY_AUTOSAVE_SUFFIX = ".play-autosave.toml"
"""Named default (issue 9, audit finding 2): the run's answers given at the window and not
saved with ``s`` are kept in ``maps/x.play-autosave.toml`` beside ``maps/x.toml``, written
after each answer the person gives and when the phase ends (not the board's
``.autosave.toml``: a run is replayed with ``tabletop fight``, not loaded onto the board), so
a crash or a quit loses nothing; ``q`` / ``Esc`` ask first while such answers are unsaved."""


def play_autosave_path(map_path: str) -> str:
    """``maps/x.toml`` -> ``maps/x.play-autosave.toml``."""
    return os.path.splitext(map_path)[0] + PLAY_AUTOSAVE_SUFFIX


class PlayController:
    """Runs ``session`` for ``app`` (an ``App`` in play mode).

    ``question`` is the open ``Question`` (None while the rules work), ``ask``
    its panel, ``finished`` whether the session has ended (done, stopped or
    failed).
    """

    def __init__(self, app: Any, session: PlaySession):
        self.app = app
        self.session = session
        #: the option numbers drawn on the board at the last frame: (rectangle in board
        #: pixels, option index); a click on one answers (``click_badge``)
        self.badges: list[tuple[pygame.Rect, int]] = []
        self._badge_key: Any = None     # what the badges' places were worked out for
        self._plates = PlateCache()     # the name plates the badges keep clear of
        self._badge_model: dict[int, str] = {}      # option -> the model its badge numbers
        self.question: Question | None = None
        self.ask: AskPanel | None = None
        #: the quit question asked over the board (``ask_quit``) while ``app.unsaved`` holds
        #: it; the question panel (``ask``) is hidden meanwhile, its buttons out of reach
        self.quit_panel: AskPanel | None = None
        self.finished = False
        self.outcome = "resolving"
        self._held: list[tuple[str, Any]] | None = None   # news taken at the next frame
        self._rested = 0                # frames in a row the session rested for the window
        self._refresh_due = False       # the panel's texts are set at the next frame
        self._drawn_step: Any = self._shown_step()   # the step the board last showed
        self.redraws_board = False      # this frame draws a new step on the board
        self._saved_len = 0             # answers in the run when it was last saved with ``s``
        self._autosaved = 0             # the person's answers the autosave holds
        self._autosaved_len = 0         # ... and all the answers it holds
        self._autosave_failed = False   # the last write of the play autosave failed
        self.kept = KeptAutosave()      # the autosave rewritten in the map's words, when idle
        path = getattr(app, "path", None)
        self.autosave = play_autosave_path(path) if path else None
        describers()    # the event wording (and the rulesets it imports) read now, not mid-frame
        session.start()
        app.message(f"playing the combat phase ({session.state.ruleset}), seed {session.seed}: "
                    f"answer each question in the panel over the board")

    # ------------------------------------------------------------ the session's messages
    def poll(self) -> None:
        """Let the session work a little and take what it made (call once per frame).

        Takes the news held from the last frame instead, when there is some
        (``HOLD_AFTER_SOLVE``), or rests while the window has heavy work of its own
        (``REST_FRAMES``); see the module docstring."""
        if self.quit_panel is not None and getattr(self.app, "unsaved", None) is not None \
                and self.app.unsaved.pending is None:
            self._end_quit()            # answered (y, n, Esc or a button): the question is back
        if self._refresh_due:
            self._refresh_due = False
            self._refresh()
        if self._held is not None:
            news, self._held = self._held, None
            self._rested += 1
        elif self._window_busy() and self._rested < REST_FRAMES:
            self._rested += 1
            news = []
        else:
            self._rested = 0
            news = self.session.poll()
            if HOLD_AFTER_SOLVE and self.session.work >= SOLVER_STEP_WORK \
                    and any(kind != "event" for kind, _ in news):
                self._held, news = news, []
        self._take(news)
        self.kept.tick(self.autosave, getattr(self.app, "path", None))
        if self.unsaved_answers() > self._autosaved or (
                self.finished and self._autosaved and self._autosaved_len < len(
                    self.session.decisions.history)):
            self._write_autosave()      # a new answer of the person's, or the phase's end
        shown = self._shown_step()
        self.redraws_board = shown is not self._drawn_step
        self._drawn_step = shown

    def panel_boxes(self, limit: int) -> int:
        """How many changed panel text boxes the window lays out this frame (``App.update``):
        none when the board draws a new step in it (the two are each tens of
        milliseconds on the 60x44 layout), else ``limit``."""
        return 0 if self.redraws_board else limit

    def _window_busy(self) -> bool:
        """Whether this frame draws a new step on the board or lays out a panel text box."""
        app = self.app
        panel = getattr(app, "panel", None)
        return self._shown_step() is not self._drawn_step or bool(getattr(panel, "stale", None))

    def _shown_step(self) -> Any:
        """The step the board shows (None before the first)."""
        app = self.app
        return app.steps[app.step_index] if 0 <= app.step_index < len(app.steps) else None

    def _take(self, news: list[tuple[str, Any]]) -> None:
        """Show the session's messages: events and steps to the step-through, a question
        in its panel, the end - up to the first step, question or end, the rest held
        for the next frame (each is a redraw of the board or a panel to build)."""
        app = self.app
        changed = False
        for k, (kind, item) in enumerate(news):
            if changed:                     # one step or question a frame: the rest next frame
                self._held = list(news[k:]) + (self._held or [])
                break
            if kind == "event":
                app.events.append(item)
            elif kind == "step":
                follow = app.step_index >= len(app.steps) - 1
                app.steps.append(item)
                if follow and app.animating:
                    app.catch_up = True     # shown once the move sliding now has ended
                elif follow:
                    app.step_index = len(app.steps) - 1
                    app.ruler = None
                    app.sync_motion()       # its moves (if any) slide before the next step
                changed = True
            elif kind == "question":
                self._open(item)
                changed = True
            else:
                self._end(kind, item)
                changed = True
        if changed:
            self._refresh_due = True

    def _refresh(self) -> None:
        app = self.app
        sel = app.selected
        if sel is not None and sel not in app.shown_geo.ids:
            app.selected = None
        app.refresh()

    def _end(self, kind: str, item: Any) -> None:
        self._close_panel()
        self.finished = True
        if kind == "done":
            self.outcome = "resolved"
            self.app.message(f"phase resolved: {len(self.app.steps)} steps (seed {self.session.seed}); "
                             f"n / p step through")
        elif kind == "stopped":
            self.outcome = "stopped"
        else:
            self.outcome = "failed"
            self.app.message("\n".join(item))

    def _open(self, q: Question) -> None:
        self.question = q
        state = self.app.shown_state
        labels = [question_text.option_label(o, state, q.choice) for o in q.options]
        lines = [question_text.question_line(q), *question_text.context_lines(q),
                 "keys 1-9, Enter: the default, d: the default for the rest; or click a ringed model"]
        self.ask = AskPanel(self.app.manager, self.app.board_rect, lines, labels, q.default_index,
                            self.answer, self.answer_rest, at_top=self._models_low(q),
                            avoid=self.named_rings(q))
        if self.ask.covers and self._pan_clear(q):
            self.ask.layout(self.app.board_rect, avoid=self.named_rings(q))
        if self.quit_panel is not None:     # the quit question stays the one on screen
            self.ask.kill()

    def named_rings(self, q: Question) -> list[pygame.Rect]:
        """The rings (window pixels, halo included) round the models ``q``'s options and
        asker name, those on the board: what the question panel must leave in sight."""
        geo = self.app.shown_geo
        ids = [m for ms in question_text.option_models(q, geo).values() for m in ms]
        ids += question_text.asker_models(q, geo)
        board = self.app.board_rect
        out = []
        for mid in dict.fromkeys(ids):
            r = _ring_rect(geo, mid, self.app.view).move(board.topleft)
            if r.colliderect(board):
                out.append(r)
        return out

    def _pan_clear(self, q: Question) -> bool:
        """The panel covers a named model wherever it docks: pan the view (up or down) so
        that every named ring stands clear of the panel's edge of the board, when they fit
        in the rest of it.  True when the view moved."""
        rings = self.named_rings(q)
        if not rings or self.ask is None:
            return False
        board, panel = self.app.board_rect, self.ask.rect
        span = rings[0].unionall(rings[1:])
        if panel.centery < board.centery:         # the panel on top: the models go under it
            dy = panel.bottom + RING_PAD_PX - span.top
            fits = span.bottom + dy <= board.bottom
        else:                                     # at the bottom: the models go over it
            dy = panel.top - RING_PAD_PX - span.bottom
            fits = span.top + dy >= board.top
        if dy == 0 or not fits:
            return False
        self.app.view.pan(0, dy)
        return True

    def _models_low(self, q: Question) -> bool:
        """Whether the models the question names (else every model) sit mostly in the lower
        half of the board on screen: the panel then goes over the top."""
        geo = self.app.shown_geo
        ids = [m for ms in question_text.option_models(q, geo).values() for m in ms]
        ids += question_text.asker_models(q, geo)
        ids = ids or list(geo.ids)
        if not ids:
            return False
        ys = [self.app.view.to_screen(geo.model(m).x, geo.model(m).y)[1] for m in ids]
        return sum(ys) / len(ys) > self.app.board_rect.centery

    def _close_panel(self) -> None:
        if self.ask is not None:
            self.ask.kill()
        self.ask = None
        self.question = None

    # ------------------------------------------------------------ the quit question
    def ask_quit(self, question: str) -> None:
        """``q`` / ``Esc`` / the close button with answers unsaved (``App.quit``: ``app.unsaved``
        holds ``question`` and its y/n keys): show it over the board in the question
        panel's place, with a ``y`` and an ``n`` button, the question panel hidden (its
        option buttons out of reach) until it is answered (``poll`` brings it back)."""
        if self.quit_panel is not None:
            self.quit_panel.kill()
        if self.ask is not None:
            self.ask.kill()
        head, _, rest = question.partition("? ")
        lines = [head + "?", *([rest] if rest else [])]     # its y / n keys said in it
        self.quit_panel = AskPanel(self.app.manager, self.app.board_rect, lines,
                                   ["quit", "keep playing"], -1, self._quit_button,
                                   lambda: None, at_top=self.ask is not None and self.ask.at_top,
                                   keys=["y", "n"], rest=False)

    def _quit_button(self, index: int) -> None:
        """A button of the quit question: as its key (``y`` quits, ``n`` keeps playing)."""
        _taken, said = self.app.unsaved.answer("y" if index == 0 else "n")
        if said:
            self.app.message(said)
        if self.app.unsaved.pending is None:
            self._end_quit()

    def _end_quit(self) -> None:
        """The quit question is answered: its panel goes, the question panel comes back."""
        if self.quit_panel is not None:
            self.quit_panel.kill()
        self.quit_panel = None
        if self.ask is not None and self.question is not None:
            self.ask.layout(self.app.board_rect, avoid=self.named_rings(self.question))

    # ------------------------------------------------------------ answering
    def answer(self, index: int) -> None:
        """Answer the open question with option ``index`` (ignored when out of range)."""
        q = self.question
        if q is None or not 0 <= index < len(q.options):
            return
        self._close_panel()
        q.reply_option(index)
        label = question_text.option_label(q.options[index], self.app.shown_state, q.choice)
        self.app.message(f"{q.player}: {q.choice} = {label}")

    def answer_rest(self) -> None:
        """Answer with the default, and let the default policy answer every later question."""
        q = self.question
        if q is None:
            return
        self._close_panel()
        q.reply_default(for_rest=True)
        label = question_text.option_label(q.options[q.default_index], self.app.shown_state,
                                            q.choice)
        self.app.message(f"{q.player}: {q.choice} = {label}; the defaults answer the rest")

    def key(self, event) -> bool:
        """A key for the question (1-9, Enter, d); True when it was one."""
        q = self.question
        if q is None:
            return False
        k = event.key
        if k in NUMBER_KEYS:
            self.answer(NUMBER_KEYS[k])
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.answer(q.default_index)
        elif k == pygame.K_d:
            self.answer_rest()
        else:
            return False
        return True

    def click_badge(self, pos: tuple[int, int]) -> bool:
        """A click (window pixels) on an option's number drawn on the board answers with that
        option, before the model under it is looked at: the number may sit over a model that
        is no option (issue 9 audit: a badge over another unit's model). True when it did."""
        if self.question is None or self.quit_panel is not None:
            return False
        bx, by = self.app.board_rect.topleft
        for rect, k in self.badges:
            if rect.collidepoint(pos[0] - bx, pos[1] - by):
                self.answer(k)
                return True
        return False

    def click(self, model_id: str) -> bool:
        """A click on a model: answers with the option that rings it; True when it did."""
        q = self.question
        if q is None or self.quit_panel is not None:   # the quit question is answered first
            return False
        for k, ids in question_text.option_models(q, self.app.shown_geo).items():
            if model_id in ids:
                self.answer(k)
                return True
        return False

    # ------------------------------------------------------------ saving the run
    def save(self, target: str) -> str | None:
        """Write the run so far to ``target`` (a new file: ``mapfile.save`` refuses to
        overwrite) as the map as read, its seed and the answers
        (``PlaySession.replay_state``); returns ``target``, or None after saying why not."""
        s = self.session
        try:
            mapfile.save(s.replay_state(), target, header=s.replay_header(target))
        except OSError as exc:              # FileExistsError included
            self.app.message(f"{target}: cannot write: {exc}")
            return None
        n = len(s.decisions.history)
        self._saved_len, self._autosaved = n, 0
        self.kept.discarded()
        if self.autosave and os.path.isfile(self.autosave) and not os.path.islink(self.autosave):
            os.remove(self.autosave)        # saved: the autosave holds nothing more
        what = "the run" if s.resolution is not None else "the run so far"
        self.app.message(f"saved {what} ({n} answer{'s' if n != 1 else ''}, seed {s.seed}) to "
                         f"{os.path.basename(target)}: `tabletop fight {target}` replays it")
        return target

    # ------------------------------------------------------------ unsaved answers
    def unsaved_answers(self) -> int:
        """How many answers the person gave at the window since the run was last saved."""
        return sum(a.by == BY_WINDOW for a in self.session.decisions.history[self._saved_len:])

    def quit_question(self) -> str | None:
        """The y/n question ``q`` / ``Esc`` / the close button ask first (``App.quit``), or
        None when every answer the person gave is saved."""
        n = self.unsaved_answers()
        if not n:
            return None
        if not self.autosave:       # never promise a file not written
            kept = "; no file holds them: they will be lost"
        elif self._autosave_failed:
            kept = "; no file holds them (the autosave cannot be written): they will be lost"
        else:
            kept = f"; they stay in {os.path.basename(self.autosave)}" if self._autosaved else ""
        return (f"quit with {n} answer{'s' if n != 1 else ''} not saved? y: quit{kept}, "
                f"n: keep playing (s saves the run)")

    def flush_autosave(self) -> None:
        """The window ends without a question (``App.terminate``): write the play autosave
        now when it lacks answers the run holds and some of them are the person's (what
        ``poll`` writes at the next frame otherwise)."""
        if self.unsaved_answers() and self._autosaved_len < len(self.session.decisions.history):
            self._write_autosave()

    def input(self) -> None:
        """The person pressed, moved or wheeled: the window is not idle (the autosave's
        rewrite in the map's words waits, ``app.autosave_keep``)."""
        self.kept.input()

    def _write_autosave(self) -> None:
        """Write the run so far over the play autosave (``PLAY_AUTOSAVE_SUFFIX``): at once
        afresh (``mapfile.dumps``: a few ms, inside a frame), under the header ``s`` writes
        (``replay_header``); once the window is idle another process rewrites it as ``s``
        writes a run, the map's own document with its comments kept and the answers as
        ``[[decisions]]`` tables (``app.autosave_keep``: that edit is ~90 ms of CPU on the
        112-model 60x44 layout, too long for a frame)."""
        self._autosaved = self.unsaved_answers()
        self._autosaved_len = len(self.session.decisions.history)
        if self.autosave is None:
            return
        s = self.session
        try:
            text = mapfile.dumps(s.replay_state())
            head = "".join(f"# {line}".rstrip() + "\n"
                           for line in s.replay_header(self.autosave).splitlines())
            write_atomic(self.autosave, head + "\n" + text, force=True,
                         keep=(self.app.path,) if self.app.path else ())
            self._autosave_failed = False
            self.kept.written()
        except (OSError, TabletopError) as exc:
            self._autosave_failed = True
            self.kept.discarded()           # no rewrite of an autosave that is behind
            self.app.message(f"autosave {self.autosave}: cannot write: {exc}")

    # ------------------------------------------------------------ the window
    def status(self) -> str:
        if self.question is not None:
            return f"waiting for {self.question.player}"
        return self.outcome

    def short_status(self) -> str:
        """One word for the step row: asking, resolving, resolved, stopped or failed."""
        return "asking" if self.question is not None else self.outcome

    def step_lines(self, lines: list[str]) -> list[str]:
        """The step panel's lines under a first line saying what the resolution is doing."""
        head = f"play, seed {self.session.seed}: {self.status()}"
        if not self.app.steps:
            return [head, "the first step is being resolved"]
        return [lines[0], head, *lines[1:]]

    def draw_over(self, surface: pygame.Surface, geo: Geometry) -> None:
        """Ring the models the open question's options name, numbered like the buttons (each
        number placed by ``place_badges``)."""
        q = self.question
        if q is None:
            self.badges = []
            return
        view = self.app.view
        for mid in question_text.asker_models(q, geo):
            self._ring(surface, geo, mid, ASKER_COLOUR, view)
        options = question_text.option_models(q, geo)
        for k, ids in options.items():
            colour = DEFAULT_COLOUR if k == q.default_index else OPTION_COLOUR
            for mid in ids:
                self._ring(surface, geo, mid, colour, view)
        self.place_badges(surface.get_rect(), geo)
        for rect, k in self.badges:
            colour = DEFAULT_COLOUR if k == q.default_index else OPTION_COLOUR
            mid = self._badge_model.get(k)
            if mid is not None and mid in geo.ids:    # a short line to the ring it numbers
                self._leader(surface, geo, mid, rect, colour, view)
            img = theme_font(BADGE_FONT_PX).render(str(k + 1), True, colour)
            pygame.draw.rect(surface, (20, 20, 20), rect, border_radius=4)
            surface.blit(img, img.get_rect(center=rect.center))

    def place_badges(self, area: pygame.Rect, geo: Geometry) -> list[tuple[pygame.Rect, int]]:
        """Where each option's number goes (board pixels within ``area``): beside the ring of
        its unit's top model (above it first), clear of every model's base, every ring, the
        units' name plates (``plates.PlateCache``), the question panel and the numbers placed
        before it, by ``render.label_place``; kept in
        ``badges`` (what ``click_badge`` reads) and worked out again only when the question,
        the view, the board or the panel changes."""
        q = self.question
        view = self.app.view
        board = self.app.board_rect
        shown = self.quit_panel or self.ask
        panel = shown.rect.move(-board.x, -board.y) if shown is not None else pygame.Rect(0, 0, 0, 0)
        key = (id(q), view.scale, view.origin_x, view.origin_y, tuple(area), tuple(panel), id(geo),
               self.app.overlays, self.app.selected)
        if key == self._badge_key:
            return self.badges
        self._badge_key = key
        self.badges = []
        self._badge_model = {}
        if q is None:
            return self.badges
        options = question_text.option_models(q, geo)
        bases = [_ring_rect(geo, mid, view, pad=0) for mid in geo.ids]
        rings = [_ring_rect(geo, mid, view) for ids in options.values() for mid in ids]
        # the units' name plates too (audit 9: a number drawn over a plate hid its name)
        state, _ = self.app.shown()
        plates = self._plates.plates(area.size, view, state, geo, frozenset(self.app.overlays),
                                     self.app.selected, board_theme(area.size))
        placer = LabelPlacer(area, bases=bases + rings, blocked=[panel, *plates])
        for k, ids in options.items():
            top = max(ids, key=lambda m: geo.model(m).y)
            anchor = _ring_rect(geo, top, view)
            w, h = theme_font(BADGE_FONT_PX).size(str(k + 1))
            cands = around(anchor, (w + 8, h + 4), gap=BADGE_GAP_PX)
            cands.insert(0, cands.pop(1))          # above its model first, as before
            self.badges.append((placer.place("badge", str(k), cands, anchor).rect, k))
            self._badge_model[k] = top
        return self.badges

    @staticmethod
    def _leader(surface, geo: Geometry, mid: str, rect: pygame.Rect, colour, view) -> None:
        """A line from badge ``rect`` to the ring of model ``mid`` (audit 9: a number set
        aside beside another unit's model read as that one's); none when they touch."""
        m = geo.model(mid)
        x, y = view.to_screen(m.x, m.y)
        r = m.base.radius * view.scale + RING_PAD_PX
        sx, sy = min(max(x, rect.left), rect.right), min(max(y, rect.top), rect.bottom)
        d = math.hypot(sx - x, sy - y)
        if d <= r + BADGE_GAP_PX + 2:
            return
        end = (x + (sx - x) / d * r, y + (sy - y) / d * r)
        pygame.draw.line(surface, HALO_COLOUR, (sx, sy), end, 4)
        pygame.draw.line(surface, colour, (sx, sy), end, 2)
    @staticmethod
    def _ring(surface, geo: Geometry, mid: str, colour, view) -> None:
        """A ring just outside the base's bounding circle (clear of the contact overlay)."""
        m = geo.model(mid)
        x, y = view.to_screen(m.x, m.y)
        r = round(m.base.radius * view.scale + RING_PAD_PX)
        centre = (round(x), round(y))
        pygame.draw.circle(surface, HALO_COLOUR, centre, r + 1, RING_WIDTH_PX + 2)
        pygame.draw.circle(surface, colour, centre, r, RING_WIDTH_PX)

    def layout(self) -> None:
        """The window was resized: rebuild the question panel over the new board, clear of
        the named models where they now stand."""
        if self.quit_panel is not None:
            self.quit_panel.layout(self.app.board_rect)
        elif self.ask is not None and self.question is not None:
            self.ask.layout(self.app.board_rect, avoid=self.named_rings(self.question))

    def close(self) -> bool:
        """Stop the session and the autosave's rewrite (the copy written last stays whole);
        True when the session has ended."""
        self._close_panel()
        if self.quit_panel is not None:
            self.quit_panel.kill()
            self.quit_panel = None
        self.kept.close(self.autosave, getattr(self.app, "path", None))
        return self.session.stop()


def _ring_rect(geo: Geometry, mid: str, view, pad: float = RING_PAD_PX + RING_WIDTH_PX + 1) -> pygame.Rect:
    """The square round model ``mid``'s ring (``pad`` pixels outside its base's bounding
    circle; ``pad=0``: the base's), board pixels."""
    m = geo.model(mid)
    x, y = view.to_screen(m.x, m.y)
    r = m.base.radius * view.scale + pad
    return pygame.Rect(round(x - r), round(y - r), round(2 * r), round(2 * r))
