"""The ``rank-and-flank`` ruleset: the combat phase of rank-and-flank-combat.txt.

Registered as ``Ruleset("rank-and-flank", fight=fight, odds=odds)``.  Every
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
- ``steps``      ``RoundStep``: a row of the round, by stage (open, plan, blows, close)
- ``round``      one engagement's round; ``round_steps(rules)``: its table of rows for
                 a map (the character challenge's rows only with ``challenges = "character"``)
- ``phase``      ``fight``: the phase, engagement after engagement, with steps to draw
- ``odds``       exact (or stated Monte Carlo) odds from the same code
- ``wording``    the events in words (``SENTENCES``: ``describe``'s table reads them)
"""

from tabletop.rules.rank_and_flank import odds as _odds
from tabletop.rules.rank_and_flank.phase import fight
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


RULESET = register(Ruleset("rank-and-flank", fight=fight, odds=_odds.odds,
                           profile_problems=_profile_problems))

__all__ = ["RULESET", "RoundContext", "RoundStep", "fight", "round_steps"]
