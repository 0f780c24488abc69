"""One readable line per challenge event, for the text output of ``fight`` (see ``event_text``)."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.events import Event


def _r(ev: Event) -> str:
    return f"  ({ev.rule})" if ev.rule else ""


def _result(ev: Event) -> str:
    d = ev.data
    if d.get("winner") is None:
        why = d.get("reason") or "neither wins"
        return f"  challenge: a draw ({why}){_r(ev)}"
    text = f"  challenge won by {d['winner']}"
    if d.get("winner_model"):
        text += f" ({d['winner_model']})"
    if d.get("removed"):
        text += f"; removed {', '.join(d['removed'])}"
    text += f"; {d.get('points')} combat resolution point{'s' if d.get('points') != 1 else ''}"
    if d.get("reason"):
        text += f" ({d['reason']})"
    if d.get("overkill"):
        text += f", overkill +{d['overkill']} counted"
    return text + _r(ev)


FORMATS: dict[str, Callable[[Event], str]] = {
    "challenge_issued": lambda ev: f"{ev['player']} issues a challenge with {ev['challenger']}{_r(ev)}",
    "challenge_accepted": lambda ev: (f"  {ev['player']} accepts with {ev['challenged']}"
                                      f"{' (it cannot refuse)' if ev.get('forced') else ''}{_r(ev)}"),
    "challenge_refused": lambda ev: (f"  {ev['player']} refuses: {ev['disgraced']} is Disgraced"
                                     f"{' (swaps places with ' + ev['swapped_with'] + ')' if ev.get('swapped_with') else ''}"
                                     f"{_r(ev)}"),
    "cannot_refuse": lambda ev: f"  {ev['model']} cannot refuse: {ev.get('reason')}{_r(ev)}",
    "challenge_contact": lambda ev: (
        f"  {' and '.join(ev['models'])}: "
        + ("treated as in base contact (the table does not allow it)" if ev.get("treated_in_contact")
           else ("moved into base contact: " + ", ".join(f"{a} swaps with {b}" for a, b in ev["moved"].items())
                 if ev.get("moved") else "already in base contact")) + _r(ev)),
    "set_aside": lambda ev: f"  {' and '.join(ev['models'])} are set aside, out of play{_r(ev)}",
    "outside_support": lambda ev: (f"  outside support for {ev['player']}: {len(ev['models'])} models counted "
                                   f"({ev['counted']}) -> +{ev['bonus']}{_r(ev)}"),
    "gambit_chosen": lambda ev: (f"  round {ev.get('round')}: {ev['player']} chooses {ev['gambit']}"
                                 f"{' (first)' if ev.get('first') else ''}{_r(ev)}"),
    "gambit_banned": lambda ev: f"  {ev['player']} names {ev['gambit']}: the opponent cannot choose it{_r(ev)}",
    "weapon_chosen": lambda ev: f"  {ev['player']}: {ev['model']} fights with the {ev['weapon']}{_r(ev)}",
    "challenge_advantage": lambda ev: (f"  Challenge Advantage: {ev['player']} "
                                       f"({', '.join(f'{p} {t}' for p, t in ev['totals'].items())}"
                                       f"{', ' + str(ev['rerolls']) + ' tie re-roll(s)' if ev.get('rerolls') else ''})"
                                       f"{_r(ev)}"),
    "strike_profile": lambda ev: (f"  {ev['model']} strikes with WS {ev['WS']}, A {ev['A']}, S {ev['S']}, "
                                  f"AP {ev['AP']}, D {ev['D']}"
                                  f"{' - ' + '; '.join(ev['notes']) if ev.get('notes') else ''}"),
    "wounds": lambda ev: (f"    {ev['by']} -> {ev['model']}: {ev['hits']} hits, {ev['wounds']} wounds, "
                          f"{ev['unsaved']} unsaved, {ev['lost']} Wounds lost ({ev['wounds_left']} left)"),
    "prolong": lambda ev: (f"  a draw: {ev['player']} {'prolongs the challenge' if ev['value'] else 'moves to Glory'}"
                           f"{_r(ev)}"),
    "challenge_result": _result,
    "killing_blow": lambda ev: f"    {ev['model']}: {ev['count']} Killing Blow(s), {ev['wounds_each']} wounds each",
    "returned": lambda ev: (f"  {ev['model']} returns at ({ev['at'][0]:.2f}, {ev['at'][1]:.2f})"
                            f"{', engaged' if ev.get('engaged') else ''}{' - ' + ev['note'] if ev.get('note') else ''}"
                            f"{_r(ev)}"),
    "challenge_points": lambda ev: (f"  combat resolution from challenges: "
                                    f"{', '.join(f'{p} {n}' for p, n in ev['points'].items()) or 'none'}{_r(ev)}"),
    "challenge_continues": lambda ev: f"  the challenge {' v '.join(ev['models'])} goes on{_r(ev)}",
    "challenge_continues_next_round": lambda ev: (f"  both survive: {' v '.join(ev['models'])} fight on "
                                                  f"next round{_r(ev)}"),
    "no_challenge": lambda ev: f"  no challenge: {ev.get('reason')}",
    "status_removed": lambda ev: f"  {ev['model']} is no longer {ev['status']}: {ev.get('reason')}{_r(ev)}",
}
