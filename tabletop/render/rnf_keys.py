"""The draw keys of the rank-and-flank combat steps (``render.rank_and_flank`` draws them),
worked out from the round's events and the step's tables.

A step is read by the events it holds: ``unit_geometry`` (who attacks), ``wounds_pooled``
(the blows struck), ``combat_score``, ``break_test`` (a test, a crumble, a flight) and
``turned_to_face``/``turn_blocked``.  The keys (inches, degrees):

``rnf_units``   {unit: {player, edges, facing, front_centre, ranks, files, rank_bonus_ranks,
                 rank_models, touched: {side: [enemy units]}, disrupted, disrupted_reasons,
                 surrounded}}: each unit's formation on the step's table, its contacts as the
                 round's ``unit_geometry`` events give them (who attacks, blows, score) or as
                 the table now shows them (break tests, turning)
``rnf_attacks`` {model: {dice, kind, target, side}}   ``rnf_notes`` [str]
``rnf_casualties`` [model ids]   ``rnf_wounds`` {unit: {pool, removed, carried}}
``rnf_score``   {totals, breakdown, winner, difference}   ``rnf_break`` the break test's fields
``rnf_flee``    [{unit, from, to, direction, away_sides, distance, move, away_from, outcome,
                 reason}]
``rnf_turn``    [{unit, enemy, side, from, to, centre, end, turned, reason}]
``focus``       [[x, y]] the engagement's models as the round began; ``ghosts`` where units
                 that fled or turned stood
"""

from __future__ import annotations

from typing import Any

from tabletop.rules import events as E
from tabletop.rules.rank_and_flank import profiles as P


def unit_record(state, form, enemy_sides: dict[str, str], disrupted: bool, reasons: list[str],
                surrounded: bool) -> dict[str, Any]:
    """One unit's ``rnf_units`` record: its formation ``form`` on ``state`` and its contacts."""
    touched: dict[str, list[str]] = {}
    for e, s in enemy_sides.items():
        touched.setdefault(s, []).append(e)
    return {
        "player": form.player,
        "edges": {s: [list(a), list(b)] for s, (a, b) in form.edges().items()},
        "facing": round(form.facing_deg, 3),
        "front_centre": list(form.front_centre),
        "ranks": form.rank_count(None),
        "files": form.files(None),
        "rank_bonus_ranks": min(form.full_ranks_behind(P.rank_models(state, form.unit), None),
                                P.MAX_RANK_BONUS),
        "rank_models": P.rank_models(state, form.unit),
        "touched": touched,
        "disrupted": disrupted,
        "disrupted_reasons": reasons,
        "surrounded": surrounded,
    }


class _Round:
    """The round under way, read from the history: its units, the contacts as it began
    (``unit_geometry``), its attacks and the table as it began."""

    def __init__(self, f):
        self.units: list[str] = []
        self.sides: dict[str, Any] = {}
        self.attacks: dict[str, dict] = {}
        at = -1
        for k, e in enumerate(f.history):
            if isinstance(e, E.Engagement):
                self.units, self.sides, self.attacks = list(e.units), {}, {}
            elif isinstance(e, E.UnitGeometry):
                self.sides[e.unit], at = e, k
            elif isinstance(e, E.Attackers):
                for a in e.attacks:
                    self.attacks[a["model"]] = {"dice": a["dice"], "kind": a["kind"],
                                                "target": a["target"], "side": a.get("side")}
        # the table as the round began: that of the step that told its contacts
        self.state = next((st.state for st in f.log_steps if at in st.events), f.state)

    def focus(self) -> list[list[float]]:
        s = self.state
        return [[x.x, x.y] for u in self.units if s.has_unit(u) for x in s.unit(u).models]


def _records(f, units: list[str], sides: dict[str, Any] | None) -> dict[str, dict]:
    """``rnf_units`` for ``units`` on the step's table: contacts from ``sides`` (the round's
    ``unit_geometry`` events) or, when None, as the table shows them now."""
    out = {}
    for u in units:
        if not f.geo.unit_models(u):
            continue
        form = f.geo.formation(u)
        if sides is not None and u in sides:
            g = sides[u]
            out[u] = unit_record(f.state, form, dict(g.sides), g.disrupted, list(g.disrupted_reasons),
                                 g.surrounded)
        else:
            s = f.geo.sides(u)
            out[u] = unit_record(f.state, form, dict(s.enemy_sides), s.disrupted,
                                 list(s.disrupted_reasons), s.surrounded)
    return out


