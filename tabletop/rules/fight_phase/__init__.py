"""The ``fight-phase`` ruleset: fight-phase.txt 12.01-12.09 from the geometry.

Public API (registered as ``Ruleset("fight-phase", fight=..., odds=..., pile_in=..., consolidate=...)``):

``phase(state, options=None) -> (Machine, PhaseState)``
    The phase as rows over a frozen state (``sequence.phase``), for the
    driver (``tabletop.rules.engine.driver``), the odds walker and the window.
``fight(state, dice, decisions, log, options=None) -> Resolution``
    Runs the whole phase (``driver.run`` over ``phase``): pile-in step, the Fights
    First / Remaining Combats alternation with normal and overrun fights and
    the standard attack sequence, consolidation step; the questions go to
    ``decisions`` (the map's ``[[decisions]]``, then the default policy, or
    the window's person), the chances are drawn with ``dice``.  ``Resolution.state``
    is the state after it; ``Resolution.log`` the EventLog (events and one
    Step per move, fight, start and end); ``Resolution.extra`` holds
    ``selected`` (units in the order they were selected to fight) and
    ``moves`` (every ``MoveOutcome``, with the validator's verdict),
    ``phase_state`` (the final ``PhaseState``) and ``answers`` (every answer
    given, as ``[[decisions]]``).
``odds(state, runs=None, seed=None, exact=True) -> dict``
    What the fight would look like (``odds.py``): per engaged or charged
    unit, models lost, P(destroyed), wounds caused and models removed, from
    the phase's own code, exact or a stated Monte Carlo estimate.
``pile_in(state, unit_id, decisions=None, log=None) -> MoveOutcome``
``consolidate(state, unit_id, decisions=None, log=None, fought=False) -> MoveOutcome``
    One move outside a phase (the ``pile-in`` / ``consolidate`` commands):
    eligibility from the geometry (``refusal`` says why not), targets through
    Decisions, the solver's move and the validator's verdict.

Raises ``MapValidationError`` (one line per problem) when a profile or
weapon the attack sequence needs is missing or malformed; profile keys and
weapon ``rules`` words it does not read are warnings (``unknown_words``,
the ``profile_warnings`` hook ``tabletop check`` and ``fight`` print).  Named defaults
are listed in the docstrings of ``eligibility``, ``sequence``, ``actions``,
``moving``, ``attacks``, ``casualties`` and ``profiles``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import MapValidationError
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver
from tabletop.rules.engine.pending import Question
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase.context import FightMemo, FightOptions, PhaseView, geometry
from tabletop.rules.fight_phase.eligibility import pile_in_refusal
from tabletop.rules.fight_phase.moving import MoveOutcome, plan_consolidation, plan_pile_in
from tabletop.rules.fight_phase.odds import odds
from tabletop.rules.fight_phase.profiles import check_profiles, unknown_words
from tabletop.rules.fight_phase.sequence import phase
from tabletop.rules.registry import Resolution, Ruleset, register

__all__ = ["FightOptions", "MoveOutcome", "consolidate", "decisions_policy", "fight", "odds",
           "phase", "pile_in"]

CONSOLIDATE_ELIGIBLE_OUTSIDE_PHASE = "engaged, charged this turn, or said to have fought (--fought)"


def decisions_policy(decisions: Decisions) -> driver.Policy:
    """A driver policy that hands each question the map's ``[[decisions]]`` left unanswered
    (the driver takes those first, ``engine.scripted``) to ``decisions.choose`` (the default
    policy, or the window's person), with the question's options, default, clause, context
    and ``why_not``; a target question's search (``moving.TargetChoice``) runs only when no
    scripted value is taken, as ever.  Selections (tuples) are offered as lists, as the map writes them."""
    # imported here: the gambit challenge's rows are read only on a map that has them (its
    # questions), and ``odds`` and the other commands need not load them
    from tabletop.rules.challenges.gambit import ask_through
    gambit = ask_through(decisions)

    def policy(q: Question) -> Any:
        found = q.default_fn
        if found is not None and not hasattr(found, "searched"):
            return gambit(q)     # a gambit challenge's question: its default is worked out lazily
        search = getattr(found, "searched", None)
        default = getattr(found, "first", q.default)
        options = [list(o) if isinstance(o, tuple) else o for o in q.options]
        value = decisions.choose(q.player, q.choice, options, default=default, rule=q.rule,
                                 context=dict(q.context), why_not=q.why_not, search=search)
        return tuple(value) if isinstance(value, list) else value
    return policy


def fight(state: Battlefield, dice: Dice, decisions: Decisions | None = None,
          log: EventLog | None = None, options: FightOptions | None = None) -> Resolution:
    """Resolve the Fight phase of ``state`` (see the module docstring).

    ``options`` (None: ``FightOptions.from_rules(state.rules)``, the map's
    preset and ``[rules]`` overrides) chooses the 12.04 readings that differ
    by preset: eligibility after the enemies are gone, and who selects first.
    """
    problems = check_profiles(state)
    if problems:
        raise MapValidationError(problems)
    log = log if log is not None else EventLog()
    if dice.log is None:
        dice.log = log
    decisions = decisions if decisions is not None else Decisions(state.decisions, log)
    if decisions.log is None:
        decisions.log = log
    machine, start = phase(state, options)
    run = driver.run(machine, replace(start, used=frozenset(decisions.used)), dice=dice,
                     scripted=decisions.scripted, policy=decisions_policy(decisions), log=log,
                     on_scripted=decisions.took)
    memo = run.state.memo
    return Resolution(run.state.battlefield, log, {"selected": list(memo.selected),
                                                   "moves": list(memo.moves),
                                                   "phase_state": run.state,
                                                   "answers": run.answers})


def _view(state: Battlefield) -> PhaseView:
    return PhaseView(state, FightMemo(FightOptions.from_rules(state.rules)))


def pile_in(state: Battlefield, unit_id: str, decisions: Decisions | None = None,
            log: EventLog | None = None, solve: bool = True) -> MoveOutcome:
    """One pile-in move for ``unit_id`` (12.03): eligible if engaged or charged this turn.

    ``solve=False`` only sets the move up (``outcome.spec``), to judge a move made by hand."""
    log = log if log is not None else EventLog()
    decisions = decisions if decisions is not None else Decisions(state.decisions, log)
    refusal = pile_in_refusal(_view(state), unit_id)
    if refusal is not None:
        return MoveOutcome(unit_id, "pile_in", "fight-phase.txt 12.03", refusal=refusal)
    return plan_pile_in(state, geometry(state), unit_id, decisions, solve=solve)


def consolidate(state: Battlefield, unit_id: str, decisions: Decisions | None = None,
                log: EventLog | None = None, fought: bool = False,
                solve: bool = True) -> MoveOutcome:
    """One consolidation move for ``unit_id`` (12.08); ``solve`` as for ``pile_in``.

    Outside a phase, "was eligible to fight this phase" is read from the map
    (named default ``CONSOLIDATE_ELIGIBLE_OUTSIDE_PHASE``): the unit is
    engaged, made a charge move this turn, or ``fought`` says it was
    eligible (e.g. it destroyed the unit it fought).
    """
    log = log if log is not None else EventLog()
    decisions = decisions if decisions is not None else Decisions(state.decisions, log)
    unit = state.unit(unit_id)
    geo = geometry(state)
    if not (fought or unit.charged or geo.unit_engaged(unit_id)):
        return MoveOutcome(unit_id, "none", "fight-phase.txt 12.08", refusal=(
            f"{unit_id} is not engaged and did not charge, so it was not eligible to fight this "
            f"phase (fight-phase.txt 12.08 ELIGIBLE IF); pass --fought if it fought"))
    return plan_consolidation(state, geo, unit_id, decisions, solve=solve)


register(Ruleset("fight-phase", fight=fight, odds=odds, pile_in=pile_in, consolidate=consolidate,
                 profile_problems=check_profiles, profile_warnings=unknown_words,
                 phase=lambda battlefield: phase(battlefield)))
