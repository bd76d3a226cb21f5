"""Reads for the BaniraCards page: the deck lists open for practice and a player's runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from banira.models import DeckList, PracticeRun
from games.models import Match

RECENT_RUNS = 20


@dataclass(frozen=True)
class RunRow:
    match: Match
    is_practice: bool
    deck_name: str
    score: int | None  # the final score; None while the run goes on
    reason: str


def deck_lists_active() -> list[DeckList]:
    return list(DeckList.objects.filter(is_active=True).order_by("name", "pk"))


def runs_for_user(*, user: Any, limit: int = RECENT_RUNS) -> list[RunRow]:
    """The user's latest BaniraCards runs, newest first, with final scores."""
    matches = list(
        Match.objects.filter(game="banira", seats__user=user)
        .select_related("banira_practice")
        .order_by("-created")[:limit]
    )
    rows = []
    for match in matches:
        practice: PracticeRun | None = getattr(match, "banira_practice", None)
        outcome = match.outcome or {}
        scores = outcome.get("scores") or []
        rows.append(
            RunRow(
                match=match,
                is_practice=practice is not None,
                deck_name=practice.deck_name if practice else "",
                score=scores[0] if match.is_finished and scores else None,
                reason=outcome.get("reason", ""),
            )
        )
    return rows
