"""``tabletop bench [--sizes 200,1000,5000] [--only NAME] [--seed N] [--json]``.

Runs the benchmarks in ``tabletop.bench`` (each prints its time beside a naive
baseline measured in the same run, and the ratio).  Exit 0; 2 for a bad
argument (an unknown benchmark, a size that is not a positive whole number).
"""

from __future__ import annotations

from tabletop.bench import benchmarks
from tabletop.cli.common import print_json
from tabletop.errors import TabletopError

DEFAULT_SIZES = "200,1000,5000"


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        sizes = []
    if not sizes or any(n < 2 for n in sizes):
        raise TabletopError(f"tabletop bench: --sizes: give model counts of 2 or more separated "
                            f"by commas, such as {DEFAULT_SIZES}, got {text!r}")
    return sizes


def run(args) -> int:
    available = benchmarks()
    names = list(available)
    if args.only:
        unknown = [n for n in args.only if n not in available]
        if unknown:
            raise TabletopError(f"tabletop bench: --only: no benchmark {', '.join(map(repr, unknown))} "
                                f"(benchmarks are {', '.join(available)})")
        names = args.only
    sizes = _sizes(args.sizes)
    rows = []
    out = (lambda line: None) if args.json else print
    for k, name in enumerate(names):
        if k:
            out("")
        rows += available[name].run(sizes, args.seed, out)
    if args.json:
        print_json({"benchmarks": rows})
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="time the geometry against naive baselines",
                       description="Benchmarks: each prints its time beside a naive baseline "
                                   "measured in the same run, and the ratio.")
    p.add_argument("--sizes", default=DEFAULT_SIZES,
                   help="model counts, comma separated (default %(default)s)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this benchmark (repeatable), e.g. snapshot")
    p.add_argument("--seed", type=int, default=0, help="layout and sampling seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the rows as one JSON object")
    p.set_defaults(run=run)
