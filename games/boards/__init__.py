"""The boards: everything each game shows on the site, one folder per game.

`BOARDS` is the one table of them. A game is open for play on the site once its board is
here (an engine alone is not). `register` adds a board at run time (tests: a game that
lives under `tests/`); it returns the function that takes it away again.
"""

from __future__ import annotations

from collections.abc import Callable

from games.boards import banira, dogblade, grimhand, haymaker, shield
from games.boards.base import BoardPresenter
from games.boards.tutorial import Tutorial

BOARDS: tuple[BoardPresenter, ...] = (
    banira.BOARD,
    dogblade.BOARD,
    grimhand.BOARD,
    haymaker.BOARD,
    shield.BOARD,
)

_BY_SLUG: dict[str, BoardPresenter] = {board.slug: board for board in BOARDS}
# A game's further tutorials, by their own key (`Match.tutorial`; `Tutorial.game` names
# the game); a board's own tutorial is keyed by its slug.
EXTRA_TUTORIALS: dict[str, Tutorial] = {**grimhand.EXTRA_TUTORIALS}


def register(board: BoardPresenter) -> Callable[[], None]:
    """Add a board (for tests); call the answer to remove it."""
    if board.slug in _BY_SLUG:
        raise ValueError(f"A board for {board.slug!r} is already registered.")
    _BY_SLUG[board.slug] = board

    def unregister() -> None:
        _BY_SLUG.pop(board.slug, None)

    return unregister


def all_boards() -> list[BoardPresenter]:
    return list(_BY_SLUG.values())


def presenter_for(slug: str) -> BoardPresenter:
    return _BY_SLUG[slug]


def has_board(slug: str) -> bool:
    """A game is open for play on the site once it has a board (an engine alone is not)."""
    return slug in _BY_SLUG


def tutorial_for(slug: str) -> Tutorial | None:
    """The game's first-match tutorial, if its board has one (or a further tutorial by its
    key, such as "grimhand-arcana")."""
    if slug in EXTRA_TUTORIALS:
        return EXTRA_TUTORIALS[slug]
    board = _BY_SLUG.get(slug)
    return board.tutorial if board is not None else None
