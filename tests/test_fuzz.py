"""Fuzzing the map loader and the commands (issue 11 item 6: bad input never crashes).

Hypothesis mutates the shipped maps (drop, replace or retype a key; extreme numbers;
wrong types; deep nesting; undecodable bytes) and runs the commands in-process as a
user would (``cli.main`` with argv), asserting for every case:

- the exit status is 0, 1 or 2, and no exception escapes ``main``;
- nothing printed holds a traceback or a raw control character;
- on exit 2 every line on stderr is one line naming the map file (or the command);
- the work is bounded by the map limits (``board/limits.py``), not by a clock
  (``deadline=None``: no result depends on timing), and the process's peak memory
  stays under ``MEMORY_BOUND_MB``.

Two settings profiles (registered in ``conftest.py``): ``ci`` (the default here, about
100 examples in all, derandomized, well under 30 s of CPU) and ``long``, run by hand::

    HYPOTHESIS_PROFILE=long python -m pytest tests/test_fuzz.py

Each failure found becomes a regular test in ``tests/test_fuzz_cases.py`` with its
minimal example.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import resource
import tomllib
import traceback
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.cli import main

ROOT = Path(__file__).resolve().parent.parent
ALL_MAPS = sorted((ROOT / "maps").glob("*.toml")) + sorted((ROOT / "maps" / "lessons").glob("*.toml"))
#: the small lesson maps whose fight takes well under a second: the commands' runs use these
FAST_MAPS = [ROOT / "maps" / "lessons" / f"{n}.toml" for n in
             ("pile-in", "fights-first", "charge-arcs", "surrounded", "rear-charge", "overrun")]
#: the stated memory bound of the whole test process (peak resident set), in MiB: the map
#: limits keep every case far below it (a map at MAX_MODELS checks in under 500 MiB)
MEMORY_BOUND_MB = 1536

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "")
FUZZ = settings(settings.get_profile("long" if PROFILE == "long" else "ci"),
                suppress_health_check=list(HealthCheck))


def _examples(n_ci: int) -> settings:
    """``n_ci`` examples in the ci profile, ten times as many in the long one."""
    return settings(FUZZ, max_examples=n_ci * (10 if PROFILE == "long" else 1))


def _read(path: Path) -> dict[str, Any]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


BASES = {p: _read(p) for p in ALL_MAPS}

# ------------------------------------------------------------------ strategies
EXTREME_NUMBERS = st.sampled_from([0, -1, 1, 0.5, 1.5, -0.5, 1e308, -1e308, 1e-308, 10 ** 12,
                                   -10 ** 12, 10 ** 30, 2 ** 63, 2 ** 64, float("nan"),
                                   float("inf"), float("-inf"), 7, 100000, 1e15, 1e16])
ODD_TEXT = st.sampled_from(["", " ", "four", "3+", "D6", "1000000D6", "D6+1000000", "a/1",
                            "x\ny", "\x1b[2Jboom", "\u202eevil", "contact", "formation",
                            "fight-phase", "rank-and-flank", "32mm", "0mm", "100000mm",
                            "-5mm", "nan", "inf", "x" * 5000])


def _deep(depth: int) -> Any:
    v: Any = 1
    for _ in range(depth):
        v = [v]
    return v


WEIRD = st.one_of(
    EXTREME_NUMBERS, ODD_TEXT, st.booleans(),
    st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.lists(EXTREME_NUMBERS, max_size=4),
    st.dictionaries(st.sampled_from(["id", "at", "x", "A", "T"]), EXTREME_NUMBERS, max_size=3),
    st.integers(min_value=10, max_value=60).map(_deep),
    st.just([[5.0, 5.0]] * 300),           # a unit's worth of stacked models
)


def _places(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into ``data`` (keys and indices), the top table's keys included."""
    out, todo = [], [(data, prefix)]
    while todo:
        item, where = todo.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                out.append(where + (k,))
                todo.append((v, where + (k,)))
        elif isinstance(item, list):
            for i, v in enumerate(item[:12]):
                out.append(where + (i,))
                todo.append((v, where + (i,)))
    return out


