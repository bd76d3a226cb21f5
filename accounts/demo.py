"""Demo accounts: the admin (admin/admin) and the demo players, so a fresh `make run` has
people to log in as and to play against. Idempotent: users are matched by username, and a
display name or password already set is kept.

The first three players log in with DEMO_PASSWORD; the others exist for the ratings
demo's schedule (ratings/demo.py) and cannot log in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.services import profile_ensure

ADMIN = ("admin", "admin")  # username, password: a local demo only
DEMO_PASSWORD = "cardhall-demo"
# username, display name, whether they log in with DEMO_PASSWORD
DEMO_PLAYERS = [
    ("alice", "Alice the Bold", True),
    ("bob", "Bob Barker", True),
    ("carol", "Carol", True),
    ("dora", "Dora Quickdraw", False),
    ("eli", "Eli", False),
    ("finn", "Finn the Fox", False),
    ("gus", "Gus", False),
    ("hana", "Hana", False),
]


@transaction.atomic
def demo_admin_ensure() -> Any:
    """The superuser admin/admin, created once."""
    username, password = ADMIN
    admin, created = get_user_model().objects.get_or_create(
        username=username,
        defaults={"email": f"{username}@cardhall.example", "is_staff": True, "is_superuser": True},
    )
    if created:
        admin.set_password(password)
        admin.save()
    profile_ensure(user=admin)
    return admin


@transaction.atomic
def demo_players_ensure() -> dict[str, Any]:
    """Every demo player by username, each with a profile and a display name."""
    players = {}
    for username, display, can_log_in in DEMO_PLAYERS:
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@cardhall.example"}
        )
        if created:
            if can_log_in:
                user.set_password(DEMO_PASSWORD)
            else:
                user.set_unusable_password()
            user.save(update_fields=["password"])
        profile = profile_ensure(user=user)
        if not profile.display_name:
            profile.display_name = display
            profile.save(update_fields=["display_name"])
        players[username] = user
    return players
