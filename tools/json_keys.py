#!/usr/bin/env python3
"""List the ``--json`` keys the commands print that docs/json.md does not document.

Run from the repository root::

    SDL_VIDEODRIVER=dummy python tools/json_keys.py [--odds-big] [EXTRA_MAP.toml ...]

Runs every command that takes ``--json`` (check, measure, pile-in, consolidate and
their ``--check``, fight, fight --odds, charge, bench) on every shipped map in
``maps/`` (and on any EXTRA_MAP given), in-process through ``tabletop.cli.main``,
and walks each printed object recursively.  A key path (written as in docs/json.md:
``a.b``, ``a[]``, ``a.*``) that no table of the command's contract lists is
printed with the command that printed it and an example value; for ``fight``,
every event field that the fight events table lists neither as ``always`` nor
``sometimes`` for its type, and every undocumented event type.  A dict is
walked as ``.*`` (data keys) when the table documents it so, else key by key.

``fight --odds`` on the two 60x44 layouts is slow: it is skipped unless
``--odds-big`` (then with ``--runs 5``).  Exit 0 when nothing is undocumented, 1
otherwise.  Reads only; writes nothing but temporary files.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabletop.cli import main  # noqa: E402
from tabletop.cli.common import load_map  # noqa: E402

DOC = ROOT / "docs" / "json.md"
BIG = ("ca-layout-1-hammer-and-anvil.toml", "ca-layout-2-crucible-of-battle.toml")


def tables() -> dict[str, list[list[str]]]:
    out: dict[str, list[list[str]]] = {}
    name = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"<!-- contract: ([\w-]+) -->", line.strip())
        if m:
            name = m.group(1)
            out[name] = []
            continue
        if name is None:
            continue
        if line.startswith("|"):
            cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
            if cells[0] in ("key", "type") or set(cells[0]) <= {"-", " "}:
                continue
            out[name].append(cells)
        elif out[name]:
            name = None
    return out


TABLES = tables()


def documented(*contracts: str) -> set[str]:
    return {row[0] for c in contracts for row in TABLES[c]}


def event_fields() -> dict[str, set[str]]:
    out = {}
    for row in TABLES["events"]:
        words = set(re.findall(r"[A-Za-z_]\w*", row[1]))
        # the sometimes column: field names are the backticked words (backticks are gone:
        # take every identifier-like word; prose words such as "a" never match a field)
        words |= set(re.findall(r"[A-Za-z_]\w*", row[2]))
        out[row[0]] = words
    return out


def walk(obj, path: str, docs: set[str], found: dict[str, object], ids: set[str]) -> None:
    """Every key path under ``obj``.  A dict's keys are data (``.*``) when the table says so
    or when they are all ids of the map (players, units, models) or counts."""
    if isinstance(obj, dict):
        if obj and (f"{path}.*" in docs or all(k in ids or k.isdigit() for k in obj)):
            for v in obj.values():
                found.setdefault(f"{path}.*", v)
                walk(v, f"{path}.*", docs, found, ids)
            return
        for k, v in obj.items():
            p = f"{path}.{k}" if path else k
            found.setdefault(p, v)
            if p == "events":       # fight events: checked per type by Report.add
                continue
            if p == "challenge_odds":   # the challenge keys again, documented once at the top
                walk(v, "", docs, found, ids)
                continue
            walk(v, p, docs, found, ids)
    elif isinstance(obj, list):
        for v in obj:
            walk(v, f"{path}[]", docs, found, ids)


def run(*argv) -> tuple[int, dict | None]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    try:
        return code, json.loads(buf.getvalue())
    except ValueError:
        return code, None


class Report:
    def __init__(self) -> None:
        self.missing: dict[tuple[str, str], tuple[str, object]] = {}
        self.events: dict[tuple[str, str], tuple[str, object]] = {}
        self.fields = event_fields()
        self.ids: set[str] = set()

    def add(self, what: str, obj: dict | None, *contracts: str) -> None:
        if obj is None:
            return
        docs = documented(*contracts)
        found: dict[str, object] = {}
        walk(obj, "", docs, found, self.ids)
        for p, v in found.items():
            # ``a.*`` under a documented ``a`` (an object "id -> ...") is documented in words
            if p not in docs and not (p.endswith(".*") and p[:-2] in docs):
                self.missing.setdefault((contracts[0], p), (what, v))
        for ev in obj.get("events", []) if "fight" in contracts else []:
            t = ev["type"]
            if t not in self.fields:
                self.events.setdefault((t, "<type>"), (what, ev))
                continue
            for f, v in ev.items():
                if f not in ("type", "rule") and f not in self.fields[t]:
                    self.events.setdefault((t, f), (what, v))

    def print(self) -> int:
        for (c, p), (what, v) in sorted(self.missing.items()):
            print(f"{c:28} {p:45} {json.dumps(v)[:70]:70}  ({what})")
        for (t, f), (what, v) in sorted(self.events.items()):
            print(f"{'events: ' + t:28} {f:45} {json.dumps(v)[:70]:70}  ({what})")
        return 1 if self.missing or self.events else 0


def units_of(path: Path):
    state = load_map(str(path))
    return state, [(u.id, u.player) for u in state.units]


def main_(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("maps", nargs="*")
    ap.add_argument("--odds-big", action="store_true")
    args = ap.parse_args(argv)
    maps = sorted((ROOT / "maps").glob("*.toml")) + [Path(m) for m in args.maps]
    r = Report()
    tmp = Path(tempfile.mkdtemp())
    for path in maps:
        name = path.name
        state, units = units_of(path)
        r.ids = ({p.id for p in state.players} | {u.id for u in state.units}
                 | {m.id for u in state.units for m in u.models})
        r.add(f"check {name}", run("check", path, "--json")[1], "check")
        r.add(f"check {name} --layout", run("check", path, "--json", "--layout", path)[1], "check")
        if len(units) >= 2:
            r.add(f"measure {name}", run("measure", path, units[0][0], units[1][0], "--json")[1],
                  "measure")
        r.add(f"fight {name}", run("fight", path, "--seed", "1", "--json")[1], "fight")
        if name not in BIG or args.odds_big:
            extra = ["--runs", "5"] if name in BIG else ["--runs", "20"]
            _, d = run("fight", path, "--odds", "--json", *extra)
            base = "odds-fight-phase" if state.ruleset == "fight-phase" else "odds-rank-and-flank"
            chal = {"gambit": ("odds-challenges", "odds-challenges-gambit"),
                    "character": ("odds-challenges", "odds-challenges-character")}.get(
                state.rules.challenges, ())
            r.add(f"fight --odds {name}", d, base, *chal)
        for (u, pu), (t, pt) in itertools.permutations(units, 2):
            if pu != pt:
                r.add(f"charge {name} {u} {t}", run("charge", path, u, t, "--json", "--seed", "1")[1],
                      "charge")
        if state.ruleset == "fight-phase":
            for u, _ in units:
                out = tmp / f"{path.stem}-{u}.json"
                code, d = run("pile-in", path, u, "--json")
                r.add(f"pile-in {name} {u}", d, "move")
                if d is not None and d.get("legal"):
                    out.write_text(json.dumps(d), encoding="utf-8")
                    r.add(f"pile-in --check {name} {u}",
                          run("pile-in", path, u, "--check", out, "--json")[1], "move-check")
                r.add(f"consolidate {name} {u}", run("consolidate", path, u, "--json")[1], "move")
                r.add(f"consolidate --fought {name} {u}",
                      run("consolidate", path, u, "--fought", "--json")[1], "move")
                r.add(f"consolidate --check {name} {u}",
                      run("consolidate", path, u, "--check", path, "--json")[1], "move-check")
    r.add("bench snapshot", run("bench", "--sizes", "12", "--only", "snapshot", "--json")[1], "bench")
    return r.print()


if __name__ == "__main__":
    sys.exit(main_())
