"""minebot: plays real Minesweeper by looking at the screen.

Importing ``bot`` touches no screen, display or mouse.
"""

__version__ = "0.1.0"
