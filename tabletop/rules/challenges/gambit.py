"""The Challenge Sub-phase of the fight phase (gambit-challenge.txt), map option ``challenges = "gambit"``:
the entry points today's Fight phase calls, driving the sub-phase's rows (``gambit_rows``) with the
one driver (``engine.driver.run``).

``challenge_subphase(state, dice, decisions, log)`` runs ``gambit_rows.challenge_rows`` on a
minimal memo (``GambitOnly``): chances drawn with ``dice`` (every roll logged, in the order
the dice are rolled today), questions asked through ``decisions`` (the map's
``[[decisions]]``, the default policy, or the window), events and steps into ``log``.
``return_models`` runs the Resolution (``gambit_rows.return_models``) and ``end_phase`` the
End Phase's removal of Disgraced statuses.  The rules, named defaults and the default
policy are in ``gambit_rows``.
"""

from __future__ import annotations

from typing import Any

from tabletop.board.state import Battlefield
from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambit_rows import (
    DISGRACED_ENDS,
    DISGRACED_READS,
    HARD_ROUND_LIMIT,
    ISSUE_ORDER,
    PROLONG_LIMIT,
    RULE_END,
    ChallengeMemo,
    GambitChallenge,
    GambitOnly,
    duellists_of,
    eligible,
    outside_support,
)
from tabletop.rules.challenges.gambits import GAMBIT_NAMES
from tabletop.rules.engine import driver
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.engine.pending import Question


def ask_through(decisions) -> driver.Policy:
    """A driver policy that asks ``decisions`` (a ``rules.decisions.Decisions``): the map's
    ``[[decisions]]`` first, then its default policy or the window; a costly default
    (``Question.default_fn``) is worked out only when no scripted answer is taken."""
    def policy(q: Question) -> Any:
        context = {k: (dict(v) if k == "chosen" else list(v) if k == "combat" else v) for k, v in q.context}
        return decisions.choose(q.player, q.choice, list(q.options), default=q.default, rule=q.rule,
                                context=context, why_not=q.why_not,
                                search=(lambda: (list(q.options), q.chosen_default()))
                                if q.default_fn is not None else None)
    return policy


def challenge_subphase(state: Battlefield, dice, decisions, log) -> tuple[Battlefield, ChallengeMemo]:
    """Run the Challenge Sub-phase on every combat of ``state``.

    Returns the state with the surviving duellists set aside (taken off the
    table until ``return_models``), casualties gone and Disgraced statuses
    applied, and the sub-phase's record (``ChallengeMemo``: ``challenges``,
    ``points()``, ``set_aside``).  Does nothing unless
    ``state.rules.challenges == "gambit"``.
    """
    if state.rules.challenges != "gambit":
        return state, ChallengeMemo()
    m = gambit_rows.machine()
    start = PhaseState(state, GambitOnly(), "challenge", used=frozenset(decisions.used))
    run = driver.run(m, start, dice=dice, scripted=decisions.scripted,
                     policy=ask_through(decisions), log=log, on_scripted=decisions.took)
    return run.state.battlefield, run.state.memo.challenge


def return_models(state: Battlefield, sub: ChallengeMemo, log) -> Battlefield:
    """Return every surviving set-aside model to the table (``gambit_rows.return_models``)."""
    after, events = gambit_rows.return_models(state, sub.challenges)
    driver.emit(log, events)
    return after


def end_phase(state: Battlefield, log=None) -> Battlefield:
    """Remove every Disgraced status (``gambit_rows.end_phase``), its events into ``log``."""
    after, events = gambit_rows.end_phase(state)
    driver.emit(log, events)
    return after


__all__ = [
    "DISGRACED_ENDS",
    "DISGRACED_READS",
    "GAMBIT_NAMES",
    "HARD_ROUND_LIMIT",
    "ISSUE_ORDER",
    "PROLONG_LIMIT",
    "RULE_END",
    "GambitChallenge",
    "challenge_subphase",
    "duellists_of",
    "eligible",
    "end_phase",
    "outside_support",
    "return_models",
]
