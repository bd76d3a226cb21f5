"""Reads for the BaniraCards pages: the deck lists open for practice, a player's runs, and
the weekly challenge (my runs this week, the weekly and all-time leaderboards, past weeks).

Leaderboards are computed in Python from the finished real runs: a run's score lives in
its match's outcome JSON. A real run counts for its week only if it finished before the
week ended (after that the week's seeds are public).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from banira.models import (
    ChallengeRun,
    DeckList,
    PracticeRun,
    PrizeAward,
    PrizeTier,
    WeeklyChallenge,
)
from games.models import Match

RECENT_RUNS = 20


@dataclass(frozen=True)
class RunRow:
    match: Match
    is_practice: bool
    deck_name: str
    score: int | None  # the final score; None while the run goes on
    reason: str
    weekly_index: int | None = None  # k for a player's real run k of a week; None otherwise

    @property
    def kind(self) -> str:
        if self.weekly_index is not None:
            return f"Weekly run {self.weekly_index}"
        return "Practice" if self.is_practice else "Run"


def deck_lists_active() -> list[DeckList]:
    return list(DeckList.objects.filter(is_active=True).order_by("name", "pk"))


def runs_for_user(*, user: Any, limit: int = RECENT_RUNS) -> list[RunRow]:
    """The user's latest BaniraCards runs, newest first, with final scores."""
    matches = list(
        Match.objects.filter(game="banira", seats__user=user)
        .select_related("banira_practice", "banira_weekly__challenge")
        .order_by("-created")[:limit]
    )
    rows = []
    for match in matches:
        practice: PracticeRun | None = getattr(match, "banira_practice", None)
        weekly: ChallengeRun | None = getattr(match, "banira_weekly", None)
        outcome = match.outcome or {}
        deck_name = practice.deck_name if practice else ""
        rows.append(
            RunRow(
                match=match,
                is_practice=practice is not None,
                deck_name=weekly.challenge.deck_name if weekly else deck_name,
                score=_score(match),
                reason=outcome.get("reason", ""),
                weekly_index=weekly.index if weekly else None,
            )
        )
    return rows


def _score(match: Match) -> int | None:
    scores = (match.outcome or {}).get("scores") or []
    return scores[0] if match.is_finished and scores else None


# --- the weekly challenge ---------------------------------------------------------------------


def week_end(challenge: WeeklyChallenge) -> datetime.datetime:
    """When the week's runs stop counting: the next Monday, 00:00 UTC."""
    start = datetime.datetime.combine(challenge.week_start, datetime.time(), tzinfo=datetime.UTC)
    return start + datetime.timedelta(days=7)


@dataclass(frozen=True)
class WeeklyRunRow:
    run: ChallengeRun
    score: int | None  # None while the run goes on
    is_counted: bool  # finished before the week ended


def weekly_runs_for_user(*, challenge: WeeklyChallenge, user: Any) -> list[WeeklyRunRow]:
    """My real runs of `challenge`, run 1 first."""
    runs = ChallengeRun.objects.filter(challenge=challenge, user=user).select_related("match")
    end = week_end(challenge)
    return [
        WeeklyRunRow(run, _score(run.match), _counts(run.match, end))
        for run in runs.order_by("index")
    ]


def weekly_runs_left(*, challenge: WeeklyChallenge, user: Any) -> int:
    played = ChallengeRun.objects.filter(challenge=challenge, user=user).count()
    return max(0, challenge.runs_per_week - played)


def _counts(match: Match, end: datetime.datetime) -> bool:
    return match.is_finished and match.finished is not None and match.finished < end


@dataclass(frozen=True)
class WeeklyEntry:
    """A player's best counted real run of one week."""

    rank: int
    user: Any
    score: int
    finished: datetime.datetime
    run: ChallengeRun


def _best_runs(runs: Iterable[ChallengeRun]) -> dict[tuple[int, int], ChallengeRun]:
    """(challenge id, user id) -> that player's best counted run of that week.

    Best: the highest score; of equal scores, the one finished first.
    """
    best: dict[tuple[int, int], ChallengeRun] = {}
    for run in runs:
        if not _counts(run.match, week_end(run.challenge)) or _score(run.match) is None:
            continue
        key = (run.challenge_id, run.user_id)
        if key not in best or _order_key(run) < _order_key(best[key]):
            best[key] = run
    return best


def _finished(run: ChallengeRun) -> datetime.datetime:
    """When a counted run (`_counts`) finished: its match has a finish time."""
    assert run.match.finished is not None  # _counts kept only finished matches
    return run.match.finished


def _order_key(run: ChallengeRun) -> tuple[int, datetime.datetime, int]:
    return (-(_score(run.match) or 0), _finished(run), run.pk)


