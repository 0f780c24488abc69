"""``tabletop lesson MAP [--gif OUT.gif] [--mp4 OUT.mp4] [--step N] [--size WxH] [--json]``.

Plays a lesson map: its phase run with its own seed and ``[[decisions]]`` (it replays
exactly) and its ``[[lesson]]`` steps, each showing a step of that run with a title, the
clause it teaches and a note (``tabletop.board.lesson``); a pile-in or consolidation step
whose entry selects a model of the moving unit shades where it may end (``app.lesson_drag``).
Without ``--gif``/``--mp4`` it
opens the lesson window (``app.lesson_window``); ``--gif`` writes an animated GIF with one
picture per animation step (``render.lesson_plan``), ``--mp4`` an MP4 when imageio and
imageio-ffmpeg are installed.  ``--step N`` opens the window at lesson step N, or writes only
that step.  Outputs are never the map, and are written to a temporary file and renamed into
place.  ``--json`` prints what was written (``docs/json.md``); alone it prints the steps
and frames and opens no window.  Exit 0, or 2 for bad input (a bad ``[[lesson]]`` entry
is one located line).
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

from tabletop.cli.common import check_seed, load_map, print_json, state_faults
from tabletop.cli.output import add_force, cannot_write, check_new_output, check_output_folder
from tabletop.errors import MapValidationError, TabletopError

__all__ = ["add_parser", "run"]


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    w, sep, h = text.lower().partition("x")
    try:
        size = (int(w), int(h))
    except ValueError:
        size = (0, 0)
    if not sep or size[0] < 320 or size[1] < 200 or size[0] > 7680 or size[1] > 4320:
        raise TabletopError(f"tabletop lesson: --size {text}: give WIDTHxHEIGHT in pixels, "
                            f"from 320x200 to 7680x4320 (e.g. 1280x720)")
    return size


def _check_output(out: str, flag: str, ext: str, source: str | None, force: bool) -> None:
    if not out.lower().endswith(ext):
        raise TabletopError(f"{out}: {flag} writes a {ext[1:].upper()}; give a name ending in {ext}")
    if os.path.isdir(out):
        raise TabletopError(f"{out}: {flag} is a folder; give a file name")
    if source and os.path.exists(out) and os.path.samefile(out, source):
        raise TabletopError(f"{out}: {flag} is the map itself; give a new file name")
    check_output_folder(out, flag)
    check_new_output(out, source, force, flag)


def _page_json(page: Any, frames: int) -> dict[str, Any]:
    return {"title": page.entry.title, "clause": page.entry.clause, "text": page.entry.text,
            "step": page.index, "step_title": page.step.title if page.index else "setup",
            "moved": sorted(page.moves), "rolls": len(page.rolls), "frames": frames}


_LESSON_FAULT = re.compile(r": lesson\[(\d+)\]\.(step|clause): ")


def load_lesson_map(path: str):
    """The lesson map and the faults its load found in ``[[lesson]]`` steps and clauses, so
    the lesson's own checks (overlays, ids, step numbers and titles, order) run too and every
    fault is reported at once: ``(state, fault lines, indices of entries whose step is
    faulty)``.  A broken step is read as "setup" and a broken clause as its rule text alone,
    only to check the rest (the faults are still raised, by ``build_lesson``).  Any other
    load problem is raised as it is."""
    from tabletop.board import mapfile  # here, not at the top: --help reads no map
    from tabletop.board.lesson import RULE_TEXTS, SETUP

    try:
        return load_map(path), [], set()
    except MapValidationError as exc:
        hits = [_LESSON_FAULT.search(line) for line in exc.problems]
        if not all(hits):
            raise
        data = mapfile.read_toml(path)
        skip = set()
        for m in hits:
            i, field = int(m.group(1)), m.group(2)
            entry = data["lesson"][i]
            if field == "step":
                entry["step"] = SETUP
                skip.add(i)
            else:
                entry["clause"] = RULE_TEXTS[0]
        try:
            state = replace(mapfile.from_dict(data, path=path), path=path)
        except MapValidationError:
            raise exc from None
        more = state_faults(state, list(exc.problems))   # what load_map checks on a state
        if more:
            raise MapValidationError(mapfile.in_map_order(data, list(exc.problems) + more)) from None
        return state, list(exc.problems), skip


def run(args) -> int:
    check_seed(args.seed, command="tabletop lesson")
    size = _size(args.size)
    if args.gif and args.mp4:
        raise TabletopError("tabletop lesson: --gif and --mp4: give one")
    state, faults, skip = load_lesson_map(args.map)
    for flag, out, ext in (("--gif", args.gif, ".gif"), ("--mp4", args.mp4, ".mp4")):
        if out:
            _check_output(out, flag, ext, state.path, args.force)
    if args.mp4:
        from tabletop.render.lesson_movie import mp4_missing
        missing = mp4_missing()
        if missing:
            raise TabletopError(f"tabletop lesson: --mp4 needs {' and '.join(missing)} "
                                f"(pip install {' '.join(missing)}); --gif needs nothing more")
    from tabletop.render.lesson_plan import build_lesson
    lesson = build_lesson(state, args.seed, faults=faults, skip=skip)
    n = len(lesson.pages)
    if args.step is not None and not 1 <= args.step <= n:
        raise TabletopError(f"tabletop lesson: --step {args.step}: the lesson has steps 1 to {n}")
    from tabletop.render.motion import MOVE_ANIMATION_FRAMES
    slide = MOVE_ANIMATION_FRAMES
    pages = [args.step - 1] if args.step is not None and (args.gif or args.mp4) else None
    timeline = lesson.timeline(slide, pages)
    written = None
    if args.gif or args.mp4:
        from tabletop.render import lesson_movie
        write = lesson_movie.write_gif if args.gif else lesson_movie.write_mp4
        out = args.gif or args.mp4
        from tabletop.app.lesson_drag import lesson_regions
        try:
            written = write(lesson, out, timeline, size=size or lesson_movie.GIF_SIZE,
                            slide_frames=slide, region_of=lesson_regions(lesson), force=args.force)
        except TabletopError:
            raise
        except OSError as exc:
            raise TabletopError(cannot_write(out, exc)) from None
    elif not args.json:
        # ``--json`` alone prints the lesson's steps and frames and opens no window
        from tabletop.app.lesson_window import LESSON_WINDOW_SIZE, run_lesson_window
        run_lesson_window(lesson, (args.step or 1) - 1, size or LESSON_WINDOW_SIZE)
    if args.json:
        shown = pages if pages is not None else range(n)
        print_json({"map": state.name, "ruleset": state.ruleset, "seed": lesson.seed,
                    "phase_steps": len(lesson.log.steps),
                    "steps": [_page_json(lesson.pages[p], sum(1 for f in timeline if f.page == p))
                              for p in shown],
                    "frames": len(timeline), "slide_frames": slide, "output": written})
    elif written:
        print(f"Wrote {written}: {len(timeline)} frames, {len(pages or range(n))} lesson steps")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("lesson", help="play a lesson map in a window, or write it as a GIF/MP4",
                       description="Play a lesson map's [[lesson]] steps over its phase run (its "
                                   "own seed and decisions): a window with next/back/play, or an "
                                   "animated GIF/MP4. Exit 0, or 2 for bad input.")
    p.add_argument("map", metavar="MAP", help="lesson map file (TOML) with [[lesson]] steps")
    p.add_argument("--gif", metavar="OUT.gif", help="write an animated GIF instead of opening a window")
    p.add_argument("--mp4", metavar="OUT.mp4",
                   help="write an MP4 (needs imageio and imageio-ffmpeg installed)")
    add_force(p)
    p.add_argument("--step", type=int, metavar="N",
                   help="open at lesson step N (with --gif/--mp4: write only that step)")
    p.add_argument("--size", metavar="WxH",
                   help="pixel size of the window or the pictures (default 1366x768 window, "
                        "1280x720 GIF)")
    p.add_argument("--seed", type=int, help="dice seed (default: the map's [map] seed, else 1)")
    p.add_argument("--json", action="store_true",
                   help="print the lesson's steps and frames as JSON (alone: no window opens)")
    p.set_defaults(run=run)
