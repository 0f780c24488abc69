"""Helpers for the fight-phase tests: build a state from TOML text, run a phase context."""

from __future__ import annotations

import textwrap
import tomllib

from tabletop.board import mapfile
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase.context import FightOptions, PhaseContext

HEADER = """
[map]
name = "test"
ruleset = "fight-phase"
width = 30.0
depth = 20.0
{rules}
[[players]]
id = "red"
active = true

[[players]]
id = "blue"
"""

# Intercessor-like and ork-like profiles for hand-worked tests
RED = 'profile = { T = 4, Sv = 3, W = 2 }\nweapons = [{ name = "Blade", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]'
BLUE = 'profile = { T = 4, Sv = 3, W = 2 }\nweapons = [{ name = "Choppa", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]'


def state_from(units: str, rules: str = "", extra: str = ""):
    """A Battlefield from unit tables (TOML) under a 30" x 20" header."""
    text = HEADER.format(rules=rules) + textwrap.dedent(units) + textwrap.dedent(extra)
    return mapfile.from_dict(tomllib.loads(text), path="test.toml")


def context(state, faces=(), options: FightOptions | None = None, decisions=None) -> PhaseContext:
    log = EventLog()
    dice = FixedDice(list(faces), log)
    dec = decisions if decisions is not None else Decisions(state.decisions, log)
    if dec.log is None:
        dec.log = log
    return PhaseContext(state, dice, dec, log, options)


def unit(uid, player, models, charged=False, A=1, W=1, Sv=6, ff=False):
    """A [[units]] table of 32mm models at ``models`` (T4; a Blade A``A`` WS3 S4 AP0 D1, none if A=0)."""
    weapons = f'[{{ name = "Blade", A = {A}, WS = 3, S = 4, AP = 0, D = 1 }}]' if A else "[]"
    pts = ", ".join(f"[{x}, {y}]" for x, y in models)
    return f"""
[[units]]
id = "{uid}"
player = "{player}"
base = "32mm"
charged = {str(charged).lower()}
keywords = {'["fights-first"]' if ff else '[]'}
profile = {{ T = 4, Sv = {Sv}, W = {W} }}
weapons = {weapons}
models = [{pts}]
"""


def types(log) -> list[str]:
    return [e.type for e in log.events]
