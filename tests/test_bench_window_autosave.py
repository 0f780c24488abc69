"""``tabletop bench --only window-autosave`` on a small table: the drop, the idle frames,
the worker and the rename each timed, the autosave kept in the map's words (no timing
asserted: speed is measured in the benchmark only)."""

from __future__ import annotations

import os

from tabletop.bench import benchmarks


def test_window_autosave_bench_runs_on_a_small_table():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tabletop.app.autosave_keep import IDLE_FRAMES
    from tabletop.bench import window_autosave_bench

    lines: list[str] = []
    rows = window_autosave_bench.run([40], 0, lines.append)
    assert len(rows) == 1 and len(lines) == 2 + 1 + 1
    r = rows[0]
    assert r["benchmark"] == "window-autosave" and r["models"] == 40
    # the rewrite ran to its end and the autosave starts with the map's header comment
    assert r["outcome"] == "kept" and r["comments_kept"] is True
    assert r["drop_max_ms"] > 0 and r["in_frame_ms"] > 0 and r["worker_cpu_ms"] > 0
    assert r["max_ms"] >= max(r["drop_max_ms"], r["start_ms"], r["rename_ms"])
    assert r["target_ms"] == 33.0 and isinstance(r["met"], bool)
    assert IDLE_FRAMES >= 1 and "window-autosave" in benchmarks()
