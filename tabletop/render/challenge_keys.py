"""The draw keys of the challenge steps (``render.challenges`` draws them), worked out from
the challenge events: the gambit challenge's pair set aside (``set_aside``), its Face-Off,
Focus, Strike and Glory, the models returning, a Disgraced model, and a character
challenge's duellists brought face to face and their combat score.

``EVENT_KEYS`` maps event class -> ``fn(draw, event, facts)`` (``step_draw.StepFacts``);
``step_draw.EVENT_DRAWS`` includes it.  The gold ring of a character duel is chosen here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.rules import events as E

DUEL_HIGHLIGHT = "gold"
"""Named default: the ring round the two duellists of a character challenge."""


def _set_aside_at(f) -> tuple[Any, int] | tuple[None, int]:
    """The gambit challenge under way: its ``set_aside`` event and that event's index."""
    for k in range(len(f.history) - 1, -1, -1):
        if isinstance(f.history[k], E.SetAside):
            return f.history[k], k
    return None, 0


def _challenge(d: dict, f) -> Any:
    """``challenge`` (the pair set aside beside the combat: the models as set aside with the
    Wounds they lost since, where they are drawn, who was removed) and ``focus`` (points to
    keep in view), first in ``d``; returns the ``set_aside`` event (None outside a challenge)."""
    sa, k = _set_aside_at(f)
    if sa is None or "challenge" in d:
        return sa
    since = f.history[k + 1:]
    pair = list(sa.models)
    removed = [e.model for e in since if isinstance(e, E.Removed) and e.model in pair]
    lost = {m: sum(e.lost for e in since if isinstance(e, E.Wounds) and e.model == m) for m in pair}
    models = {}
    for mid in pair:
        m = f.last_seen(mid)
        if m is not None:
            models[mid] = replace(m, wounds_lost=m.wounds_lost + lost[mid]) if lost[mid] else m
    pts = [list(p) for p in sa.aside.values()] + [[m.x, m.y] for m in models.values()]
    if sa.box:
        x0, y0, x1, y1 = sa.box
        pts += [[x0, y0], [x1, y1]]
    pts += [[m.x, m.y] for uid in sa.combat if f.state.has_unit(uid) for m in f.state.unit(uid).models]
    d["challenge"] = {"challenger": pair[0], "challenged": pair[1], "combat": list(sa.combat),
                      "models": models, "aside": dict(sa.aside), "box": sa.box,
                      "removed": removed, "players": list(sa.players)}
    d["focus"] = pts
    return sa


def _round_gambits(f) -> dict[str, str]:
    """The gambits of the round under way: the last ``gambit_chosen`` of each player."""
    out: dict[str, str] = {}
    for e in f.history:
        if isinstance(e, E.SetAside):
            out = {}
        elif isinstance(e, E.GambitChosen):
            out[e.player] = e.gambit
    return out


def _set_aside(d: dict, ev: Any, f) -> None:
    _challenge(d, f)


def _gambit_chosen(d: dict, ev: Any, f) -> None:
    _challenge(d, f)
    d.setdefault("gambits", {})[ev.player] = ev.gambit
    d.setdefault("banned", [])
    if ev.first:
        d["first"] = ev.player


def _gambit_banned(d: dict, ev: Any, f) -> None:
    d.setdefault("banned", []).append(ev.gambit)


def _advantage(d: dict, ev: Any, f) -> None:
    sa = _challenge(d, f)
    d["gambits"] = _round_gambits(f)
    d["focus_roll"] = ev.rolls
    d["advantage"] = ev.player
    if sa is not None:
        support = {}
        for e in f.history:
            if isinstance(e, E.OutsideSupport) and e.player in sa.players:
                support[e.player] = {"bonus": e.bonus, "models": list(e.models)}
        d["support"] = {p: support[p] for p in sa.players if p in support}


def _wounds(d: dict, ev: Any, f) -> None:
    _challenge(d, f)
    if "blows" not in d:
        d["gambits"] = _round_gambits(f)
        adv = f.latest(E.ChallengeAdvantage)
        d["advantage"] = adv.player if adv is not None else None
        d["blows"] = {}
    d["blows"][ev.by] = {"attacks": ev.attacks, "hits": ev.hits, "wounds": ev.wounds,
                         "unsaved": ev.unsaved, "damage": ev.lost}


