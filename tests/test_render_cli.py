"""``tabletop render``: exit codes, the PNG written, never over the input map."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from tabletop.cli import main

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
PIXELS = str(SCENARIOS / "render-pixels.toml")


def test_render_writes_a_png(tmp_path, capsys):
    out = tmp_path / "table.png"
    assert main(["render", PIXELS, "-o", str(out), "--overlay", "all"]) == 0
    img = pygame.image.load(str(out))
    # 24" x 16" at 22 px/inch + 40 px margins: 608 px wide, taller with the legend
    assert img.get_width() == 608 and img.get_height() > 432
    assert "wrote" in capsys.readouterr().out


def test_render_scale_and_no_legend(tmp_path):
    out = tmp_path / "small.png"
    assert main(["render", PIXELS, "-o", str(out), "--scale", "10", "--no-legend"]) == 0
    # 24 * 10 + 80 = 320, 16 * 10 + 80 = 240
    assert pygame.image.load(str(out)).get_size() == (320, 240)


def test_render_overlays_repeat_and_comma(tmp_path):
    out = tmp_path / "o.png"
    assert main(["render", PIXELS, "-o", str(out), "--overlay", "contact,coherency",
                 "--overlay", "overlaps"]) == 0


@pytest.mark.parametrize("args, message", [
    (["--overlay", "nope"], "unknown overlay 'nope'"),
    (["--scale", "0"], "--scale"),
    (["--scale", "900"], "smaller --scale"),
])
def test_render_bad_arguments_exit_2(tmp_path, capsys, args, message):
    out = tmp_path / "x.png"
    assert main(["render", PIXELS, "-o", str(out), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not out.exists()


def test_render_missing_map_exit_2(tmp_path, capsys):
    assert main(["render", str(tmp_path / "none.toml"), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "none.toml" in err[0]


def test_render_bad_map_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\nname = "x"\nwidth = "wide"\n', encoding="utf-8")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert "bad.toml" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("out, message", [
    ("table.jpg", "must name a .png"),
    ("a-file.txt/table.png", "is a file, not a folder"),
])
def test_render_bad_output_exit_2(tmp_path, capsys, out, message):
    (tmp_path / "a-file.txt").write_text("not a folder")
    assert main(["render", PIXELS, "-o", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_render_never_writes_over_the_input_map(tmp_path, capsys):
    # a map file that happens to end in .png: -o naming it is refused, the file kept
    src = tmp_path / "map.png"
    shutil.copy(PIXELS, src)
    before = src.read_bytes()
    assert main(["render", str(src), "-o", str(src)]) == 2
    assert "input map" in capsys.readouterr().err
    assert src.read_bytes() == before


def test_render_output_folder_refused(tmp_path, capsys):
    folder = tmp_path / "pics.png"
    folder.mkdir()
    assert main(["render", PIXELS, "-o", str(folder)]) == 2
    assert "folder" in capsys.readouterr().err


MAPS = sorted((Path(__file__).resolve().parent.parent / "maps").glob("**/*.toml"))


@pytest.mark.parametrize("map_path", MAPS, ids=[p.stem for p in MAPS])
def test_every_shipped_map_renders(tmp_path, map_path):
    out = tmp_path / f"{map_path.stem}.png"
    assert main(["render", str(map_path), "-o", str(out), "--overlay", "all", "--scale", "8"]) == 0
    assert pygame.image.load(str(out)).get_width() > 0


def test_render_refuses_a_missing_folder_like_every_output(tmp_path, capsys):
    # issue 11 audit: no command makes folders for its output (cli/output.py's one line)
    out = tmp_path / "new" / "folder" / "table.png"
    assert main(["render", PIXELS, "-o", str(out)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{out}: the folder {tmp_path / 'new' / 'folder'} does not exist (-o makes no folders)")
    assert not (tmp_path / "new").exists()
