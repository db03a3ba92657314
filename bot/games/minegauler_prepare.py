"""Prepare minegauler (PyPI) for a game at a given size; run by minegauler's own Python, not ours.

    <minegauler's venv>/bin/python minegauler_prepare.py ROWS COLS MINES

Writes its settings file (board size, 16 px cells, standard look, no name) and, once, a best time
of 0 s for each level: minegauler opens a highscores window after a new best, and that window
crashes minegauler 4.2 under Python >= 3.10 (``QSize(width, width / 1.61)`` gets a float).
"""

import json
import sys

from minegauler.app import highscores, paths  # type: ignore[import-not-found]
from minegauler.app.highscores import HighscoreStruct, get_highscores  # type: ignore[import-not-found]


def main(rows: int, cols: int, mines: int) -> None:
    settings = {
        "x_size": cols,
        "y_size": rows,
        "mines": mines,
        "first_success": True,
        "per_cell": 1,
        "reach": 8,
        "lives": 1,
        "mode": "REGULAR",
        "btn_size": 16,
        "drag_select": False,
        "name": "",
        "styles": {"BUTTONS": "Standard", "NUMBERS": "Standard", "MARKERS": "Standard"},
    }
    paths.SETTINGS_FILE.write_text(json.dumps(settings, indent=2))
    for level in "BIE":
        unbeatable = HighscoreStruct(
            game_mode="REGULAR",
            difficulty=level,
            per_cell=1,
            reach=8,
            drag_select=False,
            name="",
            timestamp=0,
            elapsed=0.0,
            bbbv=1,
            bbbvps=1e9,
            flagging=0.0,
        )
        if not any(h.elapsed == 0 for h in get_highscores(settings=unbeatable)):
            highscores.insert_highscore(unbeatable, post_remote=False)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
