"""``tabletop bench --only window --play`` plays a shipped map's phase headless: it must
write nothing beside that map (it left a ``.play-autosave.toml`` of its answers there)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tabletop.board import mapfile

LESSON = Path(__file__).resolve().parent.parent / "maps" / "lessons" / "overrun.toml"


def test_the_play_bench_writes_no_autosave_beside_the_map(tmp_path):
    from tabletop.bench.window_bench import measure_play
    path = tmp_path / "overrun.toml"
    shutil.copy(LESSON, path)
    got = measure_play(mapfile.load(str(path)))
    assert got                                   # it played
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overrun.toml"]
