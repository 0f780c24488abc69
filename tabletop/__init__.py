"""tabletop: a 2D tabletop-wargame visualiser with measurement.

Coordinates are inches, origin at the table's bottom-left corner, x along the
width, y along the depth, y up. Base sizes are millimetres as the hobby writes
them, converted once (25.4 mm = 1"). Facing is degrees counter-clockwise
from +x.

Layers import in one direction: board -> geometry -> rules -> render -> app/cli.
"""

__version__ = "0.1.0"
