"""Ratings fixtures: finished matches made through the real game services."""

from __future__ import annotations

import pytest

from games import services


@pytest.fixture
def finish_duel(make_match):
    """A finished Dog Blade match between two players: `loser` resigns. Returns it."""

    def finish(winner, loser):
        match = make_match(winner, loser)
        services.match_resign(match_id=match.pk, user=loser)
        match.refresh_from_db()
        return match

    return finish


@pytest.fixture
def finish_shield():
    """A finished Shield table of `players` (seat order); they resign in `resign_order`,
    so the last one left wins and the first to resign is last."""

    def finish(players, resign_order):
        host, *others = players
        match = services.match_create(
            creator=host,
            game_slug="shield",
            others=[services.SeatSpec(kind="player", username=u.username) for u in others],
        )
        for user in others:
            services.match_join(match_id=match.pk, user=user)
        for user in resign_order:
            services.match_resign(match_id=match.pk, user=user)
        match.refresh_from_db()
        return match

    return finish
