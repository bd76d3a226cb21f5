"""What a board is: everything a game shows on the site, from one folder.

A board (`games/boards/<slug>/`) holds the presenter (how a view and its events read), the
decoder of its own move form, its outcome phrases, its tutorial, and its `templates/` and
`static/` folders (found by `games.boards.loaders` and `games.boards.finders`). No rules:
whatever needs a rule asks the engine, through a selector.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from games.engine.core import Event, Move

if TYPE_CHECKING:
    from games.boards.tutorial import Tutorial

Describe = Callable[[Event, Sequence[str]], str]
# The board's own form (a POST's fields) turned into a move; None: the board has no form
# of its own and posts the move as JSON in the "move" field.
FormMove = Callable[[Any], Move]
# How a match ended, said to the winner, to the loser, and to everyone else.
Phrases = tuple[str, str, str]


@dataclass(frozen=True)
class BoardPresenter:
    slug: str  # the engine's slug (games.engine.registry)
    template: str  # the board, a Jinja2 template (games.jinja): "games/dogblade/board.jinja"
    describe: Describe  # one line of the match log for an event, given the seats' names
    tagline: str
    folder: Path  # the board's folder: its `templates/` and `static/` are found from here
    decorate: Callable[[dict[str, Any]], dict[str, Any]] = lambda view: view
    stylesheet: str = ""  # a game's own CSS under static/, e.g. "css/games/grimhand.css"
    rules_template: str = ""  # the game's rules page, e.g. "games/grimhand/rules.html"
    outcome_phrases: Mapping[str, Phrases] = field(default_factory=dict)  # by outcome reason
    # A one-seat game's ending, by outcome reason: a sentence with `{score}`, the seat's
    # final score (a reason not listed reads "The run is over: score {score}.").
    solo_endings: Mapping[str, str] = field(default_factory=dict)
    form_move: FormMove | None = None
    tutorial: Tutorial | None = None

    @property
    def templates_dir(self) -> Path:
        return self.folder / "templates"

    @property
    def static_dir(self) -> Path:
        return self.folder / "static"


@runtime_checkable
class CardFormPresenter(Protocol):
    """A board whose moves are built from checked cards, with a live action bar the move
    preview redraws (Haymaker's): `games.selectors.move_preview` and its view."""

    preview_template: str  # the action bar, a Jinja2 template (games.jinja)

    def checked_cards(self, values: list[str]) -> list[str]: ...

    def card_move(self, action: str, cards: Sequence[str]) -> dict[str, Any]: ...

    def action_bar(
        self, *, view: dict[str, Any], cards: Sequence[str], is_legal: Callable[[str], bool]
    ) -> dict[str, Any]: ...
