"""The person at the window answers the rules' questions (DESIGN.md "Decisions", third source).

``PlaySession(state, seed)`` resolves the map's combat phase with its
ruleset (``find_ruleset(state.ruleset).fight(state, dice, decisions, log)``)
in a background thread.  Everything the thread produces reaches the window
through one queue (``session.poll()``), in the order it happened:

- ``("event", Event)`` for each event (an ``EventLog`` listener),
- ``("step", Step)`` for each closed step (``StreamingLog.step``),
- ``("question", Question)`` when a choice needs the person,
- ``("done", Resolution)``, ``("stopped", None)`` or ``("error", [lines])`` at the end.

The thread never touches pygame: it emits, then blocks on the question's
``threading.Event`` until the window calls ``Question.reply``.  Scripted
``[[decisions]]`` still answer first (``Decisions.choose``); only unscripted
questions reach ``InteractiveDecisions.ask``.  ``session.stop()`` (the
window closing) makes the thread unwind at its next event, roll or question
by raising ``ResolutionStopped``, a ``BaseException`` so no rules code
catches it by accident.

Named defaults:

- ``ASK_SINGLE_OPTION = False``: a question with one distinct option (e.g.
  "which unit fights next?" when only one is eligible) is answered with it
  without asking; the rules leave no choice there.
- ``POLL_SECONDS``: how often a waiting thread looks at the stop flag.
- ``STOP_JOIN_SECONDS``: how long ``stop`` waits for the thread to end.
"""

from __future__ import annotations

import os
import queue
import random
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.board.state import Battlefield, Decision
from tabletop.errors import TabletopError
from tabletop.rules.decisions import BY_WINDOW, Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import Event, EventLog, Step
from tabletop.rules.registry import Resolution, find_ruleset

ASK_SINGLE_OPTION = False
POLL_SECONDS = 0.05
STOP_JOIN_SECONDS = 2.0
SEED_RANGE = (1, 1_000_000)     # a seed drawn when none is given (shown in the window)


class ResolutionStopped(BaseException):
    """Raised inside the resolver thread when the window has stopped the session."""


def distinct_options(options: Sequence[Any]) -> list[Any]:
    """The options worth a button each: equal values once, and a one-element list
    ``[x]`` dropped when ``x`` itself is an option (the rules offer it so a
    scripted ``["B1"]`` means ``"B1"``; ``fight_phase.moving._target_options``)."""
    out: list[Any] = []
    for o in options:
        if any(o == seen for seen in out):
            continue
        if isinstance(o, (list, tuple)) and len(o) == 1 and any(o[0] == x for x in options):
            continue
        out.append(o)
    return out


@dataclass
class Question:
    """One choice put to the person at the window.

    ``options`` are the distinct options (one button each), ``default`` what
    the default policy would answer (one of them), ``rule`` the clause the
    rules cite, ``context`` what the rules passed (``unit``, ``step``,
    ``round`` ...).  The window answers with ``reply``; the resolver thread
    waits in ``wait``.
    """

    number: int
    player: str
    choice: str
    options: list[Any]
    default: Any
    rule: str = ""
    context: dict[str, Any] = field(default_factory=dict)
    answer: Any = None
    for_rest: bool = False
    _answered: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def answered(self) -> bool:
        return self._answered.is_set()

    @property
    def default_index(self) -> int:
        return next((k for k, o in enumerate(self.options) if o == self.default), 0)

    def reply(self, value: Any, for_rest: bool = False) -> None:
        """Answer (from the window's thread).  ``for_rest``: the default policy answers
        every later question of this resolution.

        Raises
        ------
        ValueError
            ``value`` is not one of ``options``, or the question was answered already.
        """
        if self.answered:
            raise ValueError(f"question {self.number} ({self.choice}) is answered already")
        if not any(value == o for o in self.options):
            raise ValueError(f"{value!r} is not one of {self.options!r}")
        self.answer, self.for_rest = value, for_rest
        self._answered.set()

    def reply_option(self, index: int) -> None:
        """Answer with ``options[index]`` (a button or a number key)."""
        self.reply(self.options[index])

    def reply_default(self, for_rest: bool = False) -> None:
        """Answer with the default (``for_rest``: and the defaults from now on)."""
        self.reply(self.options[self.default_index], for_rest=for_rest)

    def wait(self, timeout: float) -> bool:
        return self._answered.wait(timeout)


