"""Command line: ``tabletop view|render|check|measure|pile-in|consolidate|fight|charge|bench``.

Bad input (a map file, an argument, an impossible move) prints one line per
problem naming the place and what is wrong, and exits with status 2, never a
traceback.  Each command lives in its own module with ``add_parser``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from tabletop import __version__
from tabletop.errors import TabletopError

COMMANDS = ["view", "render", "check", "measure", "pile-in", "consolidate", "fight", "charge", "bench",
            "compare", "lesson"]


class UsageError(TabletopError):
    """A bad command-line argument."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``tabletop render: error: ...``) and status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see {self.prog} -h)")


def _module(cmd: str):
    return importlib.import_module(f"tabletop.cli.{cmd.replace('-', '_')}_cmd")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="tabletop", description=(
        "A 2D tabletop-wargame visualiser with measurement: base contact, engagement, "
        "flanks, coherency, pile-in and consolidation, combat resolution."))
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for cmd in COMMANDS:
        try:
            mod = _module(cmd)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("tabletop.cli."):
                continue
            raise
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except TabletopError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
