"""Grimhand Arcana: the ability-card mode of Grimhand Tactics (`{"variant": "arcana"}`).

Decisions are in docs/rules/grimhand.md, part "Arcana". The package has the shape of every
engine package plus the mode's data: `cards` (ability cards, effects, decks), `statuses`,
`events` (match events) and `bosses`; `state`, `options`, `rules` and `view` as everywhere.
The game object stays `games.engine.grimhand.Grimhand`, which hands an `ArcanaState` here.
Pure: imports the standard library, `games.engine.core` and this package's modules.
"""
