"""Error types shared by every layer.

Errors are ``ValueError`` subclasses split by cause, after python-chess.  Each
carries a list of one-line problems (``file: place: what is wrong``) so the
command line can print all of them at once and exit with status 2.
"""

from __future__ import annotations


class TabletopError(ValueError):
    """Base class: ``problems`` holds one line per problem."""

    def __init__(self, problems: str | list[str]):
        if isinstance(problems, str):
            problems = [problems]
        self.problems: list[str] = list(problems)
        super().__init__("\n".join(self.problems))


class MapSyntaxError(TabletopError):
    """The map file is missing, unreadable or not valid TOML."""


class MapValidationError(TabletopError):
    """The map file is valid TOML but does not describe a valid map."""


class IllegalMoveError(TabletopError):
    """A proposed move breaks a rule clause; each problem names the clause."""


class UnknownIdError(TabletopError):
    """An id given on the command line or in a decision names nothing on the map."""
