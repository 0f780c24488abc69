"""``tabletop bench [--sizes 200,1000,5000] [--only NAME] [--seed N] [--repeat N] [--skip-slow] [--play] [--json]``.

Runs the benchmarks in ``tabletop.bench`` (each prints its time beside a naive
baseline measured in the same run, and the ratio; ``odds`` prints today's odds
engine beside issue 9's targets).  ``--repeat N`` and ``--skip-slow`` are read by the
benchmarks that take them (``odds``, ``pile-in``, ``fight-scale``: timed runs per case;
``odds``: leave out the cases that take seconds); ``--play`` by ``window`` (also play the 60x44 layout's phase in the window).  Exit 0; 2 for a bad argument (an unknown benchmark, a size that is
not a whole number from 2 to ``MAX_BENCH_MODELS``, more than ``MAX_BENCH_SIZES`` sizes, a
repeat outside 1..``MAX_BENCH_REPEAT``, a seed outside 0..``MAX_SEED``).
"""

from __future__ import annotations

from tabletop.bench import benchmarks
from tabletop.cli.common import check_seed, print_json
from tabletop.errors import TabletopError

DEFAULT_SIZES = "200,1000,5000"

#: named limit: the largest model count ``--sizes`` takes.  The benchmarks build a random
#: table of that many models and time the all-pairs baseline beside it (work that grows as
#: the square of the count: 5,000 models take about 3 s a baseline run): 10,000 is twice
#: the default's largest and ten times a map's ``MAX_MODELS``; 100,000,000 ran for minutes
#: before it was refused
MAX_BENCH_MODELS = 10_000
#: named limit: the most model counts one ``--sizes`` lists (each is a full run of every
#: benchmark chosen)
MAX_BENCH_SIZES = 10
#: named limit: the most timed runs ``--repeat`` asks of each odds case (the median of 5 is
#: the default; 100 is past any use)
MAX_BENCH_REPEAT = 100


def _sizes(text: str) -> list[int]:
    """The model counts ``--sizes`` lists: 2..``MAX_BENCH_MODELS`` each, at most
    ``MAX_BENCH_SIZES`` of them.

    Raises
    ------
    TabletopError
        One line naming ``--sizes`` and the value (the CLI exits 2).
    """
    words = [s for s in text.split(",") if s.strip()]
    if len(words) > MAX_BENCH_SIZES:
        raise TabletopError(f"tabletop bench: --sizes: give at most {MAX_BENCH_SIZES} model counts "
                            f"(MAX_BENCH_SIZES), got {len(words):,}")
    try:
        sizes = [int(s) for s in words]
    except ValueError:
        sizes = []
    if not sizes or any(n < 2 for n in sizes):
        raise TabletopError(f"tabletop bench: --sizes: give model counts of 2 or more separated "
                            f"by commas, such as {DEFAULT_SIZES}, got {text!r}")
    over = [n for n in sizes if n > MAX_BENCH_MODELS]
    if over:
        raise TabletopError(f"tabletop bench: --sizes {over[0]}: a benchmark table holds at most "
                            f"{MAX_BENCH_MODELS:,} models (MAX_BENCH_MODELS)")
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
    if repeat is not None and not 1 <= repeat <= MAX_BENCH_REPEAT:
        raise TabletopError(f"tabletop bench: --repeat: give 1 to {MAX_BENCH_REPEAT} timed runs "
                            f"(MAX_BENCH_REPEAT), got {repeat}")
    check_seed(args.seed, command="tabletop bench")
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
                   help="odds, pile-in, fight-scale: timed runs per case, the median "
                        "printed (default 5; odds: 3 for the slow cases)")
    p.add_argument("--skip-slow", action="store_true",
                   help="odds: leave out the cases that take seconds (the lessons, the 60x44 layout)")
    p.add_argument("--play", action="store_true",
                   help="window: also play the 60x44 layout's combat phase in the window "
                        "(view --play, headless) and report the median and longest frame")
    p.add_argument("--json", action="store_true", help="print the rows as one JSON object")
    p.set_defaults(run=run)
