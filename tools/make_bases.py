#!/usr/bin/env python3
"""Build the base-size table the roster import ships (``tabletop/data/bases.csv``).

Run from the repository root::

    python tools/make_bases.py [--reference DIR] [--check]

It reads ``base-sizes.csv`` (default ``reference/`` of the repository, or
``$TABLETOP_REFERENCE``) and writes two files:

- ``tabletop/data/bases.csv``: ``system, faction, unit, model, base, note, line, source``.
  ``system`` is ``40k``, ``old-world``, ``horus-heresy`` or ``whfb6``; ``base`` is the size
  as a map file writes it (``"32mm"``, ``"75x42mm oval"``, ``"25x50mm"`` frontage x depth),
  or empty when the source gives no size (``note`` then says what it gives: "Hull",
  "Large Flying Base", "Use model", ...); ``line`` is the row's line in base-sizes.csv and
  ``source`` an index into the second file.
- ``tabletop/data/base-sources.csv``: ``source, text``: each source once.

Which row a player would expect, when several name the same model (documented choices):

- 40K: the GW base size guide (June 2025) wins over the Wahapedia export for the same
  faction, unit and model: it is the one tournaments use.  Its "Unit: Model" names are split
  into unit and model; a Wahapedia model named as its unit is a unit-level row.
- The Old World: rows are kept as the army data gives them (riders carry 25x25 and their
  mounts the cavalry base); the roster import gives a mounted model its mount's base
  (``tabletop/roster/base_table.py``).
- 40K flying bases (``FLYING_BASE_SIZE``, named default): the GW guide names a "Large Flying
  Base" or "Small Flying Base" without its size.  Such a row takes the size the data export
  gives for the same unit (its "60mm flying base"), or, where the export has no row for that
  unit, the size the export gives most often to the units the guide puts on that base
  (Large 60mm, Small 32mm).  The note keeps the guide's name; the source names both.
- Every other duplicate: the first row.

``--check`` compares instead of writing (exit 1 when the shipped files differ).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = Path(os.environ.get("TABLETOP_REFERENCE", str(ROOT / "reference")))
OUT = ROOT / "tabletop" / "data"

SYSTEMS = {
    "Warhammer 40,000 10th ed": "40k",
    "Warhammer: The Old World": "old-world",
    "Horus Heresy (30k) per hobby guide": "horus-heresy",
    "Warhammer Fantasy Battle 6th ed": "whfb6",
}
GW_GUIDE = "GW \"Warhammer 40,000 Base Size Guide"

#: named default: the GW guide's size-less flying bases are given the data export's size
#: (a player puts the model on the base in its box: the export records that base)
FLYING_BASE_SIZE = ("Large Flying Base", "Small Flying Base")


def _num(text: str) -> str:
    value = float(text)
    return str(int(value)) if value == int(value) else str(value)


def base_text(shape: str, width: str, depth: str) -> str:
    """The map-file size for a reference row, or "" when it gives none."""
    if not width or not depth:
        return ""
    w, d = _num(width), _num(depth)
    if shape == "round":
        return f"{w}mm"
    if shape == "oval":
        return f"{w}x{d}mm oval"
    if shape in ("square", "rectangle"):
        return f"{w}x{d}mm"           # frontage x depth, as the map format reads it
    return ""


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def build(reference: Path) -> tuple[str, str]:
    """The text of bases.csv and base-sources.csv."""
    with open(reference / "base-sizes.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    sources: dict[str, int] = {}
    chosen: dict[tuple[str, str, str, str], dict[str, str]] = {}
    order: list[tuple[str, str, str, str]] = []
    for line, row in enumerate(rows, start=2):
        system = SYSTEMS.get(row["system"])
        if system is None:
            continue
        unit, model = row["unit"].strip(), row["model"].strip()
        if system == "40k" and not model and ": " in unit:
            unit, model = unit.split(": ", 1)
        if _key(model) == _key(unit):
            model = ""
        base = base_text(row["base_shape"], row["width_mm"], row["depth_mm"])
        note = "" if base else (row["raw_base_size"] or row["base_shape"])
        src = sources.setdefault(row["source"], len(sources) + 1)
        out = {"system": system, "faction": row["faction"].strip(), "unit": unit, "model": model,
               "base": base, "note": note, "line": str(line), "source": str(src)}
        key = (system, _key(out["faction"]), _key(unit), _key(model))
        old = chosen.get(key)
        if old is None:
            chosen[key] = out
            order.append(key)
        elif (system == "40k" and row["source"].startswith(GW_GUIDE)
              and not _source_text(sources, old["source"]).startswith(GW_GUIDE)):
            chosen[key] = out          # the GW guide wins over the data export
    _size_flying_bases(rows, chosen, sources)
    table = io.StringIO()
    w = csv.DictWriter(table, fieldnames=["system", "faction", "unit", "model", "base", "note",
                                          "line", "source"], lineterminator="\n")
    w.writeheader()
    for key in order:
        w.writerow(chosen[key])
    src_out = io.StringIO()
    sw = csv.writer(src_out, lineterminator="\n")
    sw.writerow(["source", "text"])
    for text, n in sources.items():
        sw.writerow([n, text])
    return table.getvalue(), src_out.getvalue()


def _size_flying_bases(rows: list[dict[str, str]], chosen: dict[tuple[str, str, str, str],
                       dict[str, str]], sources: dict[str, int]) -> None:
    """Give the GW guide's size-less flying-base rows a size (``FLYING_BASE_SIZE``)."""
    sized: dict[tuple[str, str, str, str], tuple[str, str]] = {}
    for row in rows:
        if SYSTEMS.get(row["system"]) != "40k" or row["source"].startswith(GW_GUIDE):
            continue
        base = base_text(row["base_shape"], row["width_mm"], row["depth_mm"])
        unit = row["unit"].strip()
        if base:
            key = ("40k", _key(row["faction"]), _key(unit), "")
            sized.setdefault(key, (base, row["source"]))
    counts: dict[str, dict[tuple[str, str], int]] = {name: {} for name in FLYING_BASE_SIZE}
    for key, out in chosen.items():
        if not out["base"] and out["note"] in FLYING_BASE_SIZE and key in sized:
            c = counts[out["note"]]
            c[sized[key]] = c.get(sized[key], 0) + 1
    for key, out in chosen.items():
        if out["base"] or out["note"] not in FLYING_BASE_SIZE:
            continue
        guide = _source_text(sources, out["source"])
        if key in sized:
            base, export = sized[key]
            text = f"{guide}; size from {export} (same unit)"
        else:
            c = counts[out["note"]]
            if not c:
                continue
            (base, export), n = max(c.items(), key=lambda kv: kv[1])
            text = (f"{guide}; size: the {base} {export} gives {n} of the "
                    f"{sum(c.values())} units the guide puts on a {out['note']}")
        out["base"] = base
        out["source"] = str(sources.setdefault(text, len(sources) + 1))


def _source_text(sources: dict[str, int], n: str) -> str:
    for text, k in sources.items():
        if str(k) == n:
            return text
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    table, sources = build(args.reference)
    files = {OUT / "bases.csv": table, OUT / "base-sources.csv": sources}
    if args.check:
        stale = [str(p) for p, text in files.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        for p in stale:
            print(f"{p}: differs from what tools/make_bases.py builds", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p, text in files.items():
        p.write_text(text, encoding="utf-8")
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
