"""Writes of the BaniraCards site: loading the default card pool, starting practice runs,
the weekly challenge (its weeks, rollover and real runs), and the admin's engine check of
deck lists.

A practice run is a one-seat match on a fresh random seed (games.services.match_create
draws one) whose options carry a COPY of the deck list, so a later edit of the list never
changes the run or its replay. A weekly ("real") run is the same kind of match, dealt from
the week's frozen deck and the week's secret seed k for a player's run k.

Lock order of `weekly_run_start`: the week's WeeklyChallenge row (select_for_update), then
the match rows match_create writes. The unique (challenge, user, index) constraint backs
the lock: no player ever has two runs k of one week, nor a fourth.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import statistics
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from banira import selectors
from banira.default_pool import load_default_deck
from banira.models import (
    CardDefinition,
    ChallengeRun,
    DeckEntry,
    DeckList,
    PracticeRun,
    PrizeAward,
    PrizeTier,
    WeeklyChallenge,
    WeeklyDeckSchedule,
    WeeklySettings,
    engine_deck_problem,
)
from banira.selectors import week_end
from games import services as match_services
from games.ai import get_bot
from games.ai.play import play_match
from games.engine import registry
from games.errors import CannotCreate
from games.models import Match

GAME_SLUG = "banira"
CHECK_RUNS = 100  # simulated runs per deck list in the admin's engine check


def deck_list_load_default() -> tuple[DeckList, int]:
    """The "Classic" list from the engine's default deck: (the list, cards created/changed)."""
    with transaction.atomic():
        return load_default_deck(CardDefinition, DeckList, DeckEntry)


def deck_list_active() -> DeckList | None:
    return DeckList.objects.filter(is_active=True).order_by("name", "pk").first()


def run_start_practice(*, user: Any, deck_list: DeckList | None = None) -> Match:
    """Start a practice run for `user` with `deck_list` (the active list by default)."""
    deck_list = deck_list or deck_list_active()
    if deck_list is None:
        raise CannotCreate("No deck list is open for practice yet. Ask an admin to activate one.")
    deck = deck_list.to_engine_deck()
    problem = engine_deck_problem(deck)
    if problem:
        raise CannotCreate(f"The deck list “{deck_list.name}” cannot be played: {problem}")
    with transaction.atomic():
        match = match_services.match_create(
            creator=user, game_slug=GAME_SLUG, others=[], options={"deck": deck}
        )
        PracticeRun.objects.create(
            match=match, user=user, deck_list=deck_list, deck_name=deck_list.name
        )
    return match


# --- the weekly challenge -------------------------------------------------------------------


class WeeklyLimitReached(CannotCreate):
    """A fourth real run in one week."""

    status = 409


def week_start_for(when: datetime.datetime) -> datetime.date:
    """The Monday (UTC) of the ISO week holding `when`: weeks run Monday 00:00 UTC onwards."""
    day = when.astimezone(datetime.UTC).date()
    return day - datetime.timedelta(days=day.weekday())


def weekly_challenge_current(*, now: datetime.datetime | None = None) -> WeeklyChallenge | None:
    """This week's challenge, created on first need from the week's deck
    (`weekly_deck_for`) and the settings' runs per week.

    None while no deck list is active and playable (nothing is created then). Safe to call
    concurrently: the unique week_start makes one row, get_or_create returns it to all.
    """
    week_start = week_start_for(now or timezone.now())
    challenge = WeeklyChallenge.objects.filter(week_start=week_start).first()
    if challenge is not None:
        return challenge
    picked = weekly_deck_for(week_start=week_start)
    if picked is None:
        return None
    deck_list, deck = picked
    challenge, _ = WeeklyChallenge.objects.get_or_create(
        week_start=week_start,
        defaults={
            "deck_list": deck_list,
            "deck_name": deck_list.name,
            "deck": deck,
            "runs_per_week": weekly_settings().runs_per_week,
            "seed_1": secrets.token_bytes(32),
            "seed_2": secrets.token_bytes(32),
            "seed_3": secrets.token_bytes(32),
        },
    )
    return challenge


def weekly_rollover(*, now: datetime.datetime | None = None) -> WeeklyChallenge | None:
    """Reveal the seeds of every week that is over, and make sure this week exists.

    Idempotent: the beat task runs it on Monday 00:00 UTC, and the BaniraCards pages run it
    lazily, so the site works with no beat at all.
    """
    now = now or timezone.now()
    with transaction.atomic():
        WeeklyChallenge.objects.filter(
            week_start__lt=week_start_for(now), is_revealed=False
        ).update(is_revealed=True)
        return weekly_challenge_current(now=now)


def weekly_run_start(*, user: Any, now: datetime.datetime | None = None) -> Match:
    """Start `user`'s next real run k (1..the week's runs_per_week), dealt from the week's
    seed k.

    One more than the week allows is refused (WeeklyLimitReached) with nothing written.
    Concurrent starts queue on the week's row lock, so they make runs 1, 2, 3 in turn,
    never two runs k.
    """
    challenge = weekly_rollover(now=now)
    if challenge is None:
        raise CannotCreate("There is no weekly challenge yet: no deck list is open for play.")
    with transaction.atomic():
        challenge = WeeklyChallenge.objects.select_for_update().get(pk=challenge.pk)
        played = ChallengeRun.objects.filter(challenge=challenge, user=user).count()
        if played >= challenge.runs_per_week:
            raise WeeklyLimitReached(
                f"You have played your {challenge.runs_text} this week. Practice runs are always "
                "open, and a new week starts on Monday at 00:00 UTC."
            )
        index = played + 1
        match = match_services.match_create(
            creator=user,
            game_slug=GAME_SLUG,
            others=[],
            options={"deck": challenge.deck},
            seed=challenge.seed_for(index),
            private_until=week_end(challenge),
        )
        ChallengeRun.objects.create(challenge=challenge, user=user, index=index, match=match)
    return match


