"""The main loop and ``tabletop view`` (SDL dummy driver; the loop is closed by a QUIT event)."""

from __future__ import annotations

import pygame

from tabletop.cli import main

MAP = """\
[map]
name = "Run test"
ruleset = "fight-phase"
width = 30.0
depth = 20.0

[[players]]
id = "red"
active = true

[[units]]
id = "a"
player = "red"
base = "32mm"
models = [[5, 5]]
"""


def _quit_after(monkeypatch, frames: int, seen: list):
    real_get = pygame.event.get

    def fake_get(*args, **kwargs):
        real_get()
        seen.append(pygame.display.get_surface().get_size())
        if len(seen) >= frames:
            return [pygame.event.Event(pygame.QUIT)]
        return [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o", scancode=0)]

    monkeypatch.setattr(pygame.event, "get", fake_get)


def test_view_opens_the_window_and_quits(write_map, monkeypatch):
    path = write_map(MAP)
    seen: list = []
    _quit_after(monkeypatch, 3, seen)
    assert main(["view", path, "--size", "1000x700"]) == 0
    assert seen == [(1000, 700)] * 3


def test_view_bad_input_exits_2(write_map, capsys):
    assert main(["view", "no-such-map.toml"]) == 2
    assert "no-such-map.toml: no such file" in capsys.readouterr().err
    assert main(["view", write_map(MAP), "--size", "big"]) == 2
    assert "--size: 'big' is not WIDTHxHEIGHT" in capsys.readouterr().err



def test_view_without_a_display_exits_2_at_once(write_map, monkeypatch, capsys):
    import sys
    if not sys.platform.startswith("linux"):
        return
    path = write_map(MAP)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["view", path]) == 2
    assert "no display" in capsys.readouterr().err
