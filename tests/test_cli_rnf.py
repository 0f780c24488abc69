"""``tabletop fight`` on the rank-and-flank lesson maps and ``tabletop charge``."""

from __future__ import annotations

import json

from conftest import MAPS

from tabletop.cli import main


def fight_json(capsys, name, seed=3):
    assert main(["fight", str(MAPS / name), "--seed", str(seed), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def of(out, type_):
    return [e for e in out["events"] if e["type"] == type_]


def test_flank_charge_lesson(capsys):
    out = fight_json(capsys, "lessons/flank-charge.toml")
    geo = {e["unit"]: e for e in of(out, "unit_geometry")}
    # the wolf riders stand on the spearmen's right flank: disrupted
    assert geo["spearmen"]["sides"] == {"wolf-riders": "right"} and geo["spearmen"]["disrupted"]
    att = {e["unit"]: e["by_kind"] for e in of(out, "attackers")}
    # only the 4 models along the right flank fight back, no supporting attacks
    assert att["spearmen"] == {"flank": {"models": 4, "dice": 4}}
    (score,) = of(out, "combat_score")
    assert {"unit": "wolf-riders", "source": "flank", "score": 1} .items() <= next(
        it for it in score["breakdown"] if it["source"] == "flank").items()
    assert all(e["rule"].startswith("rank-and-flank-combat.txt") for e in out["events"]
               if e["type"] != "roll" or e["rule"])


def test_rear_charge_lesson(capsys):
    out = fight_json(capsys, "lessons/rear-charge.toml")
    att = {e["unit"]: e["by_kind"] for e in of(out, "attackers")}
    # the troops cannot fight to the rear; their captain (one rank deep) duels the bigboss
    assert att["handgunners"] == {"duel": {"models": 1, "dice": 3}}
    assert of(out, "duel")[0]["commanders"] == ["handgunners/3", "orc-mob/2"]
    assert any("nobody attacks to the rear" in e["text"] for e in of(out, "note"))


def test_multi_unit_engagement_on_the_72x48_table(capsys, tmp_path):
    frames = tmp_path / "frames"
    after = tmp_path / "after.toml"
    assert main(["fight", str(MAPS / "old-world-72x48.toml"), "--seed", "7", "-o", str(after),
                 "--frames", str(frames)]) == 0
    text = capsys.readouterr().out
    assert "halberdiers v orc-mob v wolf-riders" in text
    assert "Combat score:" in text and "break test" in text
    assert len(list(frames.glob("*.png"))) >= 4
    assert after.exists()


def test_fight_odds(capsys):
    assert main(["fight", str(MAPS / "lessons/flank-charge.toml"), "--odds"]) == 0
    text = capsys.readouterr().out
    assert "exact" in text and "combat score won by greenskins" in text


CHARGE_MAP = """
[map]
name = "charge"
ruleset = "{ruleset}"
width = 48
depth = 48

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "a"
player = "blue"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [24, 24], facing = 90, files = 5, ranks = 2 }}

[[units]]
id = "w"
player = "red"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [{x}, 23], facing = 180, files = 2, ranks = 1 }}
"""


def test_charge_rank_and_flank(capsys, write_map):
    # a's right flank is at x = 24 + 2.5 x 25/25.4 = 26.46; w's front edge at x = 33.96:
    # 7.5" apart.  Move 4 + the higher of 2D6 >= 7.5 needs a 4+ on the higher die:
    # 1 - (3/6)^2 = 3/4.  w's front-edge centre (33.96, 23) is in a's right arc.
    path = write_map(CHARGE_MAP.format(ruleset="rank-and-flank", x=24 + 2.5 * 25 / 25.4 + 7.5))
    assert main(["charge", path, "w", "a", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert abs(p["distance"] - 7.5) < 1e-6
    assert p["odds_fraction"] == "3/4" and p["side"] == "right"
    assert main(["charge", path, "w", "a"]) == 0
    assert "Lands on: a's right flank" in capsys.readouterr().out


def test_charge_fight_phase_and_bad_input(capsys, write_map):
    # fight-phase: 7.5" apart, engagement range 2": 2D6 >= 5.5 i.e. 6+: 26/36 = 13/18
    path = write_map(CHARGE_MAP.format(ruleset="fight-phase", x=24 + 2.5 * 25 / 25.4 + 7.5))
    assert main(["charge", path, "w", "a", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["odds_fraction"] == "13/18" and p["closest_targets"][0]["model"] in ("a/5", "a/10")
    assert main(["charge", path, "w", "w"]) == 2
    assert "not an enemy" in capsys.readouterr().err
    assert main(["charge", path, "w", "nobody"]) == 2
    assert "no unit 'nobody'" in capsys.readouterr().err


def test_charge_arcs_lesson(capsys):
    # maps/lessons/charge-arcs.toml states each answer in its header, worked by hand
    want = {"wolf-riders": ("left", "8/9", 12.0), "orc-mob": ("front", "3/4", 8.0),
            "goblins": ("rear", "35/36", 6.0), "trolls": ("right", "1/1", 6.5704)}
    for charger, (side, odds, dist) in want.items():
        assert main(["charge", str(MAPS / "lessons/charge-arcs.toml"), charger, "spearmen",
                     "--json"]) == 0
        p = json.loads(capsys.readouterr().out)
        assert (p["side"], p["odds_fraction"]) == (side, odds)
        assert abs(p["distance"] - dist) < 1e-3


def test_fight_with_a_profile_missing_stats_is_bad_input(capsys, write_map):
    text = CHARGE_MAP.format(ruleset="rank-and-flank", x=24 + 2.5 * 25 / 25.4)
    text = text.replace("profile = {{ Move = 4, Skill = 3,".replace("{{", "{"), "profile = { Move = 4,", 1)
    path = write_map(text)
    assert main(["fight", path, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "unit 'a': profile has no Skill" in err and "Traceback" not in err
