"""Writes of ratings: rating one finished match, exactly once.

`match_rate` runs inside the transaction that records the result (the match_finished
hook, `match_finished_rate`), or on its own (a backfill, a test); either way it opens (or joins) one
transaction and:

1. locks the Match row (`select_for_update`; the finishing transaction already holds it,
   so this is free there) and re-reads whether the match is rated at all;
2. returns if a `RatedMatch` exists for it: a second call is a no-op (the unique match on
   RatedMatch is the last guard);
3. creates any missing `Rating` rows (ON CONFLICT DO NOTHING, so two first games of one
   new player at once cannot both insert), then locks the players' rows in user-id order,
   so two matches finishing at once for the same player wait for each other instead of
   losing an update, and never deadlock;
4. computes every player's new rating from the ratings they all had before the match,
   writes them, the RatedMatch and one RatingChange per player.

Lock order: Match row, then Rating rows by user id. Nothing else locks ratings.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Match, Seat
from ratings import systems
from ratings.models import RatedMatch, Rating, RatingChange
from ratings.systems import Skill

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Result:
    """One rated player's part in a finished match."""

    user_id: int
    seat: int
    place: int  # 1 is best; tied seats share a place
    is_winner: bool


def match_is_rated(*, match: Match) -> bool:
    """Whether this finished match moves ratings (see docs/ratings.md, "Which matches").

    Rated: a game with a rating system, finished with an outcome, every seat a joined human
    with a user, no tutorial, not a private run (a weekly challenge run), not casual.
    """
    if systems.system_for(match.game) is None or match.status != Match.Status.FINISHED:
        return False
    if match.is_casual:
        return False
    if not match.outcome or match.tutorial or match.private_until is not None:
        return False
    seats = list(match.seats.all())
    if len(seats) < 2 or not all(_is_rated_seat(seat) for seat in seats):
        return False
    return systems.rates(game=match.game, seats=len(seats))


def _is_rated_seat(seat: Seat) -> bool:
    return seat.kind == Seat.Kind.HUMAN and seat.user_id is not None and seat.joined is not None


def match_results(*, match: Match) -> list[Result]:
    """Each seat's place, from the outcome's ranking (seats best first, ties grouped).

    Places are competition places: two seats tied first are both 1st, the next is 3rd. A
    seat the ranking leaves out (it should not) shares the last place. An outcome with no
    ranking is read from its winners: they share first place, everyone else is next.
    """
    outcome = match.outcome or {}
    winners = set(outcome.get("winners") or ())
    ranking = outcome.get("ranking") or [sorted(winners)]
    places: dict[int, int] = {}
    for group in ranking:
        place = len(places) + 1
        for seat in group:
            places.setdefault(int(seat), place)
    seats = sorted(match.seats.all(), key=lambda seat: seat.index)
    last = len(places) + 1
    return [
        Result(user_id, seat.index, places.get(seat.index, last), seat.index in winners)
        for seat in seats
        if (user_id := seat.user_id) is not None  # a rated match: every seat has a player
    ]


def match_finished_rate(*, match: Match) -> None:
    """games.effects' "ratings.rate" hook: rate the match in its result's transaction, first
    of what a result sets off. Never raises: a failure rolls back to `match_rate`'s own
    savepoint and is logged; the match stays unrated until `ratings_backfill` runs."""
    try:
        match_rate(match_id=match.pk)
    except Exception:
        logger.exception("Rating match %s failed; it stays unrated for now.", match.pk)


def match_rate(*, match_id: Any) -> RatedMatch | None:
    """Rate a finished match once. Returns the RatedMatch made now, or None if the match
    is unrated, unknown or was rated before (so calling it again changes nothing)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or not match_is_rated(match=match):
            return None
        if RatedMatch.objects.filter(match=match).exists():
            return None
        system = systems.system_for(match.game)
        assert system is not None  # match_is_rated: the game has a system
        results = match_results(match=match)
        ratings = _ratings_locked(game=match.game, system=system, results=results)
        return _record(match=match, system=system, results=results, ratings=ratings)


def _ratings_locked(*, game: str, system: str, results: list[Result]) -> dict[int, Rating]:
    """The players' Rating rows for `game`, created if new, locked in user-id order."""
    user_ids = sorted(result.user_id for result in results)
    start = systems.start_skill(system)
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user_id,
                game=game,
                system=system,
                rating=start.rating,
                deviation=start.deviation,
                volatility=start.volatility,
            )
            for user_id in user_ids
        ],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(game=game, user_id__in=user_ids)
    return {rating.user_id: rating for rating in rows.order_by("user_id")}


def _record(
    *, match: Match, system: str, results: list[Result], ratings: dict[int, Rating]
) -> RatedMatch:
    played = match.finished or timezone.now()
    before = {
        result.user_id: _skill_at(ratings[result.user_id], system=system, now=played)
        for result in results
    }
    after = _new_skills(system=system, results=results, before=before)
    rated = RatedMatch.objects.create(match=match, game=match.game, system=system)
    changes = []
    for result in results:
        rating, new = ratings[result.user_id], after[result.user_id]
        changes.append(
            RatingChange(
                rated_match=rated,
                match=match,
                user_id=result.user_id,
                game=match.game,
                place=result.place,
                seats=len(results),
                opponent_ids=[r.user_id for r in results if r.user_id != result.user_id],
                rating_before=rating.rating,
                deviation_before=rating.deviation,
                rating_after=new.rating,
                deviation_after=new.deviation,
                played=played,
            )
        )
        rating.rating, rating.deviation, rating.volatility = (
            new.rating,
            new.deviation,
            new.volatility,
        )
        rating.games += 1
        rating.wins += result.is_winner
        rating.last_played = played
        rating.save()
    RatingChange.objects.bulk_create(changes)
    return rated


def _skill_at(rating: Rating, *, system: str, now: Any) -> Skill:
    """A player's rating as the match starts: in Glicko-2, with the RD grown for the days
    since their last rated game."""
    skill = Skill(rating.rating, rating.deviation, rating.volatility)
    if system == systems.GLICKO2:
        return systems.glicko2_idle(skill, since=rating.last_played, now=now)
    return skill


def _new_skills(
    *, system: str, results: list[Result], before: dict[int, Skill]
) -> dict[int, Skill]:
    if system == systems.GLICKO2:
        first, second = results
        score = 0.5 if first.place == second.place else float(first.place < second.place)
        new_first, new_second = systems.glicko2_match(
            before[first.user_id], before[second.user_id], first_score=score
        )
        return {first.user_id: new_first, second.user_id: new_second}
    skills = systems.openskill_match(
        [before[result.user_id] for result in results], [result.place for result in results]
    )
    return {result.user_id: skill for result, skill in zip(results, skills, strict=True)}
