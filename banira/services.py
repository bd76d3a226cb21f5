"""Writes of the BaniraCards site: loading the default card pool, starting practice runs,
and the admin's engine check of deck lists.

A practice run is a one-seat match on a fresh random seed (games.services.match_create
draws one) whose options carry a COPY of the deck list, so a later edit of the list never
changes the run or its replay.
"""

from __future__ import annotations

import hashlib
import statistics
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from banira.default_pool import load_default_deck
from banira.models import CardDefinition, DeckEntry, DeckList, PracticeRun, engine_deck_problem
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