class InteractiveDecisions(Decisions):
    """``Decisions`` whose unscripted questions go to the window.

    Parameters
    ----------
    scripted : sequence of Decision
        The map's ``[[decisions]]``: they answer first, as in ``Decisions``.
    log : EventLog or None
        Gets a ``decision`` event {player, choice, value, by: "window"} per answer
        the person gave.
    outbox : queue.Queue
        Where ``("question", Question)`` goes.
    stop : threading.Event
        Set by the window to end the resolution; a waiting ``ask`` then
        raises ``ResolutionStopped``.

    ``use_defaults`` (set by "use the default for the rest") makes ``ask``
    the default policy again.  ``answers`` lists every (player, choice, value)
    the person gave, in order (what a map's ``[[decisions]]`` would need to
    replay the run).
    """

    def __init__(self, scripted: Sequence[Decision] = (), log: EventLog | None = None, *,
                 outbox: queue.Queue | None = None, stop: threading.Event | None = None):
        super().__init__(scripted, log)
        self.outbox: queue.Queue = outbox if outbox is not None else queue.Queue()
        self.stop = stop if stop is not None else threading.Event()
        self.use_defaults = False
        self.answers: list[tuple[str, str, Any]] = []
        self._rule = ""
        self._asked = 0

    def choose(self, player: str, choice: str, options: Sequence[Any], default: Any = None,
               rule: str = "", context: dict[str, Any] | None = None, why_not=None,
               search=None) -> Any:
        """``Decisions.choose``, keeping ``rule`` for the question's wording."""
        self._rule = rule
        return super().choose(player, choice, options, default, rule, context, why_not, search)

    def ask(self, player: str, choice: str, options: Sequence[Any], default: Any,
            context: dict[str, Any]) -> Any:
        """The person's answer (blocks this thread until the window replies).

        The default policy answers instead when ``use_defaults`` is on, or when
        there is a single distinct option (``ASK_SINGLE_OPTION``).

        Raises
        ------
        ResolutionStopped
            The window stopped the session while waiting.
        """
        if self.stop.is_set():
            raise ResolutionStopped
        fallback = super().ask(player, choice, options, default, context)
        shown = distinct_options(options)
        if self.use_defaults or (len(shown) <= 1 and not ASK_SINGLE_OPTION):
            return fallback
        if not any(fallback == o for o in shown):
            shown.insert(0, fallback)
        self._asked += 1
        q = Question(self._asked, player, choice, shown, fallback, self._rule, dict(context))
        self.outbox.put(("question", q))
        while not q.wait(POLL_SECONDS):
            if self.stop.is_set():
                raise ResolutionStopped
        if q.for_rest:
            self.use_defaults = True
        self.answers.append((player, choice, q.answer))
        self._by = BY_WINDOW
        if self.log is not None:
            self.log.emit("decision", q.rule, player=player, choice=choice, value=q.answer,
                          by="window", default=q.default)
        return q.answer


class StreamingLog(EventLog):
    """An ``EventLog`` that sends each event and step to ``outbox`` as it is made and
    raises ``ResolutionStopped`` once ``stop`` is set."""

    def __init__(self, outbox: queue.Queue, stop: threading.Event):
        super().__init__()
        self.outbox = outbox
        self.stop = stop
        self.listeners.append(self._send)

    def _send(self, ev: Event) -> None:
        self.outbox.put(("event", ev))
        if self.stop.is_set():
            raise ResolutionStopped

    def step(self, title: str, rule: str, state: Battlefield, **draw: Any) -> Step:
        st = super().step(title, rule, state, **draw)
        self.outbox.put(("step", st))
        if self.stop.is_set():
            raise ResolutionStopped
        return st


