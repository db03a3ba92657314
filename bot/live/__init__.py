"""A real game on the screen: the table the play loop plays on (``table.py``: reading, clicking,
chording), the check before each click (``guard.py``), and the commands that only watch
(``watch.py``: advise, record)."""
