"""Numbers or dice in a profile: ``A`` and ``D`` (``3``, ``"D3"``, ``"2D6"``, ``"D6+1"``).

A D3 is a D6 halved, rounding up (``attacks.roll_amount`` rolls it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Amount", "DiceExpr", "parse_amount"]

_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(3|6)\s*(?:\+\s*(\d+))?\s*$")


@dataclass(frozen=True)
class DiceExpr:
    """``n`` dice of ``sides`` (3 or 6) plus ``plus``: ``"2D6+1"``."""

    n: int
    sides: int
    plus: int = 0

    def __str__(self) -> str:
        return f"{self.n if self.n != 1 else ''}D{self.sides}{f'+{self.plus}' if self.plus else ''}"


Amount = int | DiceExpr


def parse_amount(value: object) -> Amount:
    """A number or a dice expression (``3``, ``"D3"``, ``"2D6"``, ``"D6+1"``).

    Raises
    ------
    ValueError
        With a lowercase message showing the input.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return int(text)
        m = _DICE.match(text)
        if m:
            return DiceExpr(int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0))
    raise ValueError(f"must be a whole number or dice such as \"D3\" or \"D6+1\", got {value!r}")