class PlaySession:
    """A combat phase resolved in a background thread, the person answering its questions.

    Parameters
    ----------
    state : Battlefield
        The map; its ``ruleset`` must have a ``fight`` hook.
    seed : int or None
        Dice seed; None takes the map's ``[map] seed``, else draws one from
        ``SEED_RANGE`` (kept in ``seed`` so the window can show it).

    Call ``start()`` once, ``poll()`` from the window's loop, ``stop()`` on close.
    ``resolution`` is the ``Resolution`` once done; ``error`` the lines of a failure.
    """

    def __init__(self, state: Battlefield, seed: int | None = None):
        self.state = state
        if seed is None:
            seed = state.seed if state.seed is not None else random.randrange(*SEED_RANGE)
        self.seed = seed
        self.outbox: queue.Queue = queue.Queue()
        self.stop_event = threading.Event()
        self.log = StreamingLog(self.outbox, self.stop_event)
        self.decisions = InteractiveDecisions(state.decisions, self.log, outbox=self.outbox,
                                              stop=self.stop_event)
        self.resolution: Resolution | None = None
        self.error: list[str] | None = None
        self.thread = threading.Thread(target=self._run, name="tabletop-resolver", daemon=True)

    def start(self) -> None:
        """Start the resolver thread (a second call does nothing)."""
        if not self.thread.is_alive() and self.thread.ident is None:
            self.thread.start()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def _run(self) -> None:
        try:
            try:
                ruleset = find_ruleset(self.state.ruleset)
            except ValueError as exc:       # unknown or unavailable ruleset
                raise TabletopError(f"{self.state.path}: {exc}") from None
            if ruleset.fight is None:
                raise TabletopError(f"ruleset {self.state.ruleset!r} cannot resolve a fight")
            res = ruleset.fight(self.state, Dice(self.seed, self.log), self.decisions, self.log)
            self.resolution = res
            self.outbox.put(("done", res))
        except ResolutionStopped:
            self.outbox.put(("stopped", None))
        except TabletopError as exc:
            self.error = list(exc.problems)
            self.outbox.put(("error", self.error))
        except Exception as exc:            # a bug in the rules: say so, keep the window open
            self.error = [f"the resolution failed: {type(exc).__name__}: {exc}"]
            traceback.print_exc()
            self.outbox.put(("error", self.error))

    def replay_state(self) -> Battlefield:
        """The run as a map: the map as it was read (the state before the phase, not
        the resolved one) with ``[map] seed`` and, as ``[[decisions]]``, every answer
        so far in order followed by the map's unused scripted ones
        (``Decisions.replay``).  ``tabletop fight`` on it runs the same phase."""
        return replace(self.state, decisions=tuple(self.decisions.replay()), seed=self.seed)

    def replay_header(self, target: str) -> str:
        """The comment lines a saved run starts with: where it came from and how to replay it."""
        name = os.path.basename(self.state.path or "the map")
        n = len(self.decisions.history)
        lines = [f"Saved by `tabletop view --play` from {name}: the map as it was read, the dice "
                 f"seed ([map] seed = {self.seed}) and the {n} answer{'s' if n != 1 else ''} of the "
                 f"run in order as [[decisions]].",
                 f"Replay: tabletop fight {os.path.basename(target)} (or --seed {self.seed})."]
        if self.resolution is None:
            lines.append("Saved before the phase ended: later questions take the map's other "
                         "decisions, then the default policy.")
        return "\n".join(lines)

    def poll(self) -> list[tuple[str, Any]]:
        """Every message waiting, oldest first (never blocks)."""
        out = []
        while True:
            try:
                out.append(self.outbox.get_nowait())
            except queue.Empty:
                return out

    def stop(self, timeout: float = STOP_JOIN_SECONDS) -> bool:
        """Ask the thread to end and wait up to ``timeout`` seconds; True when it has."""
        self.stop_event.set()
        if self.thread.ident is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout)
        return not self.thread.is_alive()
