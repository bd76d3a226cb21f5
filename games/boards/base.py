from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.core import Event

Describe = Callable[[Event, Sequence[str]], str]


@dataclass(frozen=True)
class BoardPresenter:
    template: str  # the board partial, e.g. "games/dogblade/board.html"
    describe: Describe  # one line of the match log for an event, given the seats' names
    tagline: str
    decorate: Callable[[dict[str, Any]], dict[str, Any]] = lambda view: view
    stylesheet: str = ""  # a game's own CSS under static/, e.g. "css/games/grimhand.css"
    rules_template: str = ""  # the game's rules page, e.g. "games/grimhand/rules.html"
