"""Error types shared by every layer.

Errors are ``ValueError`` subclasses split by cause, after python-chess.  Each
carries a list of one-line problems (``file: place: what is wrong``) so the
command line can print all of them at once and exit with status 2.
"""

from __future__ import annotations

import functools
import re


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


#: the characters ``printable`` escapes besides the C0/C1 control codes and DEL: the Unicode
#: line and paragraph separators and the bidirectional overrides a terminal acts on
_ALSO_ESCAPED = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@functools.lru_cache(maxsize=16)
def _unsafe_pattern(keep: str) -> re.Pattern[str]:
    """One character class of what ``printable`` escapes (the C0 and C1 control codes, DEL,
    ``_ALSO_ESCAPED``), less the characters of ``keep``: a regular-expression scan of a 20 MB JSON report takes milliseconds where a
    character-by-character Python loop took seconds."""
    chars = [chr(o) for o in (*range(0x20), *range(0x7f, 0xa0))] + sorted(_ALSO_ESCAPED)
    return re.compile("[" + "".join(re.escape(c) for c in chars if c not in keep) + "]")


def printable(text: object, keep: str = "") -> str:
    """``text`` with every control character escaped, for printing what a map or an argument says.

    A name or an id may hold terminal control codes (ESC clears the screen) or a newline (it
    would split a one-line message): each such character becomes ``\\u001b``-style text,
    which a terminal shows as written and which stays valid inside a JSON string.  ``keep``
    lists characters left alone (the printer's own ``"\\n"`` between lines).  Every message
    the command line prints goes through this one helper (``cli.main``).
    """
    s = str(text)
    pattern = _unsafe_pattern(keep)
    if pattern.search(s) is None:
        return s
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


#: named default: the longest quoted map string (a name, an id, a value) an error line echoes
#: whole, in characters.  A longer one (a pasted 20,000-character name) is cut to its first
#: ``ECHO_KEEP`` characters, "…" and its length, so the line stays one readable line that
#: still shows which string it was; 80 is a terminal's width, the most a reader takes in.
MAX_ECHO_CHARS = 80
#: the characters of a cut string kept at its start (see ``MAX_ECHO_CHARS``)
ECHO_KEEP = 60

# a quoted string as ``repr`` writes it, opening after a space, a bracket, "=" or the line
# start and closing before a space, punctuation or the line end (an apostrophe inside a word,
# "the table's corner", opens nothing)
_QUOTED = re.compile(r"""(?:(?<=^)|(?<=[\s(\[{=,:]))(['"])((?:\\.|(?!\1).)*)\1(?=$|[\s)\]},.:;])""")


def shorten_echoes(line: str) -> str:
    """``line`` with every quoted string over ``MAX_ECHO_CHARS`` characters cut to its start,
    "…" and how long it was: ``got 'xxxx…' (20,000 characters)``.  Used where the command
    line prints error lines (``cli.main``); shorter strings and the rest of the line are
    left as they are."""
    if len(line) <= MAX_ECHO_CHARS:
        return line

    def cut(m: re.Match[str]) -> str:
        q, body = m.group(1), m.group(2)
        if len(body) <= MAX_ECHO_CHARS:
            return m.group(0)
        return f"{q}{body[:ECHO_KEEP]}…{q} ({len(body):,} characters)"

    return _QUOTED.sub(cut, line)


#: named default: the most problem lines a command prints for one error.  A file of a
#: million bad entries would otherwise print a million lines; the first ``MAX_ERROR_LINES``
#: are printed and one more line says how many were left out.  50 fills a screen or two, and
#: fixing the first ones usually fixes the rest.
MAX_ERROR_LINES = 50


def capped(lines: list[str], limit: int | None = None, what: str = "problem") -> list[str]:
    """The first ``limit`` (default ``MAX_ERROR_LINES``) of ``lines``, and when there were
    more, a last line that names the file of the first one left out, as every error line
    does: ``file: ... and N more problems (only the first 50 are shown: MAX_ERROR_LINES)``.
    ``what`` names the lines in that last one (``"warning"``: ``... and N more warnings``)."""
    limit = MAX_ERROR_LINES if limit is None else limit
    if len(lines) <= limit:
        return list(lines)
    left = len(lines) - limit
    first_left = lines[limit]
    head = first_left.split(": ", 1)[0] + ": " if ": " in first_left else ""
    return list(lines[:limit]) + [f"{head}... and {left:,} more {what}{'s' if left != 1 else ''} "
                                  f"(only the first {limit} are shown: MAX_ERROR_LINES)"]
