"""Standard playing cards on the page (Haymaker, Shield): faces with real pip layouts.

Presentation only: a card name like "7H", "AS", "10D" or "QC" becomes what a template
draws. Each game says which ranks its deck has and how its labels read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

SUITS = {
    "C": ("clubs", "♣", "black"),
    "D": ("diamonds", "♦", "red"),
    "H": ("hearts", "♥", "red"),
    "S": ("spades", "♠", "black"),
}

# Pip layouts of a real deck: (column, row) per pip, columns 0/1/2 = left/centre/right,
# rows in eighths of the pip field from the top. Pips below the middle are drawn upside down.
_L, _C, _R = 0, 1, 2
PIPS: dict[int, tuple[tuple[int, float], ...]] = {
    1: ((_C, 4),),
    2: ((_C, 0), (_C, 8)),
    3: ((_C, 0), (_C, 4), (_C, 8)),
    4: ((_L, 0), (_R, 0), (_L, 8), (_R, 8)),
    5: ((_L, 0), (_R, 0), (_C, 4), (_L, 8), (_R, 8)),
    6: ((_L, 0), (_R, 0), (_L, 4), (_R, 4), (_L, 8), (_R, 8)),
    7: ((_L, 0), (_R, 0), (_C, 2), (_L, 4), (_R, 4), (_L, 8), (_R, 8)),
    8: ((_L, 0), (_R, 0), (_C, 2), (_L, 4), (_R, 4), (_C, 6), (_L, 8), (_R, 8)),
    9: ((_L, 0), (_R, 0), (_L, 8 / 3), (_R, 8 / 3), (_C, 4), (_L, 16 / 3), (_R, 16 / 3))
    + ((_L, 8), (_R, 8)),
    10: ((_L, 0), (_R, 0), (_C, 4 / 3), (_L, 8 / 3), (_R, 8 / 3), (_L, 16 / 3), (_R, 16 / 3))
    + ((_C, 20 / 3), (_L, 8), (_R, 8)),
}
PIP_TOP, PIP_BOTTOM = 18, 82  # percent of the card's height


class PlayingCards:
    """Every face of one deck, made once: `cards[name]` is what a template draws."""

    def __init__(
        self,
        ranks: Sequence[str],
        rank_words: Mapping[str, str],
        *,
        pip_x: tuple[int, int, int],
        faces: Mapping[str, str] | None = None,
        label_shows_value: bool = False,
    ) -> None:
        self.ranks = tuple(ranks)
        self.rank_words = rank_words
        self.pip_x = pip_x  # percent of the card's width, per pip column
        self.face_art = faces
        self.label_shows_value = label_shows_value
        self.names = tuple(rank + suit for suit in SUITS for rank in self.ranks)
        self.cards: dict[str, dict[str, Any]] = {name: self._face(name) for name in self.names}

    def _face(self, name: str) -> dict[str, Any]:
        rank, suit = name[:-1], name[-1]
        suit_name, symbol, color = SUITS[suit]
        value = self.ranks.index(rank) + 1
        label = f"{self.rank_words.get(rank, rank)} of {suit_name}"
        face = {
            "name": name,
            "rank": rank,
            "suit": suit,
            "value": value,
            "suit_name": suit_name,
            "symbol": symbol,
            "color": color,
            "short": f"{rank}{symbol}",
            "label": f"{label} ({value})" if self.label_shows_value else label,
            "pips": [
                {
                    "x": f"{self.pip_x[column]}%",
                    "y": f"{PIP_TOP + (PIP_BOTTOM - PIP_TOP) * row / 8:.1f}%",
                    "is_flipped": row > 4,
                }
                for column, row in PIPS.get(value, ())
            ],
            "quoted": json.dumps(name),  # how the card appears in a coached move's JSON
        }
        if self.face_art is not None:
            face["face_art"] = self.face_art.get(rank, "")
        return face

    def one(self, name: str | None) -> dict[str, Any] | None:
        """A copy of one face (a template may add to it), or None for no card."""
        return dict(self.cards[name]) if name in self.cards else None

    def many(self, names: Sequence[str] | None) -> list[dict[str, Any]]:
        return [dict(self.cards[name]) for name in names or () if name in self.cards]

    def short(self, names: Sequence[str]) -> str:
        """ "7♥ 8♥" for a log line."""
        return " ".join(self.cards[name]["short"] for name in names if name in self.cards)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
