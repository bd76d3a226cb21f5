"""High Card, a sixth game that lives only here: the proof that a game is one folder.

`engine.py` is its rules (the engine contract), `board.py` its board (presenter, form
decoder, outcome phrases), `templates/` and `static/` what it shows. `conftest.py`
registers both for a test and takes them away after; no other file knows it.
"""
