"""Named limits on what a map file may hold (issue 11: bad input never crashes).

A map is data a person typed or measured; these bounds are far above any real
table and army, and keep every command's work and memory bounded: a map over
one of them is a map error (``file: place: what is wrong``, exit 2), never a
command that runs for hours or exhausts memory.  Each is a named default
(README, "Limits on a map file"); they are read by ``board/mapfile.py`` (file,
nesting) and ``board/schema.py`` / ``board/profile_values.py`` (numbers,
counts).  Distances are inches.
"""

from __future__ import annotations

__all__ = ["MAX_ABS_NUMBER", "MAX_ANGLE_DEG", "MAX_ATTACKS", "MAX_BASE_MM", "MAX_CHARACTERISTIC",
           "MAX_COORD_INCHES", "MAX_DECISIONS", "MAX_DICE", "MAX_MAP_BYTES", "MAX_MODELS",
           "MAX_NESTING", "MAX_POLYGON_POINTS", "MAX_RULE_COUNT", "MAX_SEED", "MAX_SUSTAINED_HITS",
           "MAX_TABLE_INCHES", "MAX_TERRAIN", "MAX_TEXT_CHARS", "MAX_UNIT_ATTACKS",
           "MAX_UNIT_MODELS", "MAX_WOUNDS"]

#: the largest map file read, in bytes: the biggest shipped map is 13 KB, a table of 1,000
#: models written one a line under 100 KB; a FIFO or a device is refused before this applies
MAX_MAP_BYTES = 4 * 1024 * 1024

#: how deeply arrays and tables may nest: a map's deepest real nesting is 6 (a weapon's
#: ``rules`` list in a unit of ``[[units]]``); deeper input is refused before it reaches
#: any recursive reader
MAX_NESTING = 16

#: models on one map (formations counted by the models they make): the window and the
#: snapshot are built for 1,000 (issue 11), a real game holds a few hundred
MAX_MODELS = 1000

#: models in one unit: the largest real units field a few dozen; a formation of more files
#: than this (``files``, ``ranks``, ``count``) is refused before its slots are made
MAX_UNIT_MODELS = 200

#: terrain pieces on one map, and points in one outline (a polygon or ``tall_part``)
MAX_TERRAIN = 500
MAX_POLYGON_POINTS = 1000

#: ``[[decisions]]`` entries on one map (a saved ``view --play`` run holds one per question)
MAX_DECISIONS = 10_000

#: every coordinate (a model, objective, rect centre, outline point) within this of the
#: table's origin, either sign: a model may stand off the table (``check`` reports it) but
#: not 1e308" away, where distances overflow
MAX_COORD_INCHES = 10_000.0

#: the table's width and depth, a rect's sides and every ``[rules]`` distance: no real table
#: is over 100 feet
MAX_TABLE_INCHES = 1200.0

#: a facing or a rect's angle, degrees, either sign (a full turn either way is enough)
MAX_ANGLE_DEG = 360.0

#: a base's longest side or diameter in millimetres (the largest hobby bases are 170 mm
#: ovals; a 2 m base is a typing slip)
MAX_BASE_MM = 2000.0

#: a weapon's or a profile's attacks (``A``, ``Attacks``) and a weapon's damage ``D``
#: written as a number; the largest real profiles have a few dozen
MAX_ATTACKS = 100

#: dice in one dice expression (``"10D6"``): the largest real attack profiles roll about
#: 10D6 (or 6D6 plus a few); ``check`` counts any number of dice in a blink (whole-number
#: counts, ``rules/engine/counts.faces_sum``), but ``fight --odds`` weighs every total of
#: them against every hit and wound roll: one model's 10D6 takes about 4 s of CPU, 20D6 20 s,
#: 100D6 over a minute and gigabytes, so more than this is refused as a typing slip
MAX_DICE = 10

#: a whole-number characteristic (``T``, ``S``, ``Ld``, ``M``, ``Skill``, ``Power``, ...); also
#: a weapon's ``AP`` either sign, and the N of a weapon rule ``"+N to hit"`` / ``"-N to wound"``
#: and ``"Duellist's Edge (N)"``: each only moves a D6 roll's target, so past 6 it changes
#: nothing, yet a few more (``"+7 to hit"`` shows the modifier cap) do no harm
MAX_CHARACTERISTIC = 99

#: the X of a weapon rule ``"Sustained Hits X"``, as a number or the largest a dice X rolls
#: (``"D3"`` 3, ``"D6"`` 6, ``"D3+1"`` 4): published weapons give 1, 2, 3 or D3, and every
#: Critical Hit makes X more hits that roll to wound, so ``"Sustained Hits 1000"`` turns 3
#: attacks into thousands of wound rolls (a ``check`` or ``fight`` of minutes)
MAX_SUSTAINED_HITS = 6

#: the most attacks a unit's models can make together: each fight-phase model's melee
#: weapon's ``A`` at its highest (``10D6`` counts 60) times 1 + X for ``Sustained Hits X``
#: (each hit may bring X more wound rolls), each rank-and-flank model's ``Attacks``.  The
#: exact odds and every roll weigh a count of that many dice: twenty models at 10D6 took
#: 94 s and 700 MB in ``fight --odds``, 60 attacks at Sustained Hits 6 over 90 s; no army
#: fields such a unit (30 models at 6 attacks is 180).  Checked by each ruleset's
#: ``profiles.check_profiles``.
MAX_UNIT_ATTACKS = 400

#: a profile's wounds (``W``, ``Wounds``) and a model's ``wounds_lost``
MAX_WOUNDS = 1000

#: a count option of ``[rules]`` (``coherency_neighbours``, ``target_selections_tried``,
#: ``rank_min_models``, ``roll_modifier_cap``)
MAX_RULE_COUNT = 1000

#: the largest dice seed, as ``[map] seed`` and every ``--seed``: a 63-bit whole number
MAX_SEED = 2 ** 63 - 1

#: any number anywhere in a map (a value no field reads is still a number): beyond this a
#: float loses its units and an int its meaning
MAX_ABS_NUMBER = 1e15

#: characters in one string of the map (a name, an id, a lesson's text)
MAX_TEXT_CHARS = 10_000
