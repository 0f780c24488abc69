"""Start-up (issue 11 item 4): ``tabletop --help`` imports no command, each command imports
what it uses, and the help lines listed without importing equal the commands' own."""

from __future__ import annotations

import argparse
import subprocess
import sys

from tabletop import cli


def _sub_helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a.help for a in sub._choices_actions}


def test_listed_help_equals_each_commands_own():
    assert _sub_helps(cli.build_parser()) == cli.COMMAND_HELP
    assert _sub_helps(cli.build_parser(["--help"])) == cli.COMMAND_HELP


def test_help_imports_no_command_and_a_command_only_itself():
    code = ("import sys; from tabletop import cli\n"
            "try:\n    cli.main(ARGV)\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('tabletop.')))")
    def loaded(argv):
        out = subprocess.run([sys.executable, "-c", code.replace("ARGV", repr(argv))],
                             capture_output=True, text=True, check=True).stdout
        return eval(out.strip().splitlines()[-1])
    top = loaded(["--help"])
    assert not [m for m in top if m.endswith("_cmd")], top
    assert not [m for m in top if m.startswith(("tabletop.geometry", "tabletop.rules", "tabletop.render"))]
    measure = loaded(["measure", "--help"])
    assert [m for m in measure if m.endswith("_cmd")] == ["tabletop.cli.measure_cmd"]


#: what no ``--help`` may import: the geometry and physics libraries, pygame, the map
#: reader's schema, and tabletop's own geometry, rules and drawing layers
HEAVY = ("shapely", "pymunk", "numpy", "pygame", "pydantic", "tabletop.board.mapfile",
         "tabletop.geometry", "tabletop.rules", "tabletop.render.board", "tabletop.app")


def test_no_commands_help_imports_the_heavy_layers():
    # issue 11 item 4: `tabletop CMD --help` for EVERY command imports only the command's
    # module; its map reader, geometry and rules wait for its run.  One process runs every
    # command's --help in turn, so the modules loaded at the end are the union of all of
    # them: none of HEAVY may be among them (before: `check --help` loaded shapely, numpy
    # and the rules; `fight --help` pymunk too; `lesson --help` pydantic).
    code = ("import sys, io, contextlib; from tabletop import cli\n"
            f"for cmd in {cli.COMMANDS!r}:\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n            cli.main([cmd, '--help'])\n"
            "        except SystemExit:\n            pass\n"
            "print(sorted(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    loaded = eval(out.strip().splitlines()[-1])
    assert [m for m in loaded if m.endswith("_cmd")] == sorted(
        f"tabletop.cli.{c.replace('-', '_')}_cmd" for c in cli.COMMANDS)
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]
    assert heavy == [], heavy


def test_every_commands_help_prints_its_usage(capsys):
    # the parser each command builds without its heavy imports is still its whole parser
    for cmd in cli.COMMANDS:
        try:
            cli.main([cmd, "--help"])
        except SystemExit as exc:
            assert exc.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: tabletop {cmd} "), (cmd, out[:80])


def test_unknown_command_is_one_line_exit_2(capsys):
    assert cli.main(["nosuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid choice: 'nosuch'" in err[0]


def test_a_closed_output_pipe_never_exits_0(monkeypatch, capsys):
    # a reader that stops early (``tabletop compare ... | head -1``): the command cannot finish
    # saying what is off, so its status is SIGPIPE's 128 + 13 = 141, not 0 ("in place")
    import tabletop.cli as cli

    def closed(args):
        raise BrokenPipeError
    monkeypatch.setattr(cli, "build_parser", lambda argv: _Parser(closed))
    monkeypatch.setattr("tabletop.cli.arg_checks.check_args", lambda parser, args: None)
    assert cli.main(["compare", "a.toml", "b.toml"]) == 141


class _Parser:
    def __init__(self, run):
        self.run = run

    def parse_args(self, argv):
        import argparse
        return argparse.Namespace(command="compare", run=self.run)