def weekly_settings() -> WeeklySettings:
    """The one row of the weekly challenge's settings (made with the defaults on first need)."""
    return WeeklySettings.objects.get_or_create(pk=1)[0]


def weekly_deck_for(*, week_start: datetime.date) -> tuple[DeckList, list] | None:
    """The deck list of the week starting `week_start`, and its engine deck: the one
    scheduled for that week, else the settings' weekly deck, else the first active list by
    name; the first of those that the engine accepts. None: no playable list at all."""
    scheduled = WeeklyDeckSchedule.objects.filter(week_start=week_start).select_related("deck_list")
    candidates: list[DeckList | None] = [row.deck_list for row in scheduled]
    candidates += [weekly_settings().deck_list, deck_list_active()]
    for deck_list in candidates:
        if deck_list is None:
            continue
        deck = deck_list.to_engine_deck()
        if not engine_deck_problem(deck):
            return deck_list, deck
    return None


# --- prizes, when a week ends -----------------------------------------------------------------


def weekly_prizes_award_due(*, now: datetime.datetime | None = None) -> int:
    """Grant the prizes of every week that is over and has none granted yet (the beat task,
    hourly). Returns how many prizes were granted now. Safe to run twice, or at once."""
    now = now or timezone.now()
    due = WeeklyChallenge.objects.filter(
        week_start__lte=week_start_for(now) - datetime.timedelta(days=7),
        prizes_awarded__isnull=True,
    ).order_by("week_start")
    return sum(
        len(weekly_prizes_award(challenge_id=pk, now=now))
        for pk in due.values_list("pk", flat=True)
    )


def weekly_prizes_award(
    *, challenge_id: int, now: datetime.datetime | None = None
) -> list[PrizeAward]:
    """Grant one finished week's prizes, once: each active tier to the players it names
    (`banira.selectors.week_prize_winners`), coins and items through progression's grant.

    Lock order: the week's row, then each player's progress row (progression.reward_grant).
    The week's `prizes_awarded` mark, set in the same transaction, and the unique (week,
    tier, player) of PrizeAward keep it to once, whoever runs it and however often.
    """
    from progression import services as progression

    now = now or timezone.now()
    with transaction.atomic():
        challenge = WeeklyChallenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.prizes_awarded is not None or now < week_end(challenge):
            return []
        awards = []
        for tier in PrizeTier.objects.filter(is_active=True).select_related("cosmetic"):
            for winner in selectors.week_prize_winners(challenge=challenge, tier=tier):
                award, created = PrizeAward.objects.get_or_create(
                    challenge=challenge,
                    tier=tier,
                    user=winner.user,
                    defaults={
                        "tier_name": tier.name,
                        "rank": winner.rank,
                        "score": winner.score,
                        "coins": tier.coins,
                        "cosmetic": tier.cosmetic,
                    },
                )
                if not created:
                    continue
                progression.reward_grant(
                    user=winner.user,
                    coins=tier.coins,
                    cosmetic=tier.cosmetic,
                    note=f"BaniraCards week of {challenge.week_start:%d %b %Y}: {tier.name}",
                )
                awards.append(award)
        challenge.prizes_awarded = now
        challenge.save(update_fields=["prizes_awarded"])
    return awards


@dataclass(frozen=True)
class DeckCheck:
    """What the engine says of a deck list, and how the greedy bot scores with it."""

    deck_list: DeckList
    problem: str | None
    runs: int = 0
    mean_score: float = 0.0
    completed: int = 0

    @property
    def is_valid(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        if self.problem:
            return f"“{self.deck_list.name}” is not playable: {self.problem}"
        return (
            f"“{self.deck_list.name}” is valid. Greedy bot over {self.runs} runs: mean score "
            f"{self.mean_score:.1f}, {self.completed} of {self.runs} runs completed."
        )


def deck_list_check(*, deck_list: DeckList, runs: int = CHECK_RUNS) -> DeckCheck:
    """Validate a list with the engine, then simulate `runs` greedy-bot runs (a balancing aid).

    Seeds are derived from the list's slug and the run number, so a check is repeatable.
    """
    deck = deck_list.to_engine_deck()
    problem = engine_deck_problem(deck)
    if problem:
        return DeckCheck(deck_list, problem)
    game = registry.get(GAME_SLUG)
    bot = get_bot("greedy")
    scores, completed = [], 0
    for number in range(runs):
        seed = hashlib.sha256(f"banira-check/{deck_list.slug}/{number}".encode()).digest()
        state, _, _ = play_match(game, seed, [bot], {"deck": deck})
        outcome = game.outcome(state)
        scores.append(outcome.scores[0] if outcome and outcome.scores else 0)
        completed += bool(outcome and outcome.reason == "complete")
    return DeckCheck(deck_list, None, runs, statistics.fmean(scores) if scores else 0.0, completed)
