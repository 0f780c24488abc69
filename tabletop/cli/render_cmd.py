"""``tabletop render MAP -o OUT.png [--overlay NAME]... [--scale PX_PER_INCH] [--no-legend]``.

Draws the map headless (a plain pygame Surface, no window) and writes a PNG.
Exit 0; bad input (a bad map, an unknown overlay, OUT not ending in .png, a
folder that does not exist or cannot be written, a bad scale) prints one
line per problem and exits 2.  Never writes over the input map.
"""

from __future__ import annotations

import math
import os
import sys

from tabletop.cli.common import load_map
from tabletop.cli.output import add_force, cannot_write, folder_problem, write_problem
from tabletop.errors import TabletopError


def headless() -> None:
    """Use SDL's dummy video driver when there is no display (before pygame is imported)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if sys.platform.startswith(("linux", "freebsd", "openbsd")) and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _check_out(out: str, map_path: str, force: bool = False) -> list[str]:
    problems = []
    if not out.strip():
        return ["-o: give a picture file name ending .png (got an empty name)"]
    if not out.lower().endswith(".png"):
        problems.append(f"{out}: -o must name a .png file")
    if os.path.isdir(out):
        problems.append(f"{out}: -o is a folder; give a file name such as "
                        f"{os.path.join(out, 'table.png')}")
    elif os.path.exists(out) and os.path.exists(map_path) and os.path.samefile(out, map_path):
        problems.append(f"{out}: -o is the input map; write the picture to a new file")
    elif not force and os.path.lexists(out):
        problems.append(f"{out}: -o: already exists; give --force to replace it, or a new name")
    missing = folder_problem(out)                # no command makes folders for its output
    if missing:
        problems.append(missing)
    else:
        problems += [p for p in [write_problem(out)] if p]
    return problems


def run(args) -> int:
    headless()
    from tabletop.render.image import MAX_SIDE_PX, render_image, save_png
    from tabletop.render.options import resolve_overlays

    problems = []
    try:
        overlays = resolve_overlays(args.overlay or [])
    except ValueError as exc:
        problems.append(f"--overlay: {exc}")
        overlays = frozenset()
    # finite and at most MAX_SIDE_PX: a scale of more pixels per inch than an image may have
    # a side can draw no table (an inf or 1e308 scale overflowed the pixel sizes: issue 11)
    if args.scale is not None and not (math.isfinite(args.scale) and 0 < args.scale <= MAX_SIDE_PX):
        problems.append(f"--scale: must be a positive number of pixels per inch, at most "
                        f"{MAX_SIDE_PX} (MAX_SIDE_PX), got {args.scale:g}")
    problems += _check_out(args.output, args.map, args.force)
    if problems:
        raise TabletopError(problems)
    state = load_map(args.map)
    kwargs = {} if args.scale is None else {"scale": args.scale}
    try:
        surface = render_image(state, overlays=overlays, legend=not args.no_legend, **kwargs)
    except ValueError as exc:
        raise TabletopError(f"--scale: {exc}") from None
    try:
        save_png(surface, args.output, force=args.force, keep=(args.map,))
    except TabletopError:
        raise
    except OSError as exc:
        raise TabletopError(cannot_write(args.output, exc)) from None
    w, h = surface.get_size()
    on = ", ".join(sorted(overlays)) or "none"
    print(f"wrote {args.output} ({w} x {h} px; overlays: {on})")
    return 0


def add_parser(sub) -> None:
    from tabletop.render.options import DEFAULT_SCALE, OVERLAYS

    p = sub.add_parser(
        "render", help="draw the map to a PNG (headless)",
        description="Draw the map to a PNG without a window: table, 1\" grid, terrain, zones, "
                    "objectives, bases true to scale, unit labels, a legend, and overlays.")
    p.add_argument("map", metavar="MAP", help="map file (TOML)")
    p.add_argument("-o", "--output", metavar="OUT.png", required=True, help="the PNG to write")
    p.add_argument("--overlay", metavar="NAME", action="append",
                   help=f"draw an overlay (repeat or comma-separate): {', '.join(OVERLAYS)}, all")
    p.add_argument("--scale", metavar="PX_PER_INCH", type=float,
                   help=f"pixels per inch (default {DEFAULT_SCALE:g}: a 60\" table is 1400 px wide)")
    p.add_argument("--no-legend", action="store_true", help="leave out the legend strip")
    add_force(p)
    p.set_defaults(run=run)