def _result(d: dict, ev: Any, f) -> None:
    if "rounds" in ev:                          # a gambit challenge's Glory
        _challenge(d, f)
        d["points"] = {ev.winner: ev.points} if ev.winner else {}
        d["reason"] = ev.reason
        return
    if "scores" not in ev:
        return
    pair: list[str] = []                        # the round's duellists, as the rules read them
    for e in f.history:
        if isinstance(e, E.ChallengeContinues):
            pair = list(e.models)
        elif isinstance(e, E.ChallengeIssued):
            pair = [e.challenger]
        elif isinstance(e, E.ChallengeAccepted) and len(pair) == 1:
            pair.append(e.challenged)
    eng = f.latest(E.Engagement)
    units = list(eng.units) if eng is not None else []
    d["challenge"] = {"challenger": pair[0] if pair else None,
                      "challenged": pair[1] if len(pair) > 1 else None, "combat": units}
    d["scores"] = dict(ev.scores)
    d["overkill"] = {ev.winner: ev.overkill} if ev.winner and ev.overkill else {}
    d["rnf_casualties"] = list(ev.removed)
    base = f.state
    d["focus"] = [[x.x, x.y] for u in units if base.has_unit(u) for x in base.unit(u).models] + \
        [[base.model(x).x, base.model(x).y] for x in pair if _on(base, x)]


def _on(state, mid) -> bool:
    try:
        state.model(mid)
    except KeyError:
        return False
    return True


def _refused(d: dict, ev: Any, f) -> None:
    issued = f.latest(E.ChallengeIssued)
    challenger = issued.challenger if issued is not None else None
    d["challenge"] = {"challenger": challenger, "combat": list(issued.combat) if issued else []}
    d["disgraced"] = [ev.disgraced]
    if "swapped_with" in ev:                    # a character challenge: the two swapped places
        a, b = ev.swapped_with, ev.disgraced
        if a is not None and _on(f.state, a) and _on(f.state, b):
            pa, pb = f.state.model(a).at, f.state.model(b).at
            d["arrows"] = {a: [list(pb), list(pa)], b: [list(pa), list(pb)]}
        else:
            d["arrows"] = {}
    else:
        d["focus"] = [list(f.state.model(x).at) for x in (challenger, ev.disgraced) if _on(f.state, x)]


def _contact(d: dict, ev: Any, f) -> None:
    """A character challenge's duellists brought face to face: an arrow for each model that
    moved, its start ghosted, the two ringed."""
    issued = f.latest(E.ChallengeIssued)
    accepted = f.latest(E.ChallengeAccepted)
    duellists = list(ev.models)
    before = {m: tuple(xy) for m, xy in ev.start.items()}
    arrows = {m: [list(before[m]), list(f.state.model(m).at)] for m in duellists
              if m in before and _on(f.state, m) and before[m] != f.state.model(m).at}
    for m, partner in (ev.moved or {}).items():
        arrows[partner] = [list(f.state.model(m).at), list(f.state.model(partner).at)]
    ghosts = {m: [*before[m], f.state.model(m).facing_deg] for m in arrows if m in before}
    d["challenge"] = {"challenger": issued.challenger if issued else duellists[0],
                      "challenged": accepted.challenged if accepted else duellists[1],
                      "combat": list(issued.combat) if issued else [],
                      "treated_in_contact": ev.treated_in_contact}
    d["arrows"] = arrows
    d["ghosts"] = ghosts
    d["highlight"] = {m: DUEL_HIGHLIGHT for m in duellists}


def _returned(d: dict, ev: Any, f) -> None:
    back = d.setdefault("returned", {})
    if _on(f.state, ev.model):
        back[ev.model] = {"at": list(f.state.model(ev.model).at), "from": list(ev.origin)}
    d["focus"] = [v["at"] for v in back.values()] + [v["from"] for v in back.values()]


EVENT_KEYS = {
    E.SetAside: _set_aside,
    E.GambitChosen: _gambit_chosen,
    E.GambitBanned: _gambit_banned,
    E.ChallengeAdvantage: _advantage,
    E.Wounds: _wounds,
    E.ChallengeResult: _result,
    E.ChallengeRefused: _refused,
    E.ChallengeContact: _contact,
    E.Returned: _returned,
}
"""Challenge event class -> ``fn(draw, event, facts)``."""
