"""A new user's audit of ``tabletop charge``: bad numbers and words at load, the same target
twice, a target off the table, a missing -o folder, the usage line without UNIT, the
landing drawn at its own facing, landing problems in the picture, and a path that ends
within engagement range of a unit that was not declared.  Expected values worked by hand.

32mm bases: r = 32 / 25.4 / 2 = 0.629921".
"""

from __future__ import annotations

import json
import os

import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main

FP = """
[map]
name = "audit"
ruleset = "fight-phase"
width = 30
depth = 20
[rules]
{rules}
[[players]]
id = "red"
active = true
[[players]]
id = "blue"
[[units]]
id = "a"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = {m}, T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "CCW", A = 3, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[5, 10]]
{status}
[[units]]
id = "b"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "CCW", A = 3, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[{bx}, 10]]
"""


def fp(write_map, *, rules="", m=6, status="", bx=15, name="map.toml"):
    return write_map(FP.format(rules=rules, m=m, status=status, bx=bx), name)


def _err(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return err


def test_negative_engagement_range_is_refused_at_load(write_map, capsys):
    err = _err(capsys, ["charge", fp(write_map, rules="engagement_range = -1"), "a", "b"])
    assert len(err.splitlines()) == 1 and "engagement_range" in err and "negative" in err


@pytest.mark.parametrize("key", ["M", "Move"])
def test_negative_move_is_refused_at_load(write_map, capsys, key):
    path = fp(write_map, m=-6)
    if key == "Move":
        text = open(path).read().replace("M = -6", "Move = -3")
        path = write_map(text, "move.toml")
    err = _err(capsys, ["charge", path, "a", "b"])
    assert len(err.splitlines()) == 1 and "not negative" in err and f"profile {key}" in err


def test_status_is_matched_whatever_its_case(write_map, capsys):
    # "Advanced" bars a charge exactly as "advanced" does (CHARGE_BARRING_STATUS)
    assert main(["charge", fp(write_map, status='status = ["Advanced"]'), "a", "b", "--json",
                 "--no-fight"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["eligible"] is False and "advanced" in p["reason"]


def test_the_same_target_twice_is_refused(write_map, capsys):
    err = _err(capsys, ["charge", fp(write_map), "a", "b", "b"])
    assert len(err.splitlines()) == 1 and "'b' is given twice" in err


def test_a_target_off_the_table_says_so(write_map, capsys):
    # b at x = 35 on a 30" table: its base (35 -/+ 0.63) is wholly past the right edge
    err = _err(capsys, ["charge", fp(write_map, bx=35), "a", "b"])
    assert len(err.splitlines()) == 1 and "'b' is off the table" in err


def test_out_in_a_missing_folder_is_refused_and_no_folder_made(write_map, capsys, tmp_path):
    out = tmp_path / "missing" / "x.png"
    err = _err(capsys, ["charge", fp(write_map), "a", "b", "-o", str(out), "--no-fight"])
    assert len(err.splitlines()) == 1 and "no folder" in err
    assert not os.path.exists(tmp_path / "missing")


def test_without_unit_only_unit_is_required(write_map, capsys):
    assert main(["charge", fp(write_map)]) == 2
    err = capsys.readouterr().err
    assert "arguments are required: UNIT" in err and "TARGET" not in err.split("required:")[1]
