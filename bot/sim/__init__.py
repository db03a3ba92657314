"""The simulated game (``game.py``: the real games' rules, seeded) and the win-rate benchmark on it
(``bench.py``). No screen, no mouse."""
