"""The interactive window: tools (select, drag, ruler), step-through, lessons.

``tabletop.app.window.run(state, path, steps=None, events=None)`` opens it;
``tabletop.app.app.App`` holds its logic (testable without a display).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
