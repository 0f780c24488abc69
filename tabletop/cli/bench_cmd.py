"""``tabletop bench [--sizes 200,1000,5000] [--only NAME] [--seed N] [--repeat N] [--skip-slow] [--play] [--json]``.

Runs the benchmarks in ``tabletop.bench`` (each prints its time beside a naive
baseline measured in the same run, and the ratio; ``odds`` prints today's odds
engine beside issue 9's targets).  ``--repeat N`` and ``--skip-slow`` are read by the
benchmarks that take them (``odds``: timed runs per case; leave out the cases that
take seconds); ``--play`` by ``window`` (also play the 60x44 layout's phase in the window).  Exit 0; 2 for a bad argument (an unknown benchmark, a size that is
not a positive whole number, a repeat under 1).
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
    repeat = getattr(args, "repeat", None)
    if repeat is not None and repeat < 1:
        raise TabletopError(f"tabletop bench: --repeat: give 1 or more timed runs, got {repeat}")
    given = {"repeat": repeat, "skip_slow": getattr(args, "skip_slow", False),
             "play": getattr(args, "play", False)}
    rows = []
    out = (lambda line: None) if args.json else print
    for k, name in enumerate(names):
        if k:
            out("")
        bench = available[name]
        rows += bench.run(sizes, args.seed, out, **{k: given[k] for k in bench.options})
    if args.json:
        print_json({"benchmarks": rows})
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="time the geometry against naive baselines, and the odds",
                       description="Benchmarks: each prints its time beside a naive baseline "
                                   "measured in the same run, and the ratio.")
    p.add_argument("--sizes", default=DEFAULT_SIZES,
                   help="model counts, comma separated (default %(default)s)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this benchmark (repeatable), e.g. snapshot")
    p.add_argument("--seed", type=int, default=0, help="layout and sampling seed (default 0)")
    p.add_argument("--repeat", type=int, default=None, metavar="N",
                   help="odds: timed runs per case, the median printed (default 5, "
                        "3 for the slow cases)")
    p.add_argument("--skip-slow", action="store_true",
                   help="odds: leave out the cases that take seconds (the lessons, the 60x44 layout)")
    p.add_argument("--play", action="store_true",
                   help="window: also play the 60x44 layout's combat phase in the window "
                        "(view --play, headless) and report the median and longest frame")
    p.add_argument("--json", action="store_true", help="print the rows as one JSON object")
    p.set_defaults(run=run)
