"""minebot: plays real Minesweeper by looking at the screen.

Importing ``bot`` touches no screen, display or mouse.
"""

import os

# minebot's matrix products are small (an Expert board's 480 cells by a pack's tiles): OpenBLAS's
# threads only fight the game and the desktop for the cores. One thread read a board in 8 ms where
# its default took 16, beside two busy processes (2 cores). Set before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
