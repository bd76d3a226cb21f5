"""BaniraCards' default deck list: 50 cards as plain data, used when the options bring none.

This is exactly the shape a deck list arrives in from anywhere else (the Django admin's
deck lists, a test, a puzzle): `DEFAULT_DECK` is a list of card dicts with the keys
id, name, element, type, rarity, points, stamina, draws (docs/rules/banira.md, "The deck
as data"). The rows below are only a compact way to write those 50 dicts.

The composition (the reasons are in docs/rules/banira.md, "The default deck"):
- 7 cards of each element, 8 of Diamond: each element has one rainbow, one shiny and two
  stars; 18 Sun, 18 Moon and 14 Star cards in all.
- Rarities: 7 rainbow, 11 gold, 12 silver, 13 bronze, 7 shiny.
- Stats: every Sun and Moon card's points + stamina + draws total 8, every Star's 10.
  15 cards have one negative stat (-1 or -2); one draws 8. In all: 135 points, 184
  stamina, 109 draws, against the 54 points and 55 stamina a run needs just to unlock
  and cover the ten slots (stacking costs stamina on top).

Pure data. Pure: imports the standard library and this package's `cards` (for the keys).
"""

from __future__ import annotations

from typing import Any

from games.engine.banira.cards import CARD_KEYS

# id, name, element, type, rarity, points, stamina, draws
_ROWS: tuple[tuple[str, str, str, str, str, int, int, int], ...] = (
    ("aq1", "Aquamarine Tide", "aquamarine", "sun", "rainbow", 3, 6, -1),
    ("aq2", "Aquamarine Current", "aquamarine", "sun", "gold", 2, 5, 1),
    ("aq3", "Aquamarine Spray", "aquamarine", "sun", "shiny", 4, 5, -1),
    ("aq4", "Aquamarine Undertow", "aquamarine", "moon", "bronze", 0, 5, 3),
    ("aq5", "Aquamarine Harbor", "aquamarine", "moon", "bronze", 5, 4, -1),
    ("aq6", "Aquamarine Ripple", "aquamarine", "star", "gold", 2, 5, 3),
    ("aq7", "Aquamarine Squall", "aquamarine", "star", "gold", 3, 3, 4),
    ("am1", "Amethyst Dusk", "amethyst", "sun", "bronze", 3, 3, 2),
    ("am2", "Amethyst Reverie", "amethyst", "sun", "rainbow", 1, 3, 4),
    ("am3", "Amethyst Veil", "amethyst", "moon", "shiny", 2, 3, 3),
    ("am4", "Amethyst Omen", "amethyst", "moon", "silver", 2, 2, 4),
    ("am5", "Amethyst Lantern", "amethyst", "moon", "gold", 4, 3, 1),
    ("am6", "Amethyst Hush", "amethyst", "star", "gold", 3, 5, 2),
    ("am7", "Amethyst Augur", "amethyst", "star", "bronze", -2, 6, 6),
    ("ru1", "Ruby Ember", "ruby", "sun", "rainbow", -1, 5, 4),
    ("ru2", "Ruby Blaze", "ruby", "sun", "silver", 5, -1, 4),
    ("ru3", "Ruby Cinder", "ruby", "sun", "silver", 2, 4, 2),
    ("ru4", "Ruby Pyre", "ruby", "moon", "silver", 4, 2, 2),
    ("ru5", "Ruby Forge", "ruby", "moon", "shiny", 3, 4, 1),
    ("ru6", "Ruby Spark", "ruby", "star", "gold", 4, 4, 2),
    ("ru7", "Ruby Flare", "ruby", "star", "bronze", 3, 4, 3),
    ("to1", "Topaz Dune", "topaz", "sun", "silver", 1, 4, 3),
    ("to2", "Topaz Mirage", "topaz", "sun", "rainbow", 3, 2, 3),
    ("to3", "Topaz Amber", "topaz", "moon", "shiny", 2, 4, 2),
    ("to4", "Topaz Gleam", "topaz", "moon", "silver", 3, 6, -1),
    ("to5", "Topaz Honey", "topaz", "moon", "silver", 2, 5, 1),
    ("to6", "Topaz Sirocco", "topaz", "star", "bronze", 6, 5, -1),
    ("to7", "Topaz Zenith", "topaz", "star", "silver", 6, -2, 6),
    ("em1", "Emerald Grove", "emerald", "sun", "silver", 4, 5, -1),
    ("em2", "Emerald Thicket", "emerald", "sun", "gold", 0, 5, 3),
    ("em3", "Emerald Bloom", "emerald", "sun", "shiny", 5, 4, -1),
    ("em4", "Emerald Moss", "emerald", "moon", "rainbow", 3, 3, 2),
    ("em5", "Emerald Canopy", "emerald", "moon", "silver", 1, 3, 4),
    ("em6", "Emerald Fern", "emerald", "star", "bronze", 4, 7, -1),
    ("em7", "Emerald Sprout", "emerald", "star", "bronze", 5, 6, -1),
    ("sa1", "Sapphire Frost", "sapphire", "sun", "gold", 2, 3, 3),
    ("sa2", "Sapphire Glacier", "sapphire", "sun", "bronze", 2, 2, 4),
    ("sa3", "Sapphire Rime", "sapphire", "moon", "bronze", 4, 3, 1),
    ("sa4", "Sapphire Drift", "sapphire", "moon", "gold", -1, 5, 4),
    ("sa5", "Sapphire Tundra", "sapphire", "moon", "rainbow", 5, -1, 4),
    ("sa6", "Sapphire Hail", "sapphire", "star", "shiny", 1, 1, 8),
    ("sa7", "Sapphire Floe", "sapphire", "star", "bronze", 5, 3, 2),
    ("di1", "Diamond Prism", "diamond", "sun", "gold", 2, 4, 2),
    ("di2", "Diamond Facet", "diamond", "sun", "bronze", 4, 2, 2),
    ("di3", "Diamond Glint", "diamond", "sun", "silver", 3, 4, 1),
    ("di4", "Diamond Lustre", "diamond", "moon", "bronze", 1, 4, 3),
    ("di5", "Diamond Shard", "diamond", "moon", "rainbow", 3, 2, 3),
    ("di6", "Diamond Crown", "diamond", "moon", "shiny", 2, 4, 2),
    ("di7", "Diamond Halo", "diamond", "star", "silver", 3, 6, 1),
    ("di8", "Diamond Comet", "diamond", "star", "gold", 2, 5, 3),
)

DEFAULT_DECK: list[dict[str, Any]] = [dict(zip(CARD_KEYS, row, strict=True)) for row in _ROWS]
