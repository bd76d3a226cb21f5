"""Simulation: AI levels play many matches of a game through the engine, and the results
are tallied (what `manage.py simulate` prints; pure Python, no database).

- `matches.simulate`: a run, one level per seat, the levels rotating through the seats
  and each deal played once per rotation; wins, a 95% interval, plies and engine speed,
  or a one-seat game's score distribution (deck balancing).
- `ladder.ladder`: every level against every other, a win-share grid with 95% intervals
  and each level's decision time.
- `checks`: what a run may be asked to play (`SimulationError` says what is wrong);
  `deals`: which deal each match plays and who sits where; `stats`: the intervals and
  percentiles; `tables`: a report as text.

Invariants: the standard library, `games.engine` and `games.ai` only, never Django; the
bots are the levels of `games.ai.levels`, played by `games.ai.play.play_match`, which
calls the engine exactly as the site does. A report is reproducible from its seed, but
for its timings.
"""
