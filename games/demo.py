"""Demo matches: a few Dog Blade tables in every state a fresh `make run` should show
(an AI match playing itself, an invitation, a live match, an open table).

Written through games.services only, like any match. Idempotent in the simplest way: it
does nothing once any match exists. `manage.py demo_data` calls it (demo/).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import services
from games.models import Match


def demo_matches_create(*, players: Mapping[str, Any]) -> bool:
    """The demo tables between alice, bob and carol; False (nothing made) if any match
    exists already."""
    if Match.objects.exists():
        return False
    alice, bob, carol = players["alice"], players["bob"], players["carol"]
    ai_match = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    services.seat_set_autoplay(match_id=ai_match.pk, user=alice, is_enabled=True)
    services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    live = services.match_create(
        creator=bob, game_slug="dogblade", opponent="player", invitee_username="carol"
    )
    services.match_join(match_id=live.pk, user=carol)
    services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    return True
