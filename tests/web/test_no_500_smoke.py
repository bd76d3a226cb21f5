"""Every page of the site, with odd input, as a stranger and as a player: never a 500."""

import pytest

from games import services
from tests.conftest import EXAMPLE_DEAL

URLS = [
    "/",
    "/play/",
    "/tables/",
    "/tables/?min_reliability=x",
    "/tables/?min_reliability=101",
    "/matches/",
    "/matches/{id}/",
    "/matches/{id}/board/?have=zzz",
    "/matches/{id}/history/",
    "/matches/{id}/history/?ply=-1",
    "/matches/{id}/history/?ply=abc&as=9",
    "/matches/{id}/history/?as=revealed",
    "/matches/{id}/export",
    "/matches/999999/",
    "/matches/999999/export",
    "/matches/999999/history/",
    "/verify/",
    "/notifications/",
    "/notifications/settings/",
    "/notifications/999999/",
    "/progress/",
    "/leaderboards/",
    "/leaderboards/grimhand/?page=abc",
    "/leaderboards/nothing/",
    "/players/alice/",
    "/players/nobody-at-all/",
    "/profile/",
    "/banira/",
]
POSTS = [
    ("/matches/{id}/pause/", {}),
    ("/matches/{id}/resume/", {}),
    ("/matches/{id}/pause/withdraw/", {}),
    ("/matches/{id}/rematch/", {}),
    ("/matches/{id}/move/", {"ply": "x", "move": "{"}),
    ("/matches/999999/rematch/", {}),
    ("/profile/vacation/", {"action": "start", "days": "1e9"}),
    ("/profile/vacation/", {"action": "end"}),
    ("/verify/", {"export": "{not json"}),
    ("/notifications/settings/", {"digest_hour": "99"}),
]


@pytest.fixture
def running(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)


@pytest.mark.parametrize("who", ["stranger", "alice", "carol"])
def test_no_page_answers_500(client, running, make_user, alice, who):
    client.raise_request_exception = False
    if who == "alice":
        client.force_login(alice)
    elif who == "carol":
        client.force_login(make_user("carol"))
    for url in URLS:
        answer = client.get(url.format(id=running.pk))
        assert answer.status_code < 500, (who, url, answer.status_code)
    for url, data in POSTS:
        answer = client.post(url.format(id=running.pk), data)
        assert answer.status_code < 500, (who, url, answer.status_code)


def test_a_finished_match_pages_answer(client, running, alice, bob):
    services.match_resign(match_id=running.pk, user=bob)
    client.force_login(alice)
    for url in URLS[6:13]:
        assert client.get(url.format(id=running.pk)).status_code < 500, url
