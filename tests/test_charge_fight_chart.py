"""The charge preview's fight chart when sampled: each unit's own losses (issue 10,
audit-uses findings 2 and 3).  Before, a unit's chart was its one foe's "models removed"
(a charger that removes models from two targets gave both the same chart, and the
charger, with two foes, got none), and the reason named `fight --odds` flags."""

from __future__ import annotations

from test_charge_plan import fp_map

from tabletop.board.frozen import evolve
from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import PREVIEW_MAX_STATES, fight_summary


def _landed(write_map):
    # a/1..3 (32mm, 1.3" apart in a column at x = 10) in base contact (1.27" centre to centre,
    # a 0.01" gap) with t1's one model (11.27, 20) and t2's three; a charged.
    path = fp_map(write_map, [("a", "red", [(10, 20), (10, 21.3), (10, 22.6)]),
                              ("t1", "blue", [(11.27, 20)]),
                              ("t2", "blue", [(11.27, 21.3), (11.27, 22.6), (12.55, 22.6)])])
    st = load_map(path)
    return st.with_unit(evolve(st.unit("a"), charged=True))


def test_sampled_chart_is_each_units_own(write_map):
    f = fight_summary(_landed(write_map), "a", ["t1", "t2"], max_states=1, runs=40)
    assert f["method"] == "monte carlo" and f["runs"] == 40
    units = f["units"]
    for u, models in (("a", 3), ("t1", 1), ("t2", 3)):
        lost = units[u]["models_lost"]
        assert lost is not None                      # the charger's chart too (before: None)
        assert set(lost) <= set(range(models + 1))   # never more lost than it has
        assert abs(sum(lost.values()) - 1.0) < 1e-9
        # the chart's mean is the unit's own expected loss
        assert abs(sum(k * p for k, p in lost.items()) - units[u]["expected_models_lost"]) < 1e-9
    # t1 has one model: losing 1 is being destroyed, so P(1 lost) = p_destroyed
    assert abs(units["t1"]["models_lost"].get(1, 0.0) - units["t1"]["p_destroyed"]) < 1e-9
    # charge's own reason: no flags that `charge` does not have
    assert "--" not in f["why"]


def test_charge_text_names_no_fight_flags(write_map):
    f = fight_summary(_landed(write_map), "a", ["t1", "t2"], max_states=1, runs=5)
    assert "--exact" not in f["why"] and "--sample" not in f["why"]
    assert "more than 1 states" in f["why"]
    assert f"{PREVIEW_MAX_STATES:,}" == "600"
