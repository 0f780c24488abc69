#!/usr/bin/env python3
"""Benchmark the pile-in solver (20 v 20) against a naive grid search.

    python tests/bench/bench_pile_in.py [--sizes 200,1000,5000] [--seed N] [--json]

The same as ``tabletop bench --only pile-in``.  Not collected by pytest (the
file name does not start with ``test_``): speed is measured here, never in tests.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tabletop.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["bench", "--only", "pile-in", *sys.argv[1:]]))
