"""How each game's board is presented: its template and how its events read in the log.

Presentation only (no rules): each module turns an engine view and engine events into
what a template needs. One module per game, registered by slug.
"""

from __future__ import annotations

from games.boards import banira, dogblade, grimhand, haymaker, shield
from games.boards.base import BoardPresenter

_PRESENTERS: dict[str, BoardPresenter] = {
    "banira": banira.PRESENTER,
    "dogblade": dogblade.PRESENTER,
    "grimhand": grimhand.PRESENTER,
    "haymaker": haymaker.PRESENTER,
    "shield": shield.PRESENTER,
}


def presenter_for(slug: str) -> BoardPresenter:
    return _PRESENTERS[slug]


def has_board(slug: str) -> bool:
    """A game is open for play on the site once it has a board (an engine alone is not)."""
    return slug in _PRESENTERS