def _retype(value: Any) -> Any:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {"0": value[0]} if value else {}
    if isinstance(value, dict):
        return list(value.values())
    return value


@st.composite
def mutated(draw, maps: list[Path]) -> tuple[Path, dict[str, Any]]:
    """A shipped map with one to three keys dropped, replaced or retyped."""
    path = draw(st.sampled_from(maps))
    data = copy.deepcopy(BASES[path])
    for _ in range(draw(st.integers(1, 3))):
        places = _places(data)
        if not places:
            break
        where = draw(st.sampled_from(places))
        parent = data
        for k in where[:-1]:
            parent = parent[k]
        key = where[-1]
        how = draw(st.sampled_from(["drop", "replace", "replace", "retype"]))
        if how == "drop":
            del parent[key]
        elif how == "replace":
            # a copy: WEIRD's lists share their items, and a later mutation inside a shared
            # item would multiply the map 300-fold per step (the test's own blow-up, not the
            # program's)
            parent[key] = copy.deepcopy(draw(WEIRD))
        else:
            parent[key] = _retype(parent[key])
    return path, data


# ------------------------------------------------------------------ running
def run(argv: list[str]) -> tuple[int, str, str]:
    """``tabletop argv`` in this process: (status, stdout, stderr); an escaping exception fails."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as exc:        # argparse's -h / --version only
        rc = exc.code if isinstance(exc.code, int) else 2
    except BaseException:            # noqa: BLE001 - the point of the test
        raise AssertionError(f"tabletop {' '.join(map(repr, argv))} raised:\n"
                             f"{traceback.format_exc()}") from None
    return rc, out.getvalue(), err.getvalue()


def _controls(text: str) -> list[str]:
    return sorted({repr(ch) for ch in text
                   if (ord(ch) < 0x20 and ch not in "\n\t") or 0x7f <= ord(ch) < 0xa0})


def assert_clean(argv: list[str], rc: int, out: str, err: str, names: tuple[str, ...]) -> None:
    """The contract every case keeps (see the module docstring)."""
    where = f"tabletop {' '.join(argv)}"
    assert rc in (0, 1, 2), f"{where}: exit {rc}\n{err}"
    assert "Traceback" not in err and "Traceback" not in out, f"{where}:\n{err}"
    assert not _controls(out) and not _controls(err), f"{where}: raw control codes {_controls(out + err)}"
    if rc == 2:
        lines = err.splitlines()
        assert lines, f"{where}: exit 2 with nothing on stderr"
        for line in lines:
            assert line.strip() and line.startswith(names), f"{where}: line {line!r}"


def write(tmp: Path, data: dict[str, Any], name: str = "fuzz.toml") -> str:
    p = tmp / name
    try:
        p.write_bytes(tomli_w.dumps(data).encode("utf-8"))
    except (TypeError, ValueError, RecursionError):
        p.write_text("# not writable as TOML\n[map\n", encoding="utf-8")
    return str(p)


def _first_ids(data: dict[str, Any]) -> tuple[str, str]:
    ids = [u.get("id") for u in data.get("units", []) if isinstance(u, dict)] \
        if isinstance(data.get("units"), list) else []
    ids = [i for i in ids if isinstance(i, str) and i.strip()] + ["u", "v"]
    return ids[0], ids[1]


# ------------------------------------------------------------------ tests
@_examples(40)
@given(case=mutated(ALL_MAPS))
def test_loader_and_check_never_crash(tmp_path_factory, case):
    _, data = case
    path = write(tmp_path_factory.mktemp("fz"), data)
    argv = ["check", path]
    assert_clean(argv, *run(argv), names=(path,))


@_examples(25)
@given(case=mutated(FAST_MAPS))
def test_commands_never_crash(tmp_path_factory, case):
    _, data = case
    tmp = tmp_path_factory.mktemp("fz")
    path = write(tmp, data)
    a, b = _first_ids(data)
    for argv in (["check", path, "--json"], ["fight", path, "--seed", "1"],
                 ["charge", path, a], ["measure", path, a, b],
                 ["pile-in", path, a, "-o", str(tmp / "after.toml")]):
        assert_clean(argv, *run(argv), names=(path,))


@_examples(20)
@given(path=st.sampled_from(ALL_MAPS), at=st.floats(0, 1),
       junk=st.sampled_from([b"\xff\xfe", b"\x80", b"\xc3\x28", b"\x00", b"[[[[[[",
                             b"\x1b[2J", b"= = =", b"\xed\xa0\x80"]),
       cut=st.booleans())
def test_undecodable_and_broken_bytes(tmp_path_factory, path, at, junk, cut):
    raw = path.read_bytes()
    k = int(len(raw) * at)
    raw = raw[:k] + junk + (b"" if cut else raw[k:])
    p = tmp_path_factory.mktemp("fz") / "bytes.toml"
    p.write_bytes(raw)
    argv = ["check", str(p)]
    assert_clean(argv, *run(argv), names=(str(p),))


ARG = st.one_of(st.sampled_from(["", " ", "-1", "0", "1e308", "nan", "99999999999999999999",
                                 "0x0", "100000x100000", "x", "a/1", "\x1b[2J", "/dev/zero",
                                 ".", "..", "missing.toml", "out.toml", "out.png", "all"]),
                st.text(max_size=8))
FLAGS = {"check": ["--json", "--layout", "--layout-tolerance", "--layout-turn-tolerance", "-o"],
         "measure": ["--json"],
         "pile-in": ["-o", "--json", "--check"],
         "consolidate": ["-o", "--json", "--check", "--fought"],
         "fight": ["--seed", "-o", "--json", "--odds", "--runs", "--frames-view"],
         "charge": ["--json", "--seed", "-o"],
         "render": ["-o", "--overlay", "--scale", "--no-legend"],
         "compare": ["--tolerance", "--turn-tolerance", "--json"],
         "lesson": ["--step", "--size", "--seed", "--json"]}
VALUELESS = {"--json", "--fought", "--odds", "--no-legend"}


@_examples(25)
@given(cmd=st.sampled_from(sorted(FLAGS)), data=st.data())
def test_arguments_never_crash(tmp_path_factory, cmd, data):
    """Every command's arguments, odd values included, on the pile-in lesson map."""
    tmp = tmp_path_factory.mktemp("fz")
    lesson = str(ROOT / "maps" / "lessons" / "pile-in.toml")
    argv = [cmd, lesson]
    if cmd in ("measure",):
        argv += [data.draw(st.sampled_from(["intercessors", "boyz/1", "zz"]) | ARG),
                 data.draw(st.sampled_from(["boyz", "intercessors/2"]) | ARG)]
    elif cmd in ("pile-in", "consolidate", "charge"):
        argv += [data.draw(st.sampled_from(["intercessors", "boyz", "zz"]) | ARG)]
    elif cmd == "compare":
        argv += [data.draw(st.sampled_from([lesson]) | ARG)]
    for flag in data.draw(st.lists(st.sampled_from(FLAGS[cmd]), max_size=3, unique=True)):
        argv.append(flag)
        if flag not in VALUELESS:
            argv.append(data.draw(ARG))
    if cmd == "fight" and "--odds" in argv:
        argv.append("--sample")         # bounded: Monte Carlo runs, never the exact walk
        if "--runs" not in argv:
            argv += ["--runs", "50"]
        k = argv.index("--runs") + 1
        if argv[k].strip().isdigit() and 50 < int(argv[k]) <= 100_000:
            argv[k] = "50"              # within MAX_ODDS_RUNS but minutes of work: keep CI fast
    if cmd == "lesson" and "--gif" not in argv:
        argv += ["--json"]              # never a window
    with contextlib.chdir(tmp):         # relative outputs land in the temporary folder
        rc, out, err = run(argv)
    assert rc in (0, 1, 2), f"{argv}: exit {rc}\n{err}"
    assert "Traceback" not in err, f"{argv}:\n{err}"
    assert not _controls(out) and not _controls(err), f"{argv}: raw control codes"
    if rc == 2:
        assert err.strip(), f"{argv}: exit 2 with nothing on stderr"


def test_memory_stayed_bounded():
    """After the fuzz cases above (same process), the peak resident set is under the bound."""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert peak_mb < MEMORY_BOUND_MB, f"peak {peak_mb:.0f} MiB"
