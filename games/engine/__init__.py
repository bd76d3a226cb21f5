"""The rules engines: pure Python, one package per game, all of the same shape.

- `core`: the contract every game implements (`Game`), the values it trades in (`Event`,
  `Outcome`, `Option`, `IllegalMove`, `InvalidOptions`) and `replay`;
- `chance`: the keyed chance source, the only randomness a game has;
- `registry`: slug -> game, the only place that lists the games;
- `<slug>/`: one package per game: `__init__` (the game object, nothing else), `state`,
  `options`, `rules` and `view`, plus pure card data where a game has some (`cards`,
  `default_deck`). docs/architecture.md, "One game, one package", says what goes where.

Pure: imports the standard library and itself only, never Django, Channels, Celery or
the rest of the project. `make test` enforces it (`lint-imports`, the contracts in
pyproject.toml) and checks the types strictly (`mypy`).
"""
