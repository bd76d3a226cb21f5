"""slug -> Game. The only place that knows which games exist.

Adding a game is one line in `_GAMES` (docs/architecture.md, "One game, one package").
Pure: imports the standard library, `games.engine.core` and each game's package.
"""

from __future__ import annotations

from games.engine.banira import BaniraCards
from games.engine.core import Game
from games.engine.dogblade import DogBlade
from games.engine.grimhand import Grimhand
from games.engine.haymaker import Haymaker
from games.engine.shield import Shield

_GAMES: dict[str, Game] = {
    game.slug: game for game in (BaniraCards(), DogBlade(), Grimhand(), Haymaker(), Shield())
}


class UnknownGame(LookupError):
    def __init__(self, slug: str) -> None:
        super().__init__(f"There is no game called “{slug}”.")
        self.message = str(self)


def get(slug: str) -> Game:
    try:
        return _GAMES[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all() -> list[Game]:  # noqa: A001 - the contract names it `all`
    return list(_GAMES.values())


def slugs() -> list[str]:
    return list(_GAMES)
