#!/usr/bin/env python3
"""Time the odds of issue 9's target cases (today's engine) and own count distributions vs icepool.

    python tests/bench/bench_odds.py [--repeat N] [--skip-slow] [--json]

The same as ``tabletop bench --only odds``.  Not collected by pytest (the
file name does not start with ``test_``): speed is measured here, never in tests.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tabletop.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["bench", "--only", "odds", *sys.argv[1:]]))
