"""One reader for the JSON files tabletop takes in (New Recruit rosters, terrain-layout
JSON): every way ``json.loads`` can fail becomes one located line naming the file.

``json.loads`` raises ``JSONDecodeError`` for text that is not JSON, but also a plain
``ValueError`` for an integer of more than Python's 4,300 digits and ``RecursionError``
for arrays or objects nested thousands deep; both would otherwise end a command in a
traceback.  ``parse_json`` turns each into ``where: line L: what is wrong``.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["parse_json", "JsonTextError"]

_LONG_NUMBER = re.compile(r"\d{1000,}")


class JsonTextError(ValueError):
    """JSON text that cannot be read; the message is one line naming the file and line."""


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _deep_at(text: str) -> tuple[int, int]:
    """(deepest nesting, the position where it is reached), skipping strings."""
    depth = best = at = 0
    in_str = esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best, at = depth, i
        elif ch in "]}":
            depth -= 1
    return best, at


def parse_json(text: str, where: str) -> Any:
    """``text`` parsed as JSON.

    Raises
    ------
    JsonTextError
        ``where: line L column C: not valid JSON: ...`` for text that is not JSON;
        ``where: line L: a number of N digits ...`` for a number past Python's limit;
        ``where: line L: nested N deep ...`` for nesting past Python's recursion limit.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{where}: line {exc.lineno} column {exc.colno}: not valid JSON: "
                            f"{exc.msg}") from None
    except RecursionError:
        depth, pos = _deep_at(text)
        raise JsonTextError(f"{where}: line {_line(text, pos)}: arrays and objects nested "
                            f"{depth} deep; no roster or layout nests more than a few dozen"
                            ) from None
    except ValueError as exc:
        m = _LONG_NUMBER.search(text)
        if m is None:
            raise JsonTextError(f"{where}: cannot read: {exc}") from None
        raise JsonTextError(f"{where}: line {_line(text, m.start())}: a number of "
                            f"{len(m.group())} digits; no roster or layout value is that long"
                            ) from None
