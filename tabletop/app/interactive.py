"""The person at the window answers the rules' questions (docs/design.md "Conventions: Decisions", third source).

``PlaySession(state, seed)`` drives the map's combat phase on the rules
engine (``find_ruleset(state.ruleset).phase(state)``: a ``Machine`` and its
first ``PhaseState``) from the window's own loop, with no thread and no
queue.  Each ``poll()`` (once a frame) does one piece of work - runs one row,
draws one chance with the seeded dice, or gives the engine the answer the
person clicked - and returns what it produced, in order:

- ``("event", Event)`` for each event,
- ``("step", Step)`` for each closed step,
- ``("question", Question)`` when a choice needs the person,
- ``("done", Resolution)`` or ``("error", [lines])`` at the end.

Questions are answered first by the map's ``[[decisions]]``
(through the ruleset's policy, as ``tabletop fight``), then - when the person
chose "the default for the rest", or the question has one distinct option
(``ASK_SINGLE_OPTION``) - by the default policy, else by the person.  Every
answer is recorded (``Decisions.history``), so ``replay_state`` saves the run
as a map that ``tabletop fight`` replays exactly.

Named defaults:

- ``ASK_SINGLE_OPTION = False``: a question with one distinct option (e.g.
  "which unit fights next?" when only one is eligible) is answered with it
  without asking; the rules leave no choice there.
- ``ROWS_PER_POLL = 1``: one piece of work is one row, one chance or one answer.
- Work per poll is counted, never timed, so the same map, seed and answers
  give the same messages at the same poll on any machine, however fast
  (issue 9).  Each piece reports its work: ``PIECE_WORK = 1`` for the piece,
  plus ``SOLVER_STEP_WORK = 8`` for each solver step it ran
  (``pieces.Budget.total``) and ``NEW_STEP_WORK = 8`` for each step it closed
  (the window draws a new step, a whole board, in that frame); a poll does
  pieces until their work reaches ``POLL_WORK = 8`` (at least one; none while
  a question waits for the person).  So a poll does one solver step (1-50 ms
  on the 60x44 layout; two when a target search ends and its answer's solve
  starts in one piece) or closes one step, else up to eight light pieces (a
  row without a solve, a chance drawn: about a millisecond each).  This only
  spreads the work over frames: what the phase does never depends on it.
  (Which poll brings what also depends on the moves this process solved
  before: a kept solve, ``fight_phase.moving._SOLVED``, costs no steps.)
- ``SOLVER_STEPS_PER_PIECE = 1``: a row (or an answer's resume) that solves a
  pile-in or consolidation move runs at most this many solver steps a piece
  (``geometry.pieces``: one model's route, one retry, one coherency change);
  when they are spent the half-run row is dropped - rows do not change the
  state they are given - and runs again at the next piece, its solve going
  on where it stopped.  A single solve can take far longer than a frame
  (tenths of a second for 20 models), a step takes 1-50 ms on the 60x44 layout.  The
  work per piece is counted in steps, never timed, and the solve computes the
  same plan however it is cut.  The default policy's target search (a
  pile-in or consolidation target question, one solve per selection tried)
  is cut the same way: it runs before the policy is asked (``_ask``), whose
  ``Decisions`` then reads the finished search.
"""

from __future__ import annotations

import os
import random
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.geometry import pieces
from tabletop.rules.decisions import BY_DEFAULT, BY_WINDOW, Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.engine.driver import answer_from_map, emit
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.engine.pending import Chance
from tabletop.rules.engine.pending import Question as EngineQuestion
from tabletop.rules.events import Event, EventLog, Step
from tabletop.rules.registry import Resolution, find_ruleset

ASK_SINGLE_OPTION = False
ROWS_PER_POLL = 1
SOLVER_STEPS_PER_PIECE = 1
POLL_WORK = 8                   # work a poll does at most (its last piece may pass it)
PIECE_WORK = 1                  # each piece: a row, a chance drawn, an answer given
SOLVER_STEP_WORK = 8            # each solver step a piece ran: a frame's work
NEW_STEP_WORK = 8               # each step a piece closed: the window draws it that frame
SEED_RANGE = (1, 1_000_000)     # a seed drawn when none is given (shown in the window)


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
    ``round`` ...).  The window answers with ``reply``; the session takes the
    answer at its next ``poll``.
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
    answered: bool = False

    @property
    def default_index(self) -> int:
        return next((k for k, o in enumerate(self.options) if o == self.default), 0)

    def reply(self, value: Any, for_rest: bool = False) -> None:
        """Answer.  ``for_rest``: the default policy answers every later question.

        Raises
        ------
        ValueError
            ``value`` is not one of ``options``, or the question was answered already.
        """
        if self.answered:
            raise ValueError(f"question {self.number} ({self.choice}) is answered already")
        if not any(value == o for o in self.options):
            raise ValueError(f"{value!r} is not one of {self.options!r}")
        self.answer, self.for_rest, self.answered = value, for_rest, True

    def reply_option(self, index: int) -> None:
        """Answer with ``options[index]`` (a button or a number key)."""
        self.reply(self.options[index])

    def reply_default(self, for_rest: bool = False) -> None:
        """Answer with the default (``for_rest``: and the defaults from now on)."""
        self.reply(self.options[self.default_index], for_rest=for_rest)


