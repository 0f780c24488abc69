"""Screenshots of the window as it opens on a 1366x768 laptop: range rings, and the help.

``python tools/window_shot.py [MAP] [--unit ID] [--ring N] [-o OUT.png] [--help-out HELP.png]``
opens ``App`` at ``window.fit_size((1366, 768))`` on SDL's dummy driver, selects the
unit's first model, steps ``g`` to the ``N``-th ring (1: 1", 4: 6", 5: Move, 6: charge)
and saves the window; with ``--help-out`` it presses ``h`` and saves that too.
Defaults: the Hammer and Anvil layout's Outrider Squad (90x52.5mm ovals), the 6" ring,
``docs/window-rings.png``.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # this checkout's tabletop
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from tabletop.app.app import App  # noqa: E402
from tabletop.app.window import fit_size  # noqa: E402
from tabletop.board import mapfile  # noqa: E402

SCREEN = (1366, 768)


def key(app: App, k: int, uni: str) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=uni, scancode=0))


def frame(app: App, screen: pygame.Surface) -> None:
    for _ in range(12):                 # the panel rebuilds one text box a frame
        app.update(1 / 60)
    app.draw(screen)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("map", nargs="?", default="maps/ca-layout-1-hammer-and-anvil.toml")
    p.add_argument("--unit", default="outriders")
    p.add_argument("--ring", type=int, default=4)
    p.add_argument("-o", "--out", default="docs/window-rings.png")
    p.add_argument("--help-out")
    p.add_argument("--size", help="window WxH instead of fitting a 1366x768 screen")
    a = p.parse_args(argv)
    size = tuple(int(v) for v in a.size.lower().split("x")) if a.size else fit_size(SCREEN)
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    state = mapfile.load(a.map)
    app = App(state, a.map, size)
    app.select(state.unit(a.unit).models[0].id)
    for _ in range(a.ring):
        key(app, pygame.K_g, "g")
    frame(app, screen)
    pygame.image.save(screen, a.out)
    print(f"{a.out}: {size[0]}x{size[1]}, {app.messages[-1]}")
    if a.help_out:
        key(app, pygame.K_h, "h")
        frame(app, screen)
        pygame.image.save(screen, a.help_out)
        print(f"{a.help_out}: help, {app.help_layout().columns} column(s), "
              f"font {app.help_layout().font_px} px, {app.help_layout().pages} page(s)")
    pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
