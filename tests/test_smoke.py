from tabletop.cli import main


def test_cli_help_exits_zero(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert "tabletop" in capsys.readouterr().out