class _OutLog(EventLog):
    """An ``EventLog`` that also queues each event and closed step for the window."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[tuple[str, Any]] = []
        self.listeners.append(lambda ev: self.out.append(("event", ev)))

    def step(self, title: str, rule: str, state: Battlefield) -> Step:
        st = super().step(title, rule, state)
        self.out.append(("step", st))
        return st


class _NeedPerson(Exception):
    """Raised by the window's ``Decisions.ask``: this question goes to the person."""

    def __init__(self, options: list[Any], default: Any, context: dict[str, Any]):
        super().__init__("ask the person")
        self.options, self.default, self.context = options, default, context


class _WindowDecisions(Decisions):
    """``Decisions`` whose unscripted questions go to the person, unless the person chose
    "the default for the rest" or the rules leave one distinct option (``ASK_SINGLE_OPTION``)."""

    def __init__(self, scripted: Sequence[Any], log: EventLog, *, session: PlaySession):
        super().__init__(scripted, log)
        self.session = session

    @property
    def answers(self) -> list[tuple[str, str, Any]]:
        """Every (player, choice, value) the person gave, in order."""
        return [(a.player, a.choice, a.value) for a in self.history if a.by == BY_WINDOW]

    def ask(self, player: str, choice: str, options: Sequence[Any], default: Any,
            context: dict[str, Any]) -> Any:
        fallback = super().ask(player, choice, options, default, context)
        if self.session.use_defaults or (len(distinct_options(options)) <= 1
                                         and not ASK_SINGLE_OPTION):
            return fallback
        raise _NeedPerson(list(options), fallback, dict(context))


def _policy(ruleset: str, decisions: Decisions) -> Any:
    """The driver policy ``tabletop fight`` uses for ``ruleset`` over ``decisions``."""
    if ruleset == "fight-phase":
        from tabletop.rules.fight_phase import decisions_policy
        return decisions_policy(decisions)
    from tabletop.rules.challenges.gambit import ask_through
    return ask_through(decisions)