def _score(ev) -> dict:
    return {"totals": dict(ev.scores), "breakdown": ev.breakdown, "winner": ev.winner,
            "difference": ev.difference}


def _flight(ev) -> dict:
    if isinstance(ev, E.Fled):
        return {"unit": ev.unit, "from": list(ev.start), "to": list(ev.end),
                "direction": round(ev.direction, 3), "away_sides": ev.away_sides,
                "distance": round(ev.distance, 4), "move": ev.move, "away_from": list(ev.away_from),
                "outcome": "fled", "reason": ""}
    fl = ev.flight
    return {"unit": ev.unit, "from": list(fl["start"]), "to": list(fl["end"]),
            "direction": fl["direction"], "away_sides": fl["away_sides"], "distance": fl["distance"],
            "move": fl["move"], "away_from": list(fl["away_from"]), "outcome": "destroyed",
            "reason": ev.reason}


def _turn(ev) -> dict:
    if isinstance(ev, E.TurnedToFace):
        return {"unit": ev.unit, "enemy": ev.enemy, "side": ev.side, "from": ev.facing_before,
                "to": ev.facing_after, "centre": list(ev.centre), "turned": True, "reason": "",
                "end": list(ev.end)}
    return {"unit": ev.unit, "enemy": ev.enemy, "side": ev.side, "from": ev.facing,
            "to": ev.facing_wanted, "centre": list(ev.centre), "turned": False, "reason": ev.reason,
            "end": list(ev.centre)}


def _ghosts(f, units: set[str]) -> dict[str, list[float]]:
    """Where the models of ``units`` stood before the step."""
    return {x.id: [x.x, x.y, x.facing_deg] for u in f.before.units if u.id in units for x in u.models}


def step_keys(d: dict, f) -> None:
    """The rank-and-flank keys of a step (module docstring), by the events it holds."""
    evs = f.events
    geom = [e for e in evs if isinstance(e, E.UnitGeometry)]
    pooled = [e for e in evs if isinstance(e, E.WoundsPooled)]
    score = [e for e in evs if isinstance(e, E.CombatScore)]
    tests = [e for e in evs if isinstance(e, E.BreakTest)]
    turns = [e for e in evs if isinstance(e, (E.TurnedToFace, E.TurnBlocked))]
    if not (geom or pooled or score or tests or turns):
        return
    r = _Round(f)
    if geom:
        d["focus"] = [[x.x, x.y] for u in r.units if f.state.has_unit(u) for x in f.state.unit(u).models]
        d["rnf_units"] = _records(f, r.units, {g.unit: g for g in geom})
        d["rnf_attacks"] = dict(r.attacks)
        d["rnf_notes"] = [e.text for e in evs if isinstance(e, E.Note)]
    elif pooled:
        d["focus"] = r.focus()
        d["rnf_units"] = _records(f, r.units, r.sides)
        d["rnf_attacks"] = dict(r.attacks)
        units = pooled[-1].units
        d["rnf_casualties"] = [m for u in units.values() for m in u["removed"]]
        d["rnf_wounds"] = {u: {"pool": w["pool"], "removed": len(w["removed"]), "carried": w["carried"]}
                           for u, w in units.items()}
    elif score:
        d["focus"] = r.focus()
        d["rnf_units"] = _records(f, r.units, r.sides)
        d["rnf_score"] = _score(score[-1])
    elif tests:
        d["focus"] = r.focus()
        d["rnf_units"] = _records(f, r.units, None)
        last = f.latest(E.CombatScore)
        if last is not None:
            d["rnf_score"] = _score(last)
        d["rnf_break"] = tests[-1].data
        flights = [e for e in evs if isinstance(e, E.Fled) or (isinstance(e, E.Destroyed) and e.flight)]
        d["rnf_flee"] = [_flight(e) for e in flights]
        fled = {e.unit for e in flights if isinstance(e, E.Fled)}
        if fled:
            d["ghosts"] = _ghosts(f, fled)
    else:
        d["focus"] = r.focus()
        d["rnf_units"] = _records(f, r.units, None)
        d["rnf_turn"] = [_turn(e) for e in turns]
        turned = {e.unit for e in turns if isinstance(e, E.TurnedToFace)}
        if turned:
            d["ghosts"] = _ghosts(f, turned)
