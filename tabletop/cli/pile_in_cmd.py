"""``tabletop pile-in MAP UNIT -o OUT.toml [--json]``: one pile-in move (fight-phase.txt 12.03).

``tabletop pile-in MAP UNIT --check MOVED [--json]`` judges UNIT's positions
in MOVED as its pile-in from MAP instead (``move_check.py``): exit 0 legal,
1 with one line per broken clause, 2 bad input.

The solver makes the move, the validator checks it; prints each model's
move and distance and writes the map after it.  Exit 0 moved; 1 the unit is
not eligible (the reason) or no legal move exists (every broken clause); 2
bad input.  Targets come from the map's ``[[decisions]]`` (choice
``pile_in_targets``) or the default policy's search (every enemy unit within
5" first, then single units nearest first, ...: ``fight_phase/targets.py``);
the selections it tried are listed (``tried`` in ``--json``).
"""

from __future__ import annotations

from tabletop.cli.move_report import add_move_parser, run_move


def run(args) -> int:
    return run_move(args, "pile_in", "pile-in", "piles in")


def add_parser(sub) -> None:
    add_move_parser(sub, "pile-in", "make a unit's pile-in move and write the map after it", run)
