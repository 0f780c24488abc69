"""Shared fixtures.  Tests run headless: SDL uses its dummy video driver."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


@pytest.fixture
def write_map(tmp_path):
    """Write TOML text (dedented) to a temporary map file and return its path (str)."""

    def _write(text: str, name: str = "map.toml") -> str:
        p = tmp_path / name
        p.write_text(textwrap.dedent(text), encoding="utf-8")
        return str(p)

    return _write

# Hypothesis: the same examples on every run (CI must not go red on a lucky seed);
# run `HYPOTHESIS_PROFILE=explore pytest` to search with fresh random examples.
from hypothesis import settings  # noqa: E402

settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)
# the fuzz suite's profiles (tests/test_fuzz.py): "ci" by default, "long" run by hand
settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("long", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
