"""The interactive window: tools (select, drag, ruler), step-through, lessons.

``tabletop.app.window.run(state, path, steps=None, events=None)`` opens it;
``tabletop.app.app.App`` holds its logic (testable without a display).
``view --fight --play``: ``tabletop.app.interactive.PlaySession`` drives the
phase on the rules engine from the window's loop (no thread) and hands each
unscripted question to the window (``play.PlayController``, ``ask_panel.AskPanel``).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
