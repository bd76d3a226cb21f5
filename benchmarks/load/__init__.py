"""The live-core load benchmark (`make loadtest`): the production shape under real traffic.

Run it as `python -m benchmarks.load` from the project root (see README.md beside this file).
Modules: `stats` (percentiles), `schedule` (the open-loop rate scheduler), `board` (reading
the move form and the pushes), `stack` (starting and stopping PostgreSQL database, uvicorn and
Celery), `setup_data` (players and matches, run inside Django), `players` (logged-in players,
their sockets and the match loop), `phases` (what each phase measures), `__main__` (the run).
"""
