"""The live commands behind ``minebot play``, ``advise``, ``record`` and ``demo``.

Kept apart from :mod:`bot.cli` so that the simulated commands never import the screen stages.
The rooms: options (what a command is asked, the mine count), playing (play, demo), learning (a
run that learns a look by playing), report (what a run prints).
"""

from bot.commands.learning import learn_by_playing
from bot.commands.options import PlayOptions, mine_count, mines_told
from bot.commands.playing import demo, find_grid_on, lattice_on, play
from bot.commands.report import print_profile

__all__ = [
    "PlayOptions",
    "demo",
    "find_grid_on",
    "lattice_on",
    "learn_by_playing",
    "mine_count",
    "mines_told",
    "play",
    "print_profile",
]
