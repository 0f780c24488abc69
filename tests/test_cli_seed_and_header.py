"""A dice seed is a whole number from 0 wherever it is given (``--seed`` of ``charge``,
``fight`` and ``view``, as ``[map] seed``); ``fight`` prints nothing before a one-line error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main

MAPS = Path(__file__).resolve().parent.parent / "maps"
ARCS = str(MAPS / "lessons/charge-arcs.toml")
LESSON = str(MAPS / "lessons/pile-in.toml")


@pytest.mark.parametrize("argv", [["charge", ARCS, "wolf-riders", "spearmen", "--seed", "-3"],
                                  ["fight", LESSON, "--seed", "-3"],
                                  ["fight", LESSON, "--odds", "--seed", "-1"],
                                  ["view", LESSON, "--fight", "--seed", "-3"]])
def test_a_negative_seed_is_one_line_exit_2(argv, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"tabletop {argv[0]}: {argv[-2]} {argv[-1]}: the dice seed is a "
                                f"whole number from 0"]


def test_seed_0_is_a_seed(capsys):
    assert main(["charge", ARCS, "wolf-riders", "spearmen", "--seed", "0", "--json"]) == 0


def test_a_negative_map_seed_is_refused_too(write_map, capsys):
    text = Path(LESSON).read_text(encoding="utf-8")
    path = write_map(text.replace("[map]\n", "[map]\nseed = -3\n", 1))
    assert main(["fight", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "whole number from 0, got -3" in err


def test_plain_fight_prints_nothing_before_a_profile_error(write_map, capsys):
    # unit a's weapon has A = "lots": not a number or dice; the table itself is fine
    path = write_map("""
    [map]
    name = "p"
    ruleset = "fight-phase"
    width = 24
    depth = 18
    [[players]]
    id = "red"
    active = true
    [[players]]
    id = "blue"
    [[units]]
    id = "a"
    player = "red"
    base = "32mm"
    charged = true
    profile = { T = 4, Sv = 3, W = 1 }
    weapons = [{ name = "Bad", A = "lots", WS = 3, S = 4, AP = 0, D = 1 }]
    models = [[5, 5]]
    [[units]]
    id = "b"
    player = "blue"
    base = "32mm"
    profile = { T = 4, Sv = 3, W = 1 }
    weapons = [{ name = "Knife", A = 1, WS = 3, S = 4, AP = 0, D = 1 }]
    models = [[6.26, 5]]
    """)
    assert main(["fight", path, "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""                                   # no "p - fight-phase, seed 1" header
    assert len(err.splitlines()) == 1 and "units[0].weapons[0].A" in err


def test_plain_fight_still_prints_its_header_first(capsys):
    assert main(["fight", LESSON, "--seed", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(", seed 1") and " - fight-phase" in first
