"""A unit whose models could make more than ``MAX_UNIT_ATTACKS`` attacks together is a map
error in both rulesets (issue 11 item 6: no command runs past a stated bound): the odds and
the attack sequence weigh a count of that many dice."""

from __future__ import annotations

from pathlib import Path

from mapkit import cli

from tabletop.rules.fight_phase.amounts import DiceExpr
from tabletop.rules.fight_phase.profiles import MAX_UNIT_ATTACKS, most_of
from tabletop.rules.rank_and_flank import profiles as rnf_profiles

ROOT = Path(__file__).resolve().parent.parent
PILE_IN = (ROOT / "maps" / "lessons" / "pile-in.toml").read_text(encoding="utf-8")
OLD_WORLD = (ROOT / "maps" / "old-world-72x48.toml").read_text(encoding="utf-8")
CCW = '{ name = "Close combat weapon", A = 3,'


def test_the_most_an_amount_can_be():
    assert most_of(3) == 3
    assert most_of(DiceExpr(10, 6)) == 60          # ten sixes
    assert most_of(DiceExpr(1, 3, 1)) == 4          # D3+1 at its highest
    assert MAX_UNIT_ATTACKS == rnf_profiles.MAX_UNIT_ATTACKS == 400


def test_fight_phase_unit_over_the_bound_is_one_located_line(tmp_path, capsys):
    # the lesson's intercessors: 5 models; A = 100 each -> 5 * 100 = 500 > 400
    path = tmp_path / "a100.toml"
    path.write_text(PILE_IN.replace(CCW, '{ name = "Close combat weapon", A = 100,'),
                    encoding="utf-8")
    for argv in (("check", path), ("fight", path, "--seed", "1"), ("fight", path, "--odds")):
        code, out, err = cli(capsys, *argv)
        assert code == 2
        lines = [ln for ln in err.splitlines() if "MAX_UNIT_ATTACKS" in ln]
        assert lines == [f"{path}: units[0]: its models' attacks could total 500 (each model's "
                         f"melee weapon's A at its highest, times 1 + its Sustained Hits X), "
                         f"more than 400 (MAX_UNIT_ATTACKS): a count of that many dice takes "
                         f"too long to weigh"]
        assert "Traceback" not in err


def test_fight_phase_unit_at_the_bound_loads(tmp_path, capsys):
    # 5 models at A = 80: 400, not more than the bound
    path = tmp_path / "a80.toml"
    path.write_text(PILE_IN.replace(CCW, '{ name = "Close combat weapon", A = 80,'),
                    encoding="utf-8")
    code, out, err = cli(capsys, "check", path)
    assert code == 0, err


def test_rank_and_flank_unit_over_the_bound(tmp_path, capsys):
    # the halberdiers' Attacks 1 -> 100 on every model that inherits it: 20 models read 100,
    # their champion's own value stays, so the total is well over 400
    text = OLD_WORLD.replace("Attacks = 1\n", "Attacks = 100\n", 1)
    path = tmp_path / "ow.toml"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, "check", path)
    assert code == 2
    assert "MAX_UNIT_ATTACKS" in err and "units[0]: its models' Attacks total" in err
    assert "Traceback" not in err


def test_a_walk_that_would_make_too_many_states_is_sampled_saying_so(capsys, monkeypatch):
    # the pile-in lesson's walk makes 42 states (each chance outcome before equal ones
    # merge); with the bound at 10 it is sampled, and the text says which bound
    import importlib
    odds = importlib.import_module("tabletop.rules.fight_phase.odds")

    monkeypatch.setattr(odds, "SPLIT_MADE", 10)
    code, out, err = cli(capsys, "fight", ROOT / "maps" / "lessons" / "pile-in.toml", "--odds")
    assert code == 0, err
    assert "Monte Carlo" in out
    assert "an exact walk would make more than 10 states" in out
    monkeypatch.setattr(odds, "SPLIT_MADE", 1_000)
    code, out, err = cli(capsys, "fight", ROOT / "maps" / "lessons" / "pile-in.toml", "--odds")
    assert "exact" in out and "Monte Carlo" not in out


def test_a_standard_error_of_a_probability_summed_past_one_is_zero():
    # a rank-and-flank fight's odds summed run counts to 1 + 2e-16 and math.sqrt of a
    # negative ended them in a traceback (audit 11c); sqrt(p (1 - p) / n) is read as 0 there
    from tabletop.rules.engine.walk import binomial_se

    assert binomial_se(1.0 + 2e-16, 100) == 0.0
    assert binomial_se(-1e-17, 100) == 0.0
    assert binomial_se(0.5, 100) == 0.05            # sqrt(0.25 / 100)


def test_sustained_hits_count_the_hits_they_may_bring(tmp_path, capsys):
    # 5 models at A = 12 with Sustained Hits 6: 5 * 12 * (1 + 6) = 420 > 400; at A = 11:
    # 5 * 11 * 7 = 385, within the bound
    for a, code in ((12, 2), (11, 0)):
        path = tmp_path / f"sh{a}.toml"
        path.write_text(PILE_IN.replace(
            CCW, f'{{ name = "Close combat weapon", rules = ["Sustained Hits 6"], A = {a},'),
            encoding="utf-8")
        got, out, err = cli(capsys, "check", path)
        assert got == code, err
        if code == 2:
            assert "could total 420" in err and "MAX_UNIT_ATTACKS" in err
