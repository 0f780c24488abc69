"""Every number option of every command (``type=float`` / ``type=int``) refuses a value no
scale, tolerance, seed or count can be (issue 11, item 6): ``nan``, ``inf``, ``-inf``,
``1e308``, ``-1e308``, 0 where 0 means nothing, negative values, and a 30-digit integer,
each with one line on standard error, exit status 2 and no traceback.  ``render --scale inf``
used to end in ``OverflowError`` (exit 1)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tabletop.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
LESSON = str(ROOT / "maps" / "lessons" / "pile-in.toml")
TABLE = str(ROOT / "maps" / "ca-layout-1-table.toml")
ROSTER = str(ROOT / "examples" / "rosters" / "orks.json")

FLOATS = ["nan", "inf", "-inf", "1e308", "-1e308", "0", "-1"]
COUNTS = ["0", "-1", "1" + "0" * 30, "1e308", "nan", "inf"]    # 1 and up
SEEDS = ["-1", "1" + "0" * 30, "1e308", "nan", "inf"]           # 0 and up

# (command, option): the command line with {v} for the value, and the values it refuses
CASES: dict[tuple[str, str], tuple[list[str], list[str]]] = {
    ("render", "--scale"): (["render", LESSON, "-o", "{out}/x.png", "--scale", "{v}"], FLOATS),
    ("check", "--layout-tolerance"): (["check", TABLE, "--layout", TABLE,
                                       "--layout-tolerance", "{v}"], FLOATS),
    ("check", "--layout-turn-tolerance"): (["check", TABLE, "--layout", TABLE,
                                            "--layout-turn-tolerance", "{v}"], FLOATS),
    ("compare", "--tolerance"): (["compare", TABLE, TABLE, "--tolerance", "{v}"], FLOATS),
    ("compare", "--turn-tolerance"): (["compare", TABLE, TABLE, "--turn-tolerance", "{v}"],
                                      FLOATS),
    ("lesson", "--step"): (["lesson", LESSON, "--json", "--step", "{v}"], COUNTS),
    ("lesson", "--seed"): (["lesson", LESSON, "--json", "--seed", "{v}"], SEEDS),
    ("charge", "--seed"): (["charge", LESSON, "boyz", "intercessors", "--seed", "{v}"], SEEDS),
    ("fight", "--seed"): (["fight", LESSON, "--seed", "{v}"], SEEDS),
    ("fight", "--runs"): (["fight", LESSON, "--odds", "--runs", "{v}"], COUNTS),
    ("roster", "--frontage"): (["roster", ROSTER, "--map", TABLE, "--player", "attacker",
                                "-o", "{out}/r.toml", "--frontage", "{v}"], COUNTS),
    ("bench", "--seed"): (["bench", "--only", "snapshot", "--sizes", "20", "--seed", "{v}"],
                          SEEDS),
    ("bench", "--repeat"): (["bench", "--only", "snapshot", "--sizes", "20", "--repeat", "{v}"],
                            COUNTS),
    ("view", "--seed"): (["view", LESSON, "--fight", "--seed", "{v}"], SEEDS),
}


def _number_options() -> set[tuple[str, str]]:
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {(cmd, a.option_strings[-1]) for cmd, p in subs.choices.items() for a in p._actions
            if a.type in (int, float) and a.option_strings}


def test_every_number_option_is_in_the_table():
    # a new number option must be added to CASES (and given its bound) to pass
    assert _number_options() == set(CASES)


@pytest.mark.parametrize("key,value", [(k, v) for k, (_, vals) in CASES.items() for v in vals],
                         ids=lambda x: "-".join(x) if isinstance(x, tuple) else x)
def test_a_bad_number_is_one_line_and_status_2(key, value, tmp_path, capsys):
    template, _ = CASES[key]
    argv = [w.format(v=value, out=tmp_path) for w in template]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert key[1] in err                       # the line names the option
    assert list(tmp_path.iterdir()) == []      # nothing written


def test_render_scale_inf_and_1e308_name_the_bound(tmp_path, capsys):
    # inf: not a finite number; 1e308: finite, above MAX_SIDE_PX (16000 px a side: no table
    # of 1" or more fits at more than 16000 px per inch)
    assert main(["render", LESSON, "-o", str(tmp_path / "x.png"), "--scale", "inf"]) == 2
    assert "must be a finite number, got inf" in capsys.readouterr().err
    assert main(["render", LESSON, "-o", str(tmp_path / "x.png"), "--scale", "1e308"]) == 2
    assert "at most 16000 (MAX_SIDE_PX), got 1e+308" in capsys.readouterr().err
