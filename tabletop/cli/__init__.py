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
from tabletop.errors import TabletopError, capped, printable, shorten_echoes

#: every command and its one-line help, in the order ``tabletop --help`` lists them.  Only
#: the command being run is imported (``build_parser``): ``tabletop --help`` imports none
#: of them (issue 11: start-up), and each command imports what it uses.  A test checks
#: each line here equals the help its module's ``add_parser`` gives.
COMMAND_HELP = {
    "view": "the interactive window",
    "render": "draw the map to a PNG (headless)",
    "check": "layout report: overlaps, off-table, coherency, engagement, objectives",
    "measure": "edge-to-edge distance between two ids",
    "pile-in": "make a unit's pile-in move and write the map after it",
    "consolidate": "make a unit's consolidation move and write the map after it",
    "fight": "resolve the map's combat phase end to end, printing each roll",
    "charge": "charge plan: distance, odds, side of the target it lands on",
    "bench": "time the geometry against naive baselines, and the odds",
    "compare": "a measured table against its published layout: moved, turned, walls, missing",
    "lesson": "play a lesson map in a window, or write it as a GIF/MP4",
    "roster": "place an exported army list (BattleScribe, New Recruit, 40K app) in a deployment zone",
    "layout": "terrain-layout JSON (40kdc-data schema) into a map, or a map out to it",
    "edit": "the table editor: place terrain, objectives, zones and units, and save a map",
}
COMMANDS = list(COMMAND_HELP)


class UsageError(TabletopError):
    """A bad command-line argument."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``tabletop render: error: ...``) and status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see {self.prog} -h)")


def _module(cmd: str):
    return importlib.import_module(f"tabletop.cli.{cmd.replace('-', '_')}_cmd")


def _chosen(argv: list[str]) -> str | None:
    """The command ``argv`` runs: its first word that is not an option, when it names one."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMAND_HELP else None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command-line parser.  With ``argv``, only the command it runs is imported and
    given its arguments; the others are listed by name and help (``COMMAND_HELP``).
    Without it, every command is imported (for tests and documentation)."""
    parser = Parser(prog="tabletop", description=(
        "A 2D tabletop-wargame visualiser with measurement: base contact, engagement, "
        "flanks, coherency, pile-in and consolidation, combat resolution."))
    parser.add_argument("--version", action="version", version=f"tabletop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    chosen = _chosen(argv) if argv is not None else None
    for cmd in COMMANDS:
        if argv is not None and cmd != chosen:
            sub.add_parser(cmd, help=COMMAND_HELP[cmd], add_help=False)
            continue
        try:
            mod = _module(cmd)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("tabletop.cli."):
                continue
            raise
        mod.add_parser(sub)
    return parser


class _Escaped:
    """A text stream that escapes control characters (``errors.printable``) on the way out:
    whatever a map says reaches the terminal as text, never as a control code."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text, keep="\n\t"))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


#: the exit status when standard output is closed before the command is done (SIGPIPE's)
BROKEN_PIPE_STATUS = 141


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status.  Every line printed has its control
    characters escaped (``errors.printable``); each problem of a ``TabletopError`` is one
    line, a newline inside it escaped too, and at most ``errors.MAX_ERROR_LINES`` of them
    are printed (``errors.capped``: then one line says how many more there were)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaped(out), _Escaped(err)
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        from tabletop.cli.arg_checks import check_args
        check_args(parser, args)
        return int(args.run(args) or 0)
    except TabletopError as exc:
        for line in capped(exc.problems):
            print(printable(shorten_echoes(line)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``| head -1``) before the command said all it had: its
        # status is not known, so exit as a Unix tool killed by SIGPIPE does (the shell's
        # 128 + 13), never 0, which would tell a script that a table is in place
        try:
            out = open(os.devnull, "w")
        except OSError:
            pass
        return BROKEN_PIPE_STATUS
    finally:
        if isinstance(sys.stdout, _Escaped):
            sys.stdout = out
        if isinstance(sys.stderr, _Escaped):
            sys.stderr = err