def _counted_runs(**filters: Any) -> list[ChallengeRun]:
    return list(
        ChallengeRun.objects.filter(match__status=Match.Status.FINISHED, **filters).select_related(
            "match", "user", "challenge"
        )
    )


def weekly_leaderboard(*, challenge: WeeklyChallenge) -> list[WeeklyEntry]:
    """Each player's best counted run of the week: score desc, then the earlier finish."""
    best = sorted(_best_runs(_counted_runs(challenge=challenge)).values(), key=_order_key)
    return [
        WeeklyEntry(rank, run.user, _score(run.match) or 0, _finished(run), run)
        for rank, run in enumerate(best, start=1)
    ]


@dataclass(frozen=True)
class AllTimeEntry:
    rank: int
    user: Any
    total: int  # the sum of the player's weekly bests
    weeks: int  # weeks with a counted run
    best: int  # the best weekly best


def all_time_leaderboard(*, limit: int = 100) -> list[AllTimeEntry]:
    """Players by the sum of their weekly bests (every week, this one included), then by
    their single best week, then by username."""
    totals: dict[int, list[int]] = defaultdict(list)
    users: dict[int, Any] = {}
    for (_, user_id), run in _best_runs(_counted_runs()).items():
        totals[user_id].append(_score(run.match) or 0)
        users[user_id] = run.user
    order = sorted(
        totals, key=lambda uid: (-sum(totals[uid]), -max(totals[uid]), users[uid].username)
    )
    return [
        AllTimeEntry(rank, users[uid], sum(totals[uid]), len(totals[uid]), max(totals[uid]))
        for rank, uid in enumerate(order[:limit], start=1)
    ]


@dataclass(frozen=True)
class PrizeWinner:
    user: Any
    rank: int | None  # the place on the week's leaderboard; None: no scored run
    score: int | None  # the best counted run's score


def week_prize_winners(*, challenge: WeeklyChallenge, tier: PrizeTier) -> list[PrizeWinner]:
    """Who `tier` rewards in `challenge` (docs/operations-admin.md): the first `top_n` of the
    week's leaderboard; each player whose best counted run scored `min_score` or more; or
    every player who finished or gave up a real run before the week ended (participation:
    a run given up counts; one still going at the end, or aborted, does not)."""
    board = weekly_leaderboard(challenge=challenge)
    if tier.kind == PrizeTier.Kind.TOP:
        return [PrizeWinner(e.user, e.rank, e.score) for e in board[: tier.top_n or 0]]
    if tier.kind == PrizeTier.Kind.SCORE:
        threshold = tier.min_score or 0
        return [PrizeWinner(e.user, e.rank, e.score) for e in board if e.score >= threshold]
    ranked = {entry.user.pk: entry for entry in board}
    end = week_end(challenge)
    runs = ChallengeRun.objects.filter(challenge=challenge).select_related("match", "user")
    players = {
        run.user.pk: run.user
        for run in runs
        if run.match.status == Match.Status.FINISHED and _counts(run.match, end)
    }
    return [
        PrizeWinner(
            user,
            ranked[uid].rank if uid in ranked else None,
            ranked[uid].score if uid in ranked else None,
        )
        for uid, user in sorted(players.items())
    ]


@dataclass(frozen=True)
class PastWeek:
    challenge: WeeklyChallenge
    seeds_hex: tuple[str, str, str]
    players: int
    winners: tuple[WeeklyEntry, ...] = ()  # the week's podium (its first three)
    prizes: tuple[PrizeAward, ...] = ()  # what was granted, best places first


def weeks_revealed() -> list[PastWeek]:
    """Finished weeks, newest first, with their revealed seeds (hex) for replays."""
    weeks = (
        WeeklyChallenge.objects.filter(is_revealed=True)
        .annotate(players=Count("runs__user", distinct=True))
        .order_by("-week_start")
    )
    awards: dict[int, list[PrizeAward]] = defaultdict(list)
    granted = PrizeAward.objects.filter(challenge__in=weeks).select_related("user", "cosmetic")
    for award in granted.order_by(
        "challenge", "rank", "-tier__kind", "tier_name", "user__username"
    ):
        awards[award.challenge_id].append(award)
    return [
        PastWeek(
            week,
            (week.seed_for(1).hex(), week.seed_for(2).hex(), week.seed_for(3).hex()),
            week.players,
            tuple(weekly_leaderboard(challenge=week)[:PODIUM]),
            tuple(awards[week.pk]),
        )
        for week in weeks
    ]


PODIUM = 3


def week_get(*, week_start: datetime.date) -> WeeklyChallenge | None:
    return WeeklyChallenge.objects.filter(week_start=week_start).first()
