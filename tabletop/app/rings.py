"""Range rings in the window: ``g`` cycles, ``G`` types a distance, ``b`` model or unit.

A ring is drawn round the selected model's unit (or, after ``b``, round the
selected model alone) as the outline of each base grown by the distance
(``geometry.rings``): true for ovals and rectangles, not a circle round the
centre.  ``g`` steps through ``RING_STEPS`` and then off:

- 1", 2", 3", 6" (``RING_DISTANCES_IN``);
- ``move``: the unit's Move characteristic, read as the project reads a
  unit's Move elsewhere (``cli/charge_cmd.py``, ``rank_and_flank/flee.py``):
  the lowest ``M`` / ``Move`` among its models;
- ``charge``: the farthest the ruleset's charge roll can reach, taken from
  ``rules/charge.py`` by walking every outcome of its ``charge_roll``
  (fight-phase: 2D6, so 12"; rank-and-flank: Move + the higher of 2D6, so
  Move + 6").

A step the unit cannot have (no Move characteristic) is skipped with a
message.  ``G`` starts typing: digits and ``.``, ``Backspace``, ``Enter``
draws the ring, ``Esc`` cancels; while typing, every key goes here.
Distances are inches.  Nothing here draws (``render.rings``) or measures
(``geometry.rings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tabletop.board.state import Battlefield, Model
from tabletop.geometry.rings import grown_models, ring_outlines
from tabletop.rules import charge as CH
from tabletop.rules.dice import enumerate_outcomes

__all__ = ["RING_AROUND", "RING_DISTANCES_IN", "RING_MAX_TYPED_IN", "RING_STEPS", "Ring",
           "RingTool", "charge_reach", "unit_move"]

RING_DISTANCES_IN = (1.0, 2.0, 3.0, 6.0)    # the fixed rings g steps through, inches
RING_STEPS = ("1", "2", "3", "6", "move", "charge")   # what g steps through, then off
RING_AROUND = "unit"            # rings round the selected model's whole unit ("model": its base alone)
RING_MAX_TYPED_IN = 120.0       # a typed distance above this is refused (longer than any table)
MOVE_KEYS = ("m", "move")       # profile keys read as the Move characteristic (any case)


@dataclass(frozen=True)
class Ring:
    """A ring to draw: the grown outline(s) in inches, its distance and its label."""

    distance: float
    label: str
    models: tuple[str, ...]
    outlines: tuple[tuple[tuple[float, float], ...], ...]
    shape: object       # the shapely (Multi)Polygon, for tests and measurement


def _number(v) -> float | None:
    try:
        return float(str(v).strip().rstrip('"').strip())
    except ValueError:
        return None


def unit_move(state: Battlefield, unit_id: str) -> float | None:
    """The unit's Move in inches: the lowest ``M``/``Move`` among its models; None when
    no model has one."""
    moves = [n for m in state.unit(unit_id).models for k, v in m.profile.items()
             if k.lower() in MOVE_KEYS and (n := _number(v)) is not None]
    return min(moves) if moves else None


@lru_cache(maxsize=64)
def charge_reach(ruleset: str, move: float | None) -> float | None:
    """The farthest a charge can go, inches: the largest value of ``rules.charge.charge_roll``
    over every dice outcome (fight-phase 12"; rank-and-flank Move + 6").  None for a
    rank-and-flank unit without a Move."""
    if ruleset == "rank-and-flank" and move is None:
        return None
    outcomes = enumerate_outcomes(lambda d: CH.charge_roll(d, ruleset, move or 0.0))
    return float(max(outcomes))


def _inches(d: float) -> str:
    return f'{d:g}"'


class RingTool:
    """The state of the ring tool: the step of ``g`` (None: off), a typed distance, the
    text being typed, model or unit."""

    def __init__(self) -> None:
        self.step: int | None = None
        self.typed: float | None = None
        self.buffer: str | None = None      # not None while typing
        self.around = RING_AROUND
        self._last: tuple[tuple, Battlefield, Ring | None] | None = None

    @property
    def on(self) -> bool:
        return self.step is not None or self.typed is not None

    @property
    def typing(self) -> bool:
        return self.buffer is not None

    def off(self) -> None:
        self.step = self.typed = self.buffer = None

    # ------------------------------------------------------------ keys
    def next(self, state: Battlefield | None, model_id: str | None) -> str:
        """``g``: the next ring of ``RING_STEPS`` the selected unit can have, or off after
        the last; returns what the panel should say."""
        if model_id is None:
            return "select a model first: g rings it (or its unit) at 1\", 2\", 3\", 6\", Move, charge"
        start = -1 if self.step is None or self.typed is not None else self.step
        self.typed = None
        skipped = []
        k = start + 1
        while k < len(RING_STEPS):
            self.step = k
            ring = self.ring(state, model_id)
            if ring is not None:
                note = f" ({'; '.join(skipped)})" if skipped else ""
                return f"ring: {ring.label} round {self.target_name(model_id)}{note}"
            skipped.append(f"no {RING_STEPS[k]} ring: {self._why_not(state, model_id)}")
            k += 1
        self.step = None
        note = f" ({'; '.join(skipped)})" if skipped else ""
        return "rings off" + note

    def start_typing(self, model_id: str | None) -> str:
        """``G``: start typing a distance."""
        if model_id is None:
            return "select a model first: G types a ring distance for it (or its unit)"
        self.buffer = ""
        return self.prompt()

    def prompt(self) -> str:
        return f'ring distance: {self.buffer}_ inches (Enter draws it, Esc cancels)'

    def type_key(self, name: str) -> tuple[bool, str | None]:
        """A key while typing (``keys.key_name``): (consumed, message or None).
        Digits and ``.`` (keypad too) add, ``backspace`` removes, ``return``/``enter``
        draws, ``escape`` cancels; other keys are ignored until then."""
        if self.buffer is None:
            return False, None
        ch = name[1:-1] if len(name) == 3 and name.startswith("[") else name
        if len(ch) == 1 and (ch.isdigit() or ch == "."):
            if ch != "." or "." not in self.buffer:
                self.buffer += ch
            return True, self.prompt()
        if name == "backspace":
            self.buffer = self.buffer[:-1]
            return True, self.prompt()
        if name == "escape":
            self.buffer = None
            return True, "ring distance cancelled"
        if name in ("return", "enter"):
            text, self.buffer = self.buffer, None
            d = _number(text) if text not in ("", ".") else None
            if d is None or not 0 < d <= RING_MAX_TYPED_IN:
                return True, (f"ring distance {text!r}: type a number of inches above 0 and at "
                              f"most {RING_MAX_TYPED_IN:g}")
            self.typed = d
            return True, f"ring: {_inches(d)}"
        return True, self.prompt()

    def toggle_around(self, model_id: str | None) -> str:
        """``b``: ring the selected model's base alone, or its whole unit."""
        self.around = "model" if self.around == "unit" else "unit"
        who = "the selected model's base alone" if self.around == "model" else "the selected unit"
        return f"rings round {who}" + ("" if model_id is None else f" ({self.target_name(model_id)})")

    def target_name(self, model_id: str) -> str:
        return model_id if self.around == "model" else model_id.rsplit("/", 1)[0]

    # ------------------------------------------------------------ the ring
    def _models(self, state: Battlefield, model_id: str) -> list[Model]:
        if self.around == "model":
            return [state.model(model_id)]
        return list(state.unit(model_id.rsplit("/", 1)[0]).models)

    def _distance(self, state: Battlefield, model_id: str) -> tuple[float, str] | None:
        if self.typed is not None:
            return self.typed, _inches(self.typed)
        if self.step is None:
            return None
        what = RING_STEPS[self.step]
        unit = model_id.rsplit("/", 1)[0]
        if what == "move":
            move = unit_move(state, unit)
            return None if move is None else (move, f"move {_inches(move)}")
        if what == "charge":
            reach = charge_reach(state.ruleset, unit_move(state, unit))
            return None if reach is None else (reach, f"charge {_inches(reach)}")
        d = RING_DISTANCES_IN[RING_STEPS.index(what)]
        return d, _inches(d)

    def _why_not(self, state: Battlefield, model_id: str) -> str:
        return f"{model_id.rsplit('/', 1)[0]} has no Move (M) in its profile"

    def ring(self, state: Battlefield | None, model_id: str | None) -> Ring | None:
        """The ring to draw round ``model_id`` (or its unit) in ``state``, or None (off,
        nothing selected, the model not in this state, no such characteristic)."""
        if state is None or model_id is None or not self.on:
            return None
        key = (model_id, self.step, self.typed, self.around)
        if self._last is not None and self._last[0] == key and self._last[1] is state:
            return self._last[2]
        ring = self._ring(state, model_id)
        self._last = (key, state, ring)
        return ring

    def _ring(self, state: Battlefield, model_id: str) -> Ring | None:
        try:
            state.model(model_id)
        except KeyError:
            return None
        got = self._distance(state, model_id)
        if got is None:
            return None
        d, label = got
        models = self._models(state, model_id)
        shape = grown_models(models, d)
        outlines = tuple(tuple(o) for o in ring_outlines(shape))
        return Ring(d, label, tuple(m.id for m in models), outlines, shape)
