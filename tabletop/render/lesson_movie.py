"""A lesson written as an animated GIF (Pillow) or an MP4 (imageio with imageio-ffmpeg).

One picture per animation step (``render.lesson_plan``: slides, the still, one per roll),
drawn by ``render.lesson_draw.LessonPainter``.  Each picture lasts ``GIF_SLIDE_MS`` (a slide
frame), ``GIF_ROLL_MS`` (a roll appearing) or ``GIF_HOLD_MS`` (a page's last picture, so the
note can be read).  The output is written to a temporary file made exclusively beside it and
renamed into place, so a half-written file never stands under the output's name.

``region_of`` (``render.lesson_draw.RegionOf``), when given, shades where a page's
``select``ed model may end its pile-in or consolidation on that page's still and dice
pictures (``tabletop lesson`` passes ``app.legal_drag.StepMoves``'s).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence

import pygame

from tabletop.render.lesson_draw import LessonPainter, RegionOf
from tabletop.render.lesson_plan import Frame, Lesson

__all__ = ["GIF_HOLD_MS", "GIF_PALETTE_STRIDE", "GIF_ROLL_MS", "GIF_SIZE", "GIF_SLIDE_MS",
           "MP4_NEEDS", "durations", "gif_palette", "mp4_missing", "write_gif", "write_mp4"]

GIF_SIZE = (1280, 720)
"""Named default: pixel size of an exported lesson (a 720p picture: sharp on a projector,
small enough to share)."""

GIF_SLIDE_MS = 40
"""Named default: milliseconds a slide picture lasts (25 a second, smooth enough to follow)."""

GIF_ROLL_MS = 350
"""Named default: milliseconds before the next roll appears (time to read the dice)."""

GIF_HOLD_MS = 3000
"""Named default: milliseconds a page's last picture lasts (time to read its note)."""

GIF_PALETTE_STRIDE = 2
"""Named default: the GIF's one palette is built from every picture, sampled every this many
pixels each way (nearest pixel, so no colour is blended away): a colour only some pictures
show, such as the legal-region shading's light and strong bands, still gets its own entry,
at a quarter of the memory a full-size sample would take."""

MP4_NEEDS = ("imageio", "imageio_ffmpeg")
"""The Python packages ``--mp4`` needs (pip names ``imageio``, ``imageio-ffmpeg``)."""


def durations(timeline: Sequence[Frame]) -> list[int]:
    """Milliseconds each picture of ``timeline`` lasts: a page's last ``GIF_HOLD_MS``, other
    slide pictures ``GIF_SLIDE_MS``, the still and the rolls ``GIF_ROLL_MS``."""
    out = []
    for k, f in enumerate(timeline):
        last = k + 1 == len(timeline) or timeline[k + 1].page != f.page
        out.append(GIF_HOLD_MS if last else GIF_SLIDE_MS if f.kind == "slide" else GIF_ROLL_MS)
    return out


def _pictures(lesson: Lesson, timeline: Sequence[Frame], size: tuple[int, int], slide_frames: int,
              region_of: RegionOf | None = None):
    painter = LessonPainter(lesson, size, slide_frames=slide_frames, region_of=region_of)
    surface = pygame.Surface(size)
    for k, frame in enumerate(timeline, start=1):
        painter.draw(surface, frame, k, len(timeline))
        yield pygame.image.tobytes(surface, "RGB")


def _atomic(out: str, suffix: str, write: Callable[[str], None], force: bool = False) -> str:
    """``write(tmp)`` fills a temporary file of its own, renamed to ``out`` after
    (``board.writes.atomic_target``; ``suffix`` is kept for the writers' sake)."""
    from tabletop.board.writes import atomic_target

    with atomic_target(out, force=force) as tmp:
        write(tmp)
    return out


def gif_palette(pics):
    """One 256-colour palette image (Pillow mode ``P``) for all of ``pics`` (RGB images of one
    size): the pictures sampled every ``GIF_PALETTE_STRIDE`` pixels (nearest, so no colour is
    blended), stacked, and reduced by octree, which keeps a colour a few pictures show (the
    legal-region bands) where a median cut of the first picture merged them into one grey-blue.
    One shared palette keeps the colours steady between pictures, and no dithering keeps
    flat fills flat."""
    from PIL import Image

    w, h = pics[0].size
    k = GIF_PALETTE_STRIDE
    sw, sh = max(1, w // k), max(1, h // k)
    sheet = Image.new("RGB", (sw, sh * len(pics)))
    for n, pic in enumerate(pics):
        sheet.paste(pic.resize((sw, sh), Image.Resampling.NEAREST), (0, n * sh))
    return sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def write_gif(lesson: Lesson, out: str, timeline: Sequence[Frame], *,
              size: tuple[int, int] = GIF_SIZE, slide_frames: int,
              region_of: RegionOf | None = None, force: bool = False) -> str:
    """Write ``timeline``'s pictures of ``lesson`` as an animated GIF at ``out``, looping.

    Raises
    ------
    OSError
        The file cannot be written.
    """
    from PIL import Image

    pics = [Image.frombytes("RGB", size, raw)
            for raw in _pictures(lesson, timeline, size, slide_frames, region_of)]
    palette = gif_palette(pics)
    frames = [p.quantize(palette=palette, dither=Image.Dither.NONE) for p in pics]

    def save(tmp: str) -> None:
        frames[0].save(tmp, format="GIF", save_all=True, append_images=frames[1:],
                       duration=durations(timeline), loop=0, disposal=1, optimize=False)
    return _atomic(out, ".gif", save, force)


def mp4_missing() -> list[str]:
    """The pip names of ``MP4_NEEDS`` not installed (``[]`` when ``--mp4`` can run)."""
    return [name.replace("_", "-") for name in MP4_NEEDS if importlib.util.find_spec(name) is None]


def write_mp4(lesson: Lesson, out: str, timeline: Sequence[Frame], *,
              size: tuple[int, int] = GIF_SIZE, slide_frames: int,
              region_of: RegionOf | None = None, force: bool = False) -> str:
    """Write ``timeline``'s pictures as an MP4 (H.264 through imageio-ffmpeg) at 25 frames a
    second, each picture repeated for its ``durations`` share.

    Raises
    ------
    ImportError
        imageio or imageio-ffmpeg is not installed (``mp4_missing``).
    OSError
        The file cannot be written.
    """
    import imageio.v2 as imageio
    import numpy as np

    fps = 1000 // GIF_SLIDE_MS
    times = durations(timeline)

    def save(tmp: str) -> None:
        writer = imageio.get_writer(tmp, format="FFMPEG", fps=fps, codec="libx264",
                                    macro_block_size=8)
        try:
            for raw, ms in zip(_pictures(lesson, timeline, size, slide_frames, region_of), times):
                pic = np.frombuffer(raw, dtype=np.uint8).reshape(size[1], size[0], 3)
                for _ in range(max(1, round(ms / GIF_SLIDE_MS))):
                    writer.append_data(pic)
        finally:
            writer.close()
    return _atomic(out, ".mp4", save, force)
