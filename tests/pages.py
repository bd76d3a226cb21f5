"""Reading pages as a given player, for the web tests."""

from __future__ import annotations


def page(client, match, user=None) -> str:
    """The match page as `user` sees it (None: a logged-out spectator); it must load."""
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()