class PlaySession:
    """A combat phase driven from the window's loop, the person answering its questions.

    Parameters
    ----------
    state : Battlefield
        The map; its ruleset must run on the rules engine (``Ruleset.phase``).
    seed : int or None
        Dice seed; None takes the map's ``[map] seed``, else draws one from
        ``SEED_RANGE`` (kept in ``seed`` so the window can show it).

    Call ``start()`` once and ``poll()`` every frame.  ``resolution`` is the
    ``Resolution`` once done; ``error`` the lines of a failure; ``question``
    the question waiting for the person.
    """

    def __init__(self, state: Battlefield, seed: int | None = None):
        self.state = state
        if seed is None:
            seed = state.seed if state.seed is not None else random.randrange(*SEED_RANGE)
        self.seed = seed
        self.log = _OutLog()
        self.dice = Dice(seed, self.log)
        self.decisions = _WindowDecisions(state.decisions, self.log, session=self)
        self._policy: Any = None
        self.resolution: Resolution | None = None
        self.error: list[str] | None = None
        self.question: Question | None = None
        self.use_defaults = False
        self.started = False
        self.stopped = False
        self._asked = 0
        self._machine: Any = None
        self._phase: PhaseState | None = None
        self._pending_q: EngineQuestion | None = None
        self.budget = pieces.Budget(SOLVER_STEPS_PER_PIECE)
        self._ready: tuple[Any, Any] | None = None    # (pending, its answer) not yet taken
        self._searched: Any = None   # the pending question whose target search is done
        self.pieces = 0              # pieces of work done (each at most one row or answer)
        self.work = 0                # the counted work of the last poll (``POLL_WORK``)

    def start(self) -> None:
        """Set the phase up (a second call does nothing); errors show at the next poll."""
        if self.started:
            return
        self.started = True
        try:
            try:
                ruleset = find_ruleset(self.state.ruleset)
            except ValueError as exc:       # unknown or unavailable ruleset
                raise TabletopError(f"{self.state.path}: {exc}") from None
            if ruleset.phase is None:
                raise TabletopError(f"ruleset {self.state.ruleset!r} cannot resolve a fight")
            self._machine, self._phase = ruleset.phase(self.state)
            self._policy = _policy(self.state.ruleset, self.decisions)
        except TabletopError as exc:
            self._fail(list(exc.problems))

    @property
    def running(self) -> bool:
        return self.started and not self.finished

    @property
    def finished(self) -> bool:
        return self.resolution is not None or self.error is not None or self.stopped

    def _fail(self, lines: list[str]) -> None:
        self.error = lines
        self.log.out.append(("error", lines))

    def _answer(self, value: Any) -> None:
        assert self._phase is not None
        self._phase, events = self._sliced(
            lambda: self._machine.answer(self._phase, value, advance=False))
        emit(self.log, events)

    def _value_for(self, p: Any, make: Any) -> Any:
        """The answer to pending ``p``, worked out (dice drawn, policy asked) once: a
        piece that runs out of solver steps gives the same answer at the next piece."""
        if self._ready is None or self._ready[0] is not p:
            self._ready = (p, make())
        return self._ready[1]

    def _sliced(self, work: Any) -> Any:
        """``work()`` with at most ``SOLVER_STEPS_PER_PIECE`` solver steps; raises
        ``pieces.OutOfSteps`` (nothing changed) when its solve has more to do."""
        self.budget.refill()
        with pieces.active(self.budget):
            out = work()
        self.budget.clear()
        return out

    def _work(self) -> None:
        """One piece of work: give an answer, run a row, or draw a chance."""
        st = self._phase
        assert st is not None
        if self.question is not None:
            q = self.question
            if not q.answered:
                return
            value = q.answer
            value = tuple(value) if isinstance(value, list) else value
            self._phase, events = self._sliced(
                lambda: self._machine.answer(st, value, advance=False))   # may run out of steps
            self.question = None
            if q.for_rest:
                self.use_defaults = True
            # ``d`` (the default here and for the rest) is the default policy's answer, not
            # one the person picked: recorded as such, like the later ones it answers
            by = BY_DEFAULT if q.for_rest else BY_WINDOW
            self.decisions.record(q.player, q.choice, q.answer, by)
            self.log.emit("decision", q.rule, player=q.player, choice=q.choice, value=q.answer,
                          by=by, default=q.default)
            emit(self.log, events)
            return
        if st.done:
            self.resolution = Resolution(st.battlefield, self.log)
            self.log.out.append(("done", self.resolution))
            return
        p = st.pending
        if p is None:
            self._phase, events = self._sliced(
                lambda: self._machine.advance(st, max_rows=ROWS_PER_POLL))
            emit(self.log, events)
        elif isinstance(p, Chance):
            self._answer(self._value_for(
                p, lambda: p.draw(self.dice) if p.draw is not None else p.sample(self.dice._rng)))
        else:
            self._ask(p)

    def _ask(self, p: EngineQuestion) -> None:
        """Answer ``p`` as ``tabletop fight`` would (the driver's ``answer_from_map``: the
        map's ``[[decisions]]`` by the one matching rule, the entry recorded in the phase
        state's ``used``; then the ruleset's policy over ``Decisions``, a costly default
        worked out only when needed), except that an unscripted question with a real
        choice goes to the person.

        A question the map does not answer whose default is searched
        (``default_fn.searched``: the pile-in and consolidation target search,
        ``fight_phase.targets``) has its search run first, cut in solver steps like a
        row (``SOLVER_STEPS_PER_PIECE``; raises ``pieces.OutOfSteps`` until it is
        done): the policy then reads the search it would have made itself, so the
        answer is the same.  A scripted answer leaves the search out (unless its entry
        was recorded by ``view --play``, ``engine.scripted`` rule 5).
        """
        if self._ready is None or self._ready[0] is not p:
            found, value, st = answer_from_map(self._phase, p, self.decisions.scripted,
                                               log=self.log, on_scripted=self.decisions.took)
            if found:                       # the map answers, as in ``tabletop fight``
                self._phase, self._ready = st, (p, value)
        if self._ready is not None and self._ready[0] is p:
            self._answer(self._ready[1])    # may run out of steps: the next piece resumes it
            return
        search = getattr(p.default_fn, "searched", None)
        if search is not None and self._searched is not p:
            self._sliced(search)
            self._searched = p          # once: a later piece may be resuming the answer's solve
        try:
            value = self._value_for(p, lambda: self._policy(p))
        except _NeedPerson as need:
            shown = distinct_options(need.options)
            if not any(need.default == o for o in shown):
                shown.insert(0, need.default)
            self._asked += 1
            self._pending_q = p
            self.question = Question(self._asked, p.player, p.choice, shown, need.default, p.rule,
                                     dict(need.context))
            self.log.out.append(("question", self.question))
            return
        self._answer(value)

    def poll(self) -> list[tuple[str, Any]]:
        """Do pieces of work until their counted work reaches ``POLL_WORK`` (at least
        one piece; none while a question waits for the person; see the module
        docstring) and return every message made since the last poll, oldest first.

        Nothing here reads a clock: the messages of each poll depend only on the
        map, the seed, the answers given before it (and the moves this process
        solved before, kept by the rules).
        """
        work = 0
        while self.started and not self.finished:
            work += self._piece()
            if (self.question is not None and not self.question.answered) or work >= POLL_WORK:
                break
        self.work = work
        out, self.log.out = self.log.out, []
        return out

    def _piece(self) -> int:
        """One piece of work (``_work``); returns its counted work: ``PIECE_WORK``, plus
        ``SOLVER_STEP_WORK`` per solver step it ran and ``NEW_STEP_WORK`` per step closed."""
        steps, told = self.budget.total, len(self.log.out)
        self.pieces += 1
        try:
            self._work()
        except pieces.OutOfSteps:
            pass                        # the row runs again, its solve goes on
        except TabletopError as exc:
            self._fail(list(exc.problems))
        except Exception as exc:        # a bug in the rules: say so, keep the window open
            traceback.print_exc()
            self._fail([f"the resolution failed: {type(exc).__name__}: {exc}"])
        closed = sum(1 for kind, _ in self.log.out[told:] if kind == "step")
        return (PIECE_WORK + SOLVER_STEP_WORK * (self.budget.total - steps)
                + NEW_STEP_WORK * closed)

    def run_to_question(self, limit: int = 1_000_000) -> list[tuple[str, Any]]:
        """Poll until a question waits for the person or the phase ends (tests, scripts)."""
        out: list[tuple[str, Any]] = []
        for _ in range(limit):
            out += self.poll()
            if self.finished or (self.question is not None and not self.question.answered):
                break
        return out

    def replay_state(self) -> Battlefield:
        """The run as a map: the map as it was read (the state before the phase, not
        the resolved one) with ``[map] seed`` and, as ``[[decisions]]``, every answer
        so far in order followed by the map's unused scripted ones
        (``Decisions.replay``).  ``tabletop fight`` on it runs the same phase.  A lesson
        map's ``[[lesson]]`` steps are left out: they name the steps of the map's own run,
        which another run's answers change (a saved run failed its own ``check``)."""
        return replace(self.state, decisions=tuple(self.decisions.replay()), seed=self.seed,
                       lesson=())

    def replay_header(self, target: str) -> str:
        """The comment lines a saved run starts with: where it came from and how to replay it."""
        name = os.path.basename(self.state.path or "the map")
        n = len(self.decisions.history)
        lines = [f"Saved by `tabletop view --play` from {name}: the map as it was read, the dice "
                 f"seed ([map] seed = {self.seed}) and the {n} answer{'s' if n != 1 else ''} of the "
                 f"run in order as its decisions"
                 + (" (the map's [[lesson]] steps left out: they follow its own run)."
                    if self.state.lesson else "."),
                 f"Replay: tabletop fight {os.path.basename(target)} (or --seed {self.seed})."]
        if self.resolution is None:
            lines.append("Saved before the phase ended: later questions take the map's other "
                         "decisions, then the default policy.")
        return "\n".join(lines)

    def stop(self, timeout: float = 0.0) -> bool:
        """Stop driving the phase (the window closing); the next ``poll`` returns
        ``("stopped", None)`` when it had not ended.  Always True (nothing to wait for:
        no thread)."""
        if not self.finished:
            self.log.out.append(("stopped", None))
        self.stopped = True
        return True


__all__ = ["ASK_SINGLE_OPTION", "NEW_STEP_WORK", "PIECE_WORK", "POLL_WORK", "ROWS_PER_POLL",
           "SEED_RANGE", "SOLVER_STEP_WORK", "Event", "PlaySession", "Question",
           "distinct_options"]
