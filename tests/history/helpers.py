"""Matches of every game played to the end through the services, keeping the live states.

Each seat is a real user moving through `services.move_submit` (the same path as the move
form), choosing a uniformly random legal move from its own view with a fixed chance stream,
so every run is the same match. After each move the state the services computed (the
cached replay they remember) is kept, with every seat's view of it, as the "live" record
the replay must reproduce.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from games import selectors, services
from games.engine.core import Chance
from games.models import Match

SEATS = {"banira": 1, "dogblade": 2, "grimhand": 2, "haymaker": 2, "shield": 3}
GAMES = tuple(SEATS)
MAX_PLIES = 400
# Each game's fixed test seed, chosen so its random match lasts a while (Grimhand's first
# seeds meet the Death card within four moves): 15, 103, 58, 29 and 111 moves.
SEED_NAMES = {
    "banira": "tests/history/banira",
    "dogblade": "tests/history/dogblade",
    "grimhand": "tests/history/grimhand/2",
    "haymaker": "tests/history/haymaker",
    "shield": "tests/history/shield",
}


@dataclass
class Played:
    match: Match
    users: list[Any]
    states: list[Any] = field(default_factory=list)  # live state after each ply, 0 = the deal


def start(game: str, users: list[Any], **create: Any) -> Match:
    """A started match of `game`: users[0] creates it, the others are invited and join.

    The seed is fixed (unless given), so each game's test match is always the same one."""
    others = [services.SeatSpec("player", username=user.username) for user in users[1:]]
    create.setdefault("seed", hashlib.sha256(SEED_NAMES[game].encode()).digest())
    match = services.match_create(creator=users[0], game_slug=game, others=others, **create)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def play(match: Match, users: list[Any], *, plies: int = MAX_PLIES, finish: bool = True) -> Played:
    """Random legal moves through the services, up to `plies` moves or the end."""
    played = Played(match, users)
    game = selectors.match_game(match=match)
    chance = Chance(bytes(32), f"tests/history/{match.game}")
    played.states.append(selectors.match_position(match=match).state)
    while match.status == Match.Status.ACTIVE and match.ply < plies:
        seat = match.seats_to_act[0]
        state = selectors.match_position(match=match).state
        move = chance.choice(game.legal_moves(state, seat))
        services.move_submit(match_id=match.pk, user=users[seat], ply=match.ply, move=move)
        match.refresh_from_db()
        played.states.append(selectors.match_position(match=match).state)
    while finish and match.status == Match.Status.ACTIVE:
        services.match_resign(match_id=match.pk, user=users[match.seats_to_act[0]])
        match.refresh_from_db()
        if match.ply + 1 > len(played.states):  # Shield logs a forfeit as a move
            played.states.append(selectors.match_position(match=match).state)
    return played


def hand_of(game: str, view: dict[str, Any]) -> list[str]:
    """The card names of a seat's own hand in its view (for hidden-information checks)."""
    if game == "grimhand":
        mine = next(p for p in view["players"] if p["seat"] == view["seat"])
        return [f"{kind}-{value}" for kind, values in mine["hand"].items() for value in values]
    if game == "haymaker":
        return list(view["hand"] or [])
    if game == "shield":
        return list(view["hand"] or [])
    return []
