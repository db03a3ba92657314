"""Playing a look minebot has no pack for, and learning it as it plays (``learn.py``): the board as
the learner sees and touches it (``sight.py``), how long it must stay still (``settling.py``), how
a click went (``outcome.py``), what each look is (``naming.py``), and the next game (``restart.py``)."""
