"""Grimhand Arcana on the site: the ability cards as data (admin-managed definitions of the
engine's card schema), players' collections, shards and upgrades, and their named decks.

The engine (games/engine/grimhand/arcana) never touches this app: a match receives its card
pool, decks and card levels as plain data in its options (arcana.services.match_options),
so editing a card later never changes a running match or an old replay."""
