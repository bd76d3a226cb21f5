"""Demo ratings: rated matches between demo players, so the leaderboards and the player
page's chart have something to show on a fresh `make run`.

`populate()` plays real matches through games.services between the demo players
(accounts.demo; each match ends by a resignation, which rates it through
games.effects.match_finished as any match would), then spreads the history's dates over
the last weeks so the chart reads like weeks of play. Only the ratings app's own dates
move (RatingChange.played, Rating.last_played); matches keep theirs. Idempotent: it does
nothing once any match is rated. `manage.py demo_data` calls it (demo/).
"""

from __future__ import annotations

import datetime
import random
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from accounts.demo import demo_players_ensure
from games import selectors, services
from games.engine import registry
from games.models import Match
from ratings.models import RatedMatch, Rating, RatingChange

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Each demo player's strength: the chance of winning grows with the difference.
STRENGTHS = {
    "alice": 1.6,
    "bob": 1.0,
    "carol": 1.3,
    "dora": 2.0,
    "eli": 0.7,
    "finn": 1.2,
    "gus": 0.9,
    "hana": 1.5,
}
DUELS_PER_GAME = {"dogblade": 80, "grimhand": 48, "haymaker": 32}
SHIELD_TABLES = 16
SPREAD = datetime.timedelta(days=42)


def populate(*, seed: int = 8, scale: float = 1.0) -> int:
    """Play the demo's rated matches; returns how many were rated (0 if already done).

    `scale` shrinks the schedule (`make run` plays a quarter of it, to start quickly)."""
    if RatedMatch.objects.exists():
        return 0
    players = _players()
    rng = random.Random(seed)  # demo schedule only; no game's chance comes from here
    schedule = [
        game for game, count in DUELS_PER_GAME.items() for _ in range(max(1, round(count * scale)))
    ]
    schedule += ["shield"] * max(1, round(SHIELD_TABLES * scale))
    rng.shuffle(schedule)  # games interleave, as they would on the site
    for game in schedule:
        if game == "shield":
            _shield(rng.sample(players, rng.randint(3, 5)), rng)
        else:
            _duel(game, rng.sample(players, 2), rng)
    _spread_dates()
    return RatedMatch.objects.count()


def _players() -> list[tuple[User, float]]:
    """The demo players (accounts' own service makes sure they exist), with strengths."""
    users = demo_players_ensure()
    return [(users[username], strength) for username, strength in STRENGTHS.items()]


def _duel(game: str, pair: list[tuple[User, float]], rng: random.Random) -> None:
    (first, first_strength), (second, second_strength) = pair
    match = services.match_create(
        creator=first, game_slug=game, opponent="player", invitee_username=second.username
    )
    services.match_join(match_id=match.pk, user=second)
    _play_a_little(match.pk, rng)
    first_wins = rng.random() < first_strength / (first_strength + second_strength)
    if not _is_over(match.pk):
        services.match_resign(match_id=match.pk, user=second if first_wins else first)


def _shield(table: list[tuple[User, float]], rng: random.Random) -> None:
    (host, _), *others = table
    match = services.match_create(
        creator=host,
        game_slug="shield",
        others=[services.SeatSpec(kind="player", username=user.username) for user, _ in others],
    )
    for user, _ in others:
        services.match_join(match_id=match.pk, user=user)
    _play_a_little(match.pk, rng, plies=(12, 24))
    # the weakest tend to leave first: order by strength with some luck
    leaving = sorted(table, key=lambda player: player[1] * rng.uniform(0.5, 1.5))
    for user, _ in leaving[:-1]:
        if _is_over(match.pk):
            break
        services.match_resign(match_id=match.pk, user=user)


def _is_over(match_id: int) -> bool:
    return Match.objects.get(pk=match_id).is_finished


def _play_a_little(match_id: int, rng: random.Random, plies: tuple[int, int] = (6, 12)) -> None:
    """A few random legal moves first, so every demo player has played (not abandoned)."""
    for _ in range(rng.randint(*plies)):
        match = Match.objects.get(pk=match_id)
        if match.is_finished:
            return
        index = match.seats_to_act[0]
        user = match.seats.get(index=index).user
        state = selectors.match_position(match=match).state
        move = rng.choice(registry.get(match.game).legal_moves(state, index))
        services.move_submit(match_id=match_id, user=user, ply=match.ply, move=move)


def _spread_dates() -> None:
    """Space the rated matches evenly over the last SPREAD, in the order they were rated."""
    rated = list(RatedMatch.objects.order_by("pk").values_list("pk", flat=True))
    now = timezone.now()
    step = SPREAD / max(len(rated), 1)
    with transaction.atomic():
        for index, rated_id in enumerate(rated):
            RatingChange.objects.filter(rated_match_id=rated_id).update(
                played=now - SPREAD + step * (index + 1)
            )
        for rating in Rating.objects.all():
            last = RatingChange.objects.filter(user=rating.user, game=rating.game).last()
            if last is not None:
                Rating.objects.filter(pk=rating.pk).update(last_played=last.played)
