"""Helpers for the fight-phase tests: build a state from TOML text, run parts of the phase's rows.

``context`` is a small mutable harness (table, FixedDice, decisions, log,
history) for tests that run one part of the phase: ``resolve_attacks`` (the
attack rows of one unit) and ``fight_step`` (the 12.04 rows, from the Fight
step to its end), both through the rules engine's driver.
"""

from __future__ import annotations

import textwrap
import tomllib

from tabletop.board import mapfile
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.engine import driver
from tabletop.rules.engine.machine import END, Machine, Row, goto
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase import decisions_policy
from tabletop.rules.fight_phase.actions import FightJob
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE
from tabletop.rules.fight_phase.context import FightMemo, FightOptions
from tabletop.rules.fight_phase.sequence import phase_rows

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


class Context:
    """A table, FixedDice, decisions, a log and the phase's history, for a part of the phase
    (also read as a ``PhaseView`` by the eligibility functions)."""

    def __init__(self, state, dice, decisions, log, options):
        self.state, self.dice, self.decisions, self.log = state, dice, decisions, log
        self.options = options if options is not None else FightOptions.from_rules(state.rules)
        self.selected = ()
        self.ever_eligible = frozenset()
        self.engaged_at_fight_start = frozenset()

    @property
    def geo(self):
        from tabletop.rules.fight_phase.context import geometry
        return geometry(self.state)

    @property
    def active(self):
        return self.state.active_player

    def other(self, player):
        return self.state.other_player(player)

    def alive(self, unit_id):
        return self.state.has_unit(unit_id)

    def run(self, rows, start, memo):
        machine = Machine(rows, start)
        st = machine.begin(self.state, memo)
        out = driver.run(machine, st, dice=self.dice, policy=decisions_policy(self.decisions),
                         log=self.log)
        self.state = out.state.battlefield
        self.selected = out.state.memo.selected
        return out


def context(state, faces=(), options: FightOptions | None = None, decisions=None) -> Context:
    log = EventLog()
    dice = FixedDice(list(faces), log)
    dec = decisions if decisions is not None else Decisions(state.decisions, log)
    if dec.log is None:
        dec.log = log
    return Context(state, dice, dec, log, options)


def resolve_attacks(ctx: Context, unit_id: str, rule: str = ATTACKS_RULE):
    """``unit_id`` makes its attacks (a normal fight's: the rows ``fight_attacks`` ..
    ``fight_done``) on ``ctx.state``."""
    player = ctx.state.unit(unit_id).player
    job = FightJob(unit_id, player, "test", END, kind="normal", rule=rule)
    return ctx.run(phase_rows(ctx.state.rules), "fight_attacks",
                   FightMemo(ctx.options, fighting=job))


def fight_step(ctx: Context, after_fight=None):
    """The Fight step's rows (12.04) on ``ctx.state``, to the end of the step;
    ``after_fight(battlefield, unit_id)`` may change the table after each fight."""
    rows = {r.name: r for r in phase_rows(ctx.state.rules)}
    rows["consolidate"] = Row("consolidate", "stop", "", lambda st: goto(st, END))
    if after_fight is not None:
        done = rows["fight_done"]

        def enter(st):
            unit_id = st.memo.fighting.unit
            t = done.enter(st)
            return type(t)(__import__("dataclasses").replace(
                t.state, battlefield=after_fight(t.state.battlefield, unit_id)), t.events)
        rows["fight_done"] = Row("fight_done", done.title, done.rule, enter)
    return ctx.run(rows, "fight", FightMemo(ctx.options))


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
