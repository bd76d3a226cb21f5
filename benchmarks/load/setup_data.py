"""Players and matches for a load run, made through the services (run inside Django).

`python -m benchmarks.load.setup_data --players 200 --reserve 4 --idle 50` with the load
run's DATABASE_URL prints one JSON object: the password, the pairs (each pair's players,
its match in play and its reserve matches: invitations the second player accepts through
the join form when the match before ends), and the idle matches that only spectators'
sockets visit. The players of a pair are in no other match, so each pair plays one match
at a time, as 100 pairs of real people would.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "load-test-password-1"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--reserve", type=int, default=4, help="matches waiting per pair")
    parser.add_argument("--idle", type=int, default=50, help="matches only watched")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print(json.dumps(build(args.players, args.reserve, args.idle)))


def build(players: int, reserve: int, idle: int) -> dict:
    from django.contrib.auth import get_user_model

    from accounts.services import profile_ensure
    from games import services

    users = []
    for index in range(players + 2 * max(1, idle // 5 + 1)):
        user = get_user_model().objects.create_user(
            username=f"load{index:04d}", email=f"load{index:04d}@example.com", password=PASSWORD
        )
        profile_ensure(user=user)
        users.append(user)
    pairs = []
    for host, guest in zip(users[0:players:2], users[1:players:2], strict=True):
        first = _duel(services, host, guest)
        waiting = [
            services.match_create(
                creator=host,
                game_slug="dogblade",
                opponent="player",
                invitee_username=guest.username,
            ).pk
            for _ in range(reserve)
        ]
        pairs.append(
            {"players": [host.username, guest.username], "match": first, "reserve": waiting}
        )
    idle_users = users[players:]
    idle_matches = [
        _duel(services, idle_users[2 * (index // 5)], idle_users[2 * (index // 5) + 1])
        for index in range(idle)
    ]
    return {"password": PASSWORD, "pairs": pairs, "idle_matches": idle_matches}


def _duel(services, host, guest) -> int:
    match = services.match_create(
        creator=host, game_slug="dogblade", opponent="player", invitee_username=guest.username
    )
    services.match_join(match_id=match.pk, user=guest)
    return match.pk


if __name__ == "__main__":
    main()
