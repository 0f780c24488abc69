"""The challenge sub-systems' event types (character and gambit challenges); fields as in
docs/json.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tabletop.rules.events.base import ABSENT, Absent, Event

__all__ = [
    "Wounds", "ChallengeIssued", "ChallengeAccepted", "ChallengeRefused",
    "CannotRefuse", "NoChallenge", "ChallengeContact", "ChallengeContinues",
    "ChallengeContinuesNextRound", "SetAside", "OutsideSupport", "WeaponChosen", "GambitChosen",
    "GambitBanned", "ChallengeAdvantage", "StrikeProfile", "Prolong", "ProlongLimit",
    "ChallengeResult", "ChallengePoints", "Returned", "StatusRemoved",
]


@dataclass(frozen=True, kw_only=True)
class Wounds(Event):
    """A challenge Strike step's wounds on a duellist"""

    type: ClassVar[str] = "wounds"
    model: str
    by: str
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    lost: int
    wounds_left: int


@dataclass(frozen=True, kw_only=True)
class ChallengeIssued(Event):
    """A character issues a challenge"""

    type: ClassVar[str] = "challenge_issued"
    player: str
    challenger: str
    combat: list[Any]


@dataclass(frozen=True, kw_only=True)
class ChallengeAccepted(Event):
    """It is accepted"""

    type: ClassVar[str] = "challenge_accepted"
    player: str
    challenged: str
    forced: bool | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class ChallengeRefused(Event):
    """It is refused"""

    type: ClassVar[str] = "challenge_refused"
    player: str
    disgraced: str
    swapped_with: str | Absent = ABSENT
    at: list[Any] | Absent = ABSENT
    WS: int | Absent = ABSENT
    Ld: int | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class CannotRefuse(Event):
    """A character must accept"""

    type: ClassVar[str] = "cannot_refuse"
    model: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class NoChallenge(Event):
    """Nobody issued a challenge"""

    type: ClassVar[str] = "no_challenge"
    reason: str


@dataclass(frozen=True, kw_only=True)
class ChallengeContact(Event):
    """The duellists brought into base contact"""

    type: ClassVar[str] = "challenge_contact"
    models: list[Any]
    moved: dict[str, Any]
    treated_in_contact: bool
    start: dict[str, Any]
    reason: str | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class ChallengeContinues(Event):
    """A challenge goes on from an earlier round"""

    type: ClassVar[str] = "challenge_continues"
    models: list[Any]


@dataclass(frozen=True, kw_only=True)
class ChallengeContinuesNextRound(Event):
    """It will go on next round"""

    type: ClassVar[str] = "challenge_continues_next_round"
    models: list[Any]


@dataclass(frozen=True, kw_only=True)
class SetAside(Event):
    """Duellists set aside (gambit challenge)"""

    type: ClassVar[str] = "set_aside"
    models: list[Any]
    combat: list[Any]
    players: list[Any]
    aside: dict[str, Any]
    box: list[Any] | None


@dataclass(frozen=True, kw_only=True)
class OutsideSupport(Event):
    """Outside support counted"""

    type: ClassVar[str] = "outside_support"
    player: str
    bonus: int
    models: list[Any]
    counted: str


@dataclass(frozen=True, kw_only=True)
class WeaponChosen(Event):
    """A duellist's weapon"""

    type: ClassVar[str] = "weapon_chosen"
    player: str
    model: str
    weapon: str


@dataclass(frozen=True, kw_only=True)
class GambitChosen(Event):
    """A gambit"""

    type: ClassVar[str] = "gambit_chosen"
    player: str
    gambit: str
    first: bool
    round: int


@dataclass(frozen=True, kw_only=True)
class GambitBanned(Event):
    """A gambit banned by Feint and Riposte"""

    type: ClassVar[str] = "gambit_banned"
    player: str
    gambit: str


@dataclass(frozen=True, kw_only=True)
class ChallengeAdvantage(Event):
    """The Focus Roll's winner"""

    type: ClassVar[str] = "challenge_advantage"
    player: str
    totals: dict[str, Any]
    rerolls: int
    rolls: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class StrikeProfile(Event):
    """A duellist's profile for the Strike step; precedence: the player whose gambit takes precedence when the two conflict (the Challenge Advantage holder as the round's Face-Off began, else the Active Player: always the Active Player in the first round)"""

    type: ClassVar[str] = "strike_profile"
    player: str
    model: str
    WS: int
    A: int
    S: int
    AP: int
    D: int
    notes: list[Any]
    precedence: str


@dataclass(frozen=True, kw_only=True)
class Prolong(Event):
    """Whether a drawn challenge goes on"""

    type: ClassVar[str] = "prolong"
    player: str
    value: bool


@dataclass(frozen=True, kw_only=True)
class ProlongLimit(Event):
    """The named default round limit reached"""

    type: ClassVar[str] = "prolong_limit"
    rounds: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class ChallengeResult(Event):
    """How the challenge ended"""

    type: ClassVar[str] = "challenge_result"
    winner: None | str
    winner_model: None | str | Absent = ABSENT
    removed: list[Any]
    points: int
    overkill: None | int
    reason: str | Absent = ABSENT
    withdrawn: None | str | Absent = ABSENT
    wounds_caused: dict[str, Any] | Absent = ABSENT
    rounds: int | Absent = ABSENT
    overkill_inflicted: int | Absent = ABSENT
    scores: dict[str, Any] | Absent = ABSENT
    inflicted: dict[str, Any] | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class ChallengePoints(Event):
    """Combat resolution points from challenges"""

    type: ClassVar[str] = "challenge_points"
    points: dict[str, Any]
    text: str


@dataclass(frozen=True, kw_only=True)
class Returned(Event):
    """A set-aside duellist returns to the table"""

    type: ClassVar[str] = "returned"
    model: str
    at: list[Any]
    engaged: bool
    unit_left: bool
    origin: list[Any]
    note: Any | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class StatusRemoved(Event):
    """A status such as disgraced ends"""

    type: ClassVar[str] = "status_removed"
    model: str
    status: str
    reason: str


CLASSES: tuple[type[Event], ...] = (
    Wounds, ChallengeIssued, ChallengeAccepted, ChallengeRefused, CannotRefuse, NoChallenge,
    ChallengeContact, ChallengeContinues, ChallengeContinuesNextRound, SetAside, OutsideSupport,
    WeaponChosen, GambitChosen, GambitBanned, ChallengeAdvantage, StrikeProfile, Prolong,
    ProlongLimit, ChallengeResult, ChallengePoints, Returned, StatusRemoved,
)
"""This module's event classes, in the order docs/json.md lists them."""
