"""Drawing to a pygame Surface (headless-safe): board, overlays, theme.

Only ``render/`` and ``app/`` import pygame.  Rendering reads state,
geometry and events and changes nothing.  Modules: ``view`` (inches <->
pixels, no pygame), ``options`` (overlay names, default scale; no pygame),
``theme`` (colours, fonts), ``prims`` (drawing primitives), ``board``
(``draw_board``, ``draw_legend``), ``legend``, ``image`` (whole pictures,
PNG), ``steps`` (teaching frames: ``draw_step``, ``DRAWERS``,
``save_frames``, ``draw_frame``), ``rank_and_flank`` / ``challenges`` (the
rulesets' drawer tables, read by ``steps.DRAWERS``), ``framing`` (which part
of the table a frame shows: ``frame_box``, ``FOCUS``; no pygame), ``inset``
(the whole-table thumbnail and the scale bar of a zoomed frame).  Nothing
registers itself at import time.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
