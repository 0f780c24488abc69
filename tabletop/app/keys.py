"""The window's keys and mouse: one table, read by the key handler, the help overlay and
the README test.

``BINDINGS`` lists every input the window takes, in the order the help shows
them: ``label`` as the README's table writes it (keys in backticks), ``does``
in words, and ``keys``: the key names the window maps to an action of
``App`` (``action_for``).  Mouse rows and the ``--play`` question keys (the
question panel takes those first, ``app.play``) carry no keys here.

``tests/test_app_keys.py`` checks that the README's key table is this table
row for row, and that every action named here is one the window has, so the
README, the help and the window cannot drift apart.

A key name is ``pygame.key.name`` of the key, a letter upper-cased when shift
is held (``v`` / ``V``); a shifted letter without a row of its own does what
the letter does.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

__all__ = ["BINDINGS", "Binding", "action_for", "help_entries", "key_name", "readme_rows"]


@dataclass(frozen=True)
class Binding:
    """One row of the key table.

    Attributes
    ----------
    label : str
        The input as the README writes it (markdown: keys in backticks).
    does : str
        What it does, in words (markdown as in the README).
    keys : tuple of (str, str)
        (key name, ``App`` action name) pairs the key handler dispatches.
    """

    label: str
    does: str
    keys: tuple[tuple[str, str], ...] = ()

    @property
    def plain_label(self) -> str:
        """``label`` without markdown backticks (as the help overlay shows it)."""
        return self.label.replace("`", "")

    @property
    def plain_does(self) -> str:
        return self.does.replace("`", "")


BINDINGS: tuple[Binding, ...] = (
    Binding("left click", "select a model and its unit; the panel shows its id, base, profile, "
            "weapons, wounds lost and the edge-to-edge distance to the nearest enemy model and "
            "objective (empty table: clear)"),
    Binding("left drag on the table", "ruler; snaps edge to edge to a base it starts or ends on; "
            "inches to 0.01\""),
    Binding("shift + left drag", "ruler, even starting from the selected model"),
    Binding("left drag a selected model", "move it; the distance moved shows live; a drop onto "
            "another base is refused and it goes back (off in a step-through)"),
    Binding("right drag / arrow keys", "pan",
            (("left", "pan_left"), ("right", "pan_right"), ("up", "pan_up"), ("down", "pan_down"))),
    Binding("mouse wheel", "zoom about the cursor"),
    Binding("`f`", "fit the table in the window", (("f", "fit"),)),
    Binding("`l`", "show or hide the legend under the board", (("l", "toggle_legend"),)),
    Binding("`o`", "cycle overlays: none, each alone (contact, engagement, coherency, overlaps, "
            "off-table, objectives), all", (("o", "cycle_overlays"),)),
    Binding("`g`", "range rings round the selected unit, the outline of each base grown by the "
            "distance: 1\", 2\", 3\", 6\", its Move, its charge reach, off",
            (("g", "ring_next"),)),
    Binding("`G`", "type a ring distance in inches (digits and `.`), `Enter` draws it, `Esc` "
            "cancels", (("G", "ring_type"),)),
    Binding("`b`", "rings round the selected model's base alone / round its whole unit",
            (("b", "ring_around"),)),
    Binding("`c`", "charge mode for the selected unit (again: leave): each enemy unit in reach "
            "marked with its odds; hover one for its path, distance, roll needed and odds; click "
            "to declare it a target (again: undeclare; several: the farthest decides); the "
            "landing ghosted, the plan and the fight that follows (sampled run by run) in the "
            "panel", (("c", "charge_mode"),)),
    Binding("`C`", "charge mode: shade the table by the odds of a charge ending there "
            "(worked out a piece a frame, once per unit and table; Esc cancels) / stop",
            (("C", "charge_shade"),)),
    Binding("`e`", "the table editor (again: leave): place terrain from templates, objectives, "
            "zones and units, move, turn, mirror, save (its keys: `tabletop edit`)",
            (("e", "edit"),)),
    Binding("`u`", "undo the last move (also back past a reload)", (("u", "undo"),)),
    Binding("`v` / `V`", "check the selected unit's dragged models as a pile-in / a consolidation "
            "from where the map put them (12.03 / 12.08): broken clauses listed, offenders "
            "ringed red", (("v", "check_pile_in"), ("V", "check_consolidation"))),
    Binding("`s`", "save to a new file beside the map (never overwrites); with `--play`: the run "
            "- the map as read, its seed and every answer as `[[decisions]]` - which "
            "`tabletop fight` replays", (("s", "save"),)),
    Binding("`r`", "reload the map from disk, checked as every command checks a map "
            "(`tabletop check`'s lines: schema, profiles and weapons, the ruleset's own profile "
            "checks, shapes); a bad file shows its problems and keeps the board; asks first "
            "when moves are unsaved", (("r", "reload"),)),
    Binding("`a`", "load the autosave beside the map (`<map>.autosave.toml`, or the per-user "
            "folder's when the map's folder cannot be written; offered on opening when it is "
            "newer than the map; checked as `r` checks the map)",
            (("a", "load_autosave"),)),
    Binding("`y` / `n`", "answer the panel's question: quit, reload or close with unsaved moves"),
    Binding("`n` / `p`", "next / previous step of a resolved phase (`--fight`)",
            (("n", "next_step"), ("p", "prev_step"))),
    Binding("`z`", "step-through: frame each step round its action (on by default) / leave the "
            "view alone", (("z", "toggle_follow"),)),
    Binding("`1`-`9` / `Enter` / `d`", "`--play`: answer the open question with option k / the "
            "default / the default for this and every later question"),
    Binding("click a ringed model or its number", "`--play`: answer with the option that names it"),
    Binding("`h`", "show or hide the help (when it needs more than one page, `h` turns them)",
            (("h", "help"),)),
    Binding("`Esc`", "close the help, cancel a typed ring distance, a drag in progress or the "
            "charge odds shading being worked out, leave charge mode, else quit (asking first when moves are unsaved)", (("escape", "escape"),)),
    Binding("`q`", "quit (asks first when moves are unsaved, saying where they stay: the "
            "autosave, or no file when none can be written; with "
            "`--play`, asks first while answers you gave are not saved with `s`: they stay in "
            "`<map>.play-autosave.toml`, written after each answer, which `tabletop fight` "
            "replays)",
            (("q", "quit"),)),
)

_ACTIONS = {name: action for b in BINDINGS for name, action in b.keys}


def key_name(event) -> str:
    """The table's name for a KEYDOWN event: ``pygame.key.name``, a letter in upper case
    when shift is held or the event typed an upper-case letter."""
    name = pygame.key.name(event.key)
    if len(name) == 1 and name.isalpha():
        shift = bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)
        if shift or getattr(event, "unicode", "").isupper():
            return name.upper()
    return name


def action_for(event) -> str | None:
    """The ``App`` action a KEYDOWN event is bound to, or None.  A shifted letter with no
    row of its own (``F``) does what the letter does."""
    name = key_name(event)
    return _ACTIONS.get(name) or _ACTIONS.get(name.lower())


def actions() -> set[str]:
    """Every action name the table dispatches."""
    return set(_ACTIONS.values())


def help_entries() -> list[tuple[str, str]]:
    """(input, what it does) for the help overlay, without markdown."""
    return [(b.plain_label, b.plain_does) for b in BINDINGS]


def readme_rows() -> list[tuple[str, str]]:
    """(input, does) as the README's key table writes them (markdown)."""
    return [(b.label, b.does) for b in BINDINGS]


def readme_table() -> str:
    """The README's key table (markdown), generated from ``BINDINGS``."""
    lines = ["| input | does |", "| --- | --- |"]
    lines += [f"| {a} | {b} |" for a, b in readme_rows()]
    return "\n".join(lines)
