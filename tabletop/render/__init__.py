"""Drawing to a pygame Surface (headless-safe): board, overlays, theme.

Only ``render/`` and ``app/`` import pygame.  Rendering reads state,
geometry and events and changes nothing.
"""
