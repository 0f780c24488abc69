"""``break_test``'s ``discipline_from`` never names a model no longer on the table
(rank-and-flank-combat.txt "Break tests"; character-challenge.txt ¶3: a model that retired in
disgrace lends no Discipline that turn)."""

from __future__ import annotations

from rnf_maps import rnf_map, unit

from tabletop.rules.rank_and_flank.breaks import discipline_of


def _blue():
    # blue "u": u/1 its commander (Discipline 8) retired in disgrace this turn, u/2 a trooper
    # (the unit's Discipline 7); red "r" only to have an enemy on the table
    return rnf_map(unit("u", "blue", (10, 10), 90, 2, 1,
                        models=[{"role": "commander", "profile": {"Discipline": 8},
                                 "status": ["disgraced"]}, {}]),
                   unit("r", "red", (10, 20), 270, 2, 1))


def test_the_disgraced_commander_left_alone_tests_on_the_units_discipline_from_the_unit():
    # only u/1 is left (u/2 removed): no living model lends Discipline, so the unit's
    # rank-and-file profile (u/2's 7) stands, and the source is the unit "u", not u/2
    assert discipline_of(_blue(), "u", {"u/1"}) == (7, "u")


def test_a_living_trooper_still_names_itself():
    # u/2 alive: its 7, named by its id (the disgraced commander's 8 does not count)
    assert discipline_of(_blue(), "u", {"u/1", "u/2"}) == (7, "u/2")
