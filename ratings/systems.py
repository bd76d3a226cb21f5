"""The rating maths: which game uses which system, and thin wrappers over the libraries.

No Django here: these functions take and return `Skill` values, so the examples of the
papers can be checked directly (tests/ratings/test_ratings_systems.py).

- Glicko-2 (`glicko2`, Glickman's algorithm with the Illinois volatility step) for the
  two-player games. Each match is its own rating period; before it, a player's RD grows
  by one empty period per whole day since their last rated game (the library's
  `did_not_compete`), capped at the starting 350.
- OpenSkill's Plackett-Luce model (`openskill`) for Shield, 2 to 8 players with tied places.
  Its parameters are the library's defaults scaled by 60 (mu 25 → 1500), which keeps the
  model the same and puts Shield on the scale of the Glicko-2 games.

See docs/ratings.md for why these libraries and these choices.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

import glicko2
from openskill.models import PlackettLuce

GLICKO2 = "glicko2"
OPENSKILL = "openskill"

# The rated games and their systems. BaniraCards is solo: no rating (its weekly board is
# its leaderboard). A game missing here is simply unrated.
GAME_SYSTEMS: dict[str, str] = {
    "dogblade": GLICKO2,
    "grimhand": GLICKO2,
    "haymaker": GLICKO2,
    "shield": OPENSKILL,
}

GLICKO_RATING = 1500.0
GLICKO_RD = 350.0  # a new player's RD, and the most inactivity can bring it back to
GLICKO_VOLATILITY = 0.06
INACTIVITY_PERIOD = datetime.timedelta(days=1)

OPENSKILL_SCALE = 60.0  # openskill's mu 25 becomes 1500
_PLACKETT_LUCE = PlackettLuce(
    mu=25.0 * OPENSKILL_SCALE,
    sigma=25.0 / 3 * OPENSKILL_SCALE,
    beta=25.0 / 6 * OPENSKILL_SCALE,
    tau=25.0 / 300 * OPENSKILL_SCALE,
)

# Who is provisional (hidden from the leaderboards unless asked): fewer than this many
# rated games, or, in Glicko-2, an RD above this (the rating is not known well enough yet).
PROVISIONAL_GAMES = 5
PROVISIONAL_RD = 110.0


@dataclass(frozen=True)
class Skill:
    """A rating as the systems see it. `volatility` is Glicko-2's sigma (0 for OpenSkill)."""

    rating: float
    deviation: float
    volatility: float = 0.0


def system_for(game: str) -> str | None:
    return GAME_SYSTEMS.get(game)


def rates(*, game: str, seats: int) -> bool:
    """Whether a table of `game` with `seats` seats can be rated: the game has a system, and
    Glicko-2 rates two players only."""
    system = system_for(game)
    return system is not None and (system != GLICKO2 or seats == 2)


def start_skill(system: str) -> Skill:
    """A new player's rating in `system`."""
    if system == GLICKO2:
        return Skill(GLICKO_RATING, GLICKO_RD, GLICKO_VOLATILITY)
    fresh = _PLACKETT_LUCE.rating()
    return Skill(fresh.mu, fresh.sigma)


def is_provisional(*, system: str, deviation: float, games: int) -> bool:
    if games < PROVISIONAL_GAMES:
        return True
    return system == GLICKO2 and deviation > PROVISIONAL_RD


# --- Glicko-2 ------------------------------------------------------------------------------


def _player(skill: Skill) -> glicko2.Player:
    return glicko2.Player(rating=skill.rating, rd=skill.deviation, vol=skill.volatility)


def _skill(player: glicko2.Player) -> Skill:
    return Skill(player.rating, min(player.rd, GLICKO_RD), player.vol)


def glicko2_idle(skill: Skill, *, since: datetime.datetime | None, now: datetime.datetime) -> Skill:
    """`skill` after the empty rating periods (whole days) between `since` and `now`.

    Each empty period is the library's `did_not_compete` (Glickman's step 6 alone); the RD
    never grows past a new player's. A first game (`since` None) has no idle periods.
    """
    if since is None or now <= since:
        return skill
    player = _player(skill)
    for _ in range((now - since) // INACTIVITY_PERIOD):
        if player.rd >= GLICKO_RD:
            break
        player.did_not_compete()
    return _skill(player)


def glicko2_period(skill: Skill, results: Sequence[tuple[Skill, float]]) -> Skill:
    """`skill` after one rating period of `results`: (opponent, score) with score 1, ½ or 0.

    Every opponent is taken as they stood at the start of the period, as Glickman's paper
    requires.
    """
    if not results:
        raise ValueError("A rating period with no games: use glicko2_idle.")
    player = _player(skill)
    player.update_player(
        [opponent.rating for opponent, _ in results],
        [opponent.deviation for opponent, _ in results],
        [score for _, score in results],
    )
    return _skill(player)


def glicko2_match(first: Skill, second: Skill, *, first_score: float) -> tuple[Skill, Skill]:
    """Both players after one game between them (its own rating period)."""
    return (
        glicko2_period(first, [(second, first_score)]),
        glicko2_period(second, [(first, 1.0 - first_score)]),
    )


# --- OpenSkill -----------------------------------------------------------------------------


def openskill_match(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Every player after one free-for-all game: `places[i]` is player i's place (1 is best,
    tied players share a place). Each player is a team of one."""
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("An OpenSkill game needs two or more players, each with a place.")
    teams = [[_PLACKETT_LUCE.rating(mu=s.rating, sigma=s.deviation)] for s in skills]
    rated = _PLACKETT_LUCE.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
