"""The ``rank-and-flank`` ruleset: the combat phase of rank-and-flank-combat.txt.

Registered as ``Ruleset("rank-and-flank", fight=fight, phase=phase, odds=odds)``: the
phase is a table of rows of the rules engine (``phase.py``); ``fight`` drives it with
``engine.driver.run`` and ``odds`` walks one engagement's rows with ``engine.walk``.  Every
clause reads the unit geometry the snapshot computes (``geo.formation``,
``geo.sides`` in ``geometry/ranks.py``), never a hand-set flag.

Modules (each names its clause and its named defaults):

- ``clauses``    stable clause names cited by events
- ``profiles``   stats and the keywords the rules understand
- ``attacks``    who attacks, per side touched
- ``commanders`` commanders, duels
- ``rolls``      attack rolls and damage saves
- ``wounds``     the wound pool, casualties from the rear rank, carry-over
- ``score``      combat score
- ``breaks``     break tests, crumbling
- ``flee``       fleeing, destruction, turning to face
- ``steps``      ``RoundStep``: a row of plain code of the round, by stage (open, plan, close)
- ``round``      one engagement's round planned; ``round_steps(rules)``: its rows of plain
                 code for a map (the character challenge's only with ``challenges = "character"``)
- ``phase``      the phase as engine rows (``phase``, ``rows``, ``key``), ``fight``
- ``odds``       exact (or stated Monte Carlo) odds by walking the same rows
- ``wording``    the events in words (``SENTENCES``: ``describe``'s table reads them)
"""

from tabletop.rules.rank_and_flank import odds as _odds
from tabletop.rules.rank_and_flank.phase import fight, phase
from tabletop.rules.rank_and_flank.round import RoundContext, round_steps
from tabletop.rules.rank_and_flank.steps import RoundStep
from tabletop.rules.registry import Ruleset, register


def _profile_problems(state):
    """Profiles a rank-and-flank combat cannot resolve, one line each."""
    from tabletop.errors import MapValidationError
    from tabletop.rules.rank_and_flank import profiles as _profiles
    try:
        _profiles.check_profiles(state, [u.id for u in state.units])
    except MapValidationError as exc:
        return list(exc.problems)
    return []


RULESET = register(Ruleset("rank-and-flank", fight=fight, phase=phase, odds=_odds.odds,
                           profile_problems=_profile_problems))

__all__ = ["RULESET", "RoundContext", "RoundStep", "fight", "phase", "round_steps"]
