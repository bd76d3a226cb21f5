"""Bad input, as the issue found it: each case used to answer 500. Now a readable 400 (or a
404 for a path that names nothing), and nothing is written.

Runs on SQLite and on PostgreSQL; the NUL bytes only ever failed on PostgreSQL.
"""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from banira.models import PracticeRun
from config.inputs import BadInput
from games.models import Match, Move
from tests.conftest import EXAMPLE_DEAL
from web.routing import websocket_router

DEEP = 50_000
ATTACK = {"type": "attack"}
HUGE_ID = "9" * 5000


@pytest.fixture
def match(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)


@pytest.fixture
def seated(client, match, alice):
    client.force_login(alice)
    return client


def _nothing_moved(match):
    match.refresh_from_db()
    assert match.ply == 0 and not Move.objects.filter(match=match).exists()


def _readable_400(response, *phrases):
    assert response.status_code == 400, response.content[:300]
    text = response.content.decode()
    assert 'data-testid="error-message"' in text
    for phrase in phrases:
        assert phrase in text, text[:500]


# --- moves ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ply", ["1e999", "-1e999", "1.5", "true", '"²"', '"1 "', "NaN"])
def test_a_json_move_with_a_ply_that_is_no_whole_number(seated, match, ply):
    body = '{"ply": PLY, "move": {"type": "attack"}}'.replace("PLY", ply)
    response = seated.post(
        reverse("games:move", args=[match.pk]), body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert "move number" in response.content.decode() or "number" in response.content.decode()
    _nothing_moved(match)


def test_a_json_move_refused_gets_the_board_fragment_for_htmx(seated, match):
    response = seated.post(
        reverse("games:move", args=[match.pk]),
        '{"ply": 1e999, "move": {"type": "attack"}}',
        content_type="application/json",
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert html.lstrip().startswith("<section") and 'id="board"' in html
    assert "A number in the request is too large." in html
    _nothing_moved(match)


@pytest.mark.parametrize("where", ["body", "move", "ply", "form-move", "form-ply"])
def test_nesting_fifty_thousand_deep(seated, match, where):
    deep = "[" * DEEP + "]" * DEEP
    url = reverse("games:move", args=[match.pk])
    if where == "body":
        response = seated.post(url, deep, content_type="application/json")
    elif where == "move":
        body = '{"ply": 0, "move": DEEP}'.replace("DEEP", deep)
        response = seated.post(url, body, content_type="application/json")
    elif where == "ply":
        body = '{"ply": DEEP, "move": {"type": "attack"}}'.replace("DEEP", deep)
        response = seated.post(url, body, content_type="application/json")
    elif where == "form-move":
        response = seated.post(url, {"ply": "0", "move": deep})
    else:
        response = seated.post(url, {"ply": deep, "move": json.dumps(ATTACK)})
    assert response.status_code in (400, 413), response.content[:300]
    _nothing_moved(match)


def test_a_move_nested_a_little_too_deep_is_refused_with_its_reason(seated, match):
    move = {"type": "attack", "x": json.loads("[" * 40 + "]" * 40)}
    response = seated.post(
        reverse("games:move", args=[match.pk]), {"ply": "0", "move": json.dumps(move)}
    )
    assert response.status_code == 400
    assert "The move is nested too deep: at most 32 levels" in response.content.decode()
    _nothing_moved(match)


@pytest.mark.parametrize("move_id", ["a\x00b", "\x00", "a\x1fb", "x" * 65, "\ud800"], ids=repr)
def test_a_bad_move_id(seated, match, move_id):
    body = json.dumps({"ply": 0, "move": ATTACK, "move_id": move_id})
    response = seated.post(
        reverse("games:move", args=[match.pk]), body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    _nothing_moved(match)


def test_a_nul_in_a_form_move_id(seated, match):
    response = seated.post(
        reverse("games:move", args=[match.pk]),
        {"ply": "0", "move": json.dumps(ATTACK), "move_id": "m\x00"},
    )
    assert response.status_code == 400
    _nothing_moved(match)


@pytest.mark.parametrize(
    "move",
    [
        {"type": "attack", "note": "\x00"},
        {"type": "attack\x00"},
        {"type": "attack", "\x00": 1},
        {"type": "attack", "n": 10**30},
    ],
    ids=repr,
)
def test_a_move_holding_what_the_database_cannot_store(seated, match, move):
    body = json.dumps({"ply": 0, "move": move})
    response = seated.post(
        reverse("games:move", args=[match.pk]), body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    _nothing_moved(match)


@pytest.mark.parametrize("ply", ["", "x", "-1", "²", "1" * 30, "0x1"])
def test_a_form_move_with_a_bad_ply(seated, match, ply):
    response = seated.post(
        reverse("games:move", args=[match.pk]), {"ply": ply, "move": json.dumps(ATTACK)}
    )
    assert response.status_code == 400
    _nothing_moved(match)


def test_a_good_move_still_plays(seated, match):
    response = seated.post(
        reverse("games:move", args=[match.pk]),
        json.dumps({"ply": 0, "move": ATTACK, "move_id": "ok-1"}),
        content_type="application/json",
    )
    assert response.status_code == 302
    assert Move.objects.filter(match=match, move_id="ok-1").count() == 1


# --- the history and /verify/ --------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    ["ply=²", "ply=-1", "ply=" + "1" * 5000, "as=₁", "as=" + "1" * 5000, "as=0\x00", "ply=0\x00"],
    ids=lambda q: q[:12],
)
def test_history_with_a_junk_query(client, match, alice, query):
    client.force_login(alice)
    response = client.get(reverse("games:history", args=[match.pk]) + "?" + query)
    assert response.status_code == 400, response.content[:300]
    assert 'data-testid="error-message"' in response.content.decode()


def test_verify_with_a_junk_ply(client, alice, match):
    from games import services

    services.match_resign(match_id=match.pk, user=alice)
    client.force_login(alice)
    export = client.get(reverse("games:export", args=[match.pk])).content.decode()
    for ply in ("²", "1" * 5000, "-1", "1\x00"):
        response = client.post(reverse("games:verify"), {"export": export, "ply": ply})
        assert response.status_code == 400, (ply, response.content[:300])
        assert "move number" in response.content.decode()
    good = client.post(reverse("games:verify"), {"export": export, "ply": "0"})
    assert good.status_code == 200


def test_verify_with_an_export_nested_fifty_thousand_deep(client):
    deep = '{"moves": ' + "[" * DEEP + "]" * DEEP + "}"
    response = client.post(reverse("games:verify"), {"export": deep})
    assert response.status_code == 400


# --- path values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        f"/matches/{HUGE_ID}/",
        f"/matches/{HUGE_ID}/history/",
        "/matches/9223372036854775808/",
        "/matches/99999999999999999999/board/",
        "/matches/%C2%B2/",
        f"/notifications/{HUGE_ID}/",
        "/notifications/99999999999999999999/",
        "/banira/weeks/%EF%BC%92025-06-02/deck.json",
    ],
)
def test_a_path_value_that_names_nothing_is_a_404(client, alice, url):
    client.force_login(alice)
    assert client.get(url).status_code == 404


@pytest.mark.parametrize("action", ["move", "resign", "join", "rematch", "fill"])
def test_posting_to_a_huge_match_id_is_a_404(seated, action):
    response = seated.post(f"/matches/{HUGE_ID}/{action}/", {"ply": "0"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/players/%00/",
        "/players/a%00b/",
        "/banira/weeks/2025-06-02%00/deck.json",
        "/leaderboards/dog%00blade/",
        "/admin/auth/user/%00/change/",
        "/no/such/%7F/",
    ],
)
def test_a_control_character_in_a_path_is_a_400(client, alice, url):
    client.force_login(alice)
    _readable_400(client.get(url), "control character")


def test_a_nul_in_a_query_or_form_anywhere_is_a_400(client, alice):
    client.force_login(alice)
    _readable_400(client.post("/progress/time-zone/", {"time_zone": "UTC\x00"}), "control")
    _readable_400(client.get("/tables/?min_reliability=%00"), "control character")
    _readable_400(client.get("/leaderboards/?x=%01"), "control character")
    _readable_400(client.get("/admin/?q=%00"), "control character")


def test_a_nul_in_banira_deck_list(client, alice):
    client.force_login(alice)
    response = client.post(reverse("banira:practice"), {"deck_list": "\x00"})
    assert response.status_code == 400
    assert not PracticeRun.objects.exists() and not Match.objects.exists()
    response = client.post(reverse("banira:practice"), {"deck_list": "no-such-list"})
    assert response.status_code == 404


@pytest.mark.parametrize("tier", ["²", "1e9", "99999999999999999999", "", "-3"])
def test_progression_ids_that_are_no_ids(client, alice, tier):
    client.force_login(alice)
    response = client.post(reverse("progression:claim"), {"tier": tier, "track": "free"})
    assert response.status_code in (302, 303, 400)
    assert response.status_code < 500


@pytest.mark.parametrize("days", ["²", "1e9", "9" * 5000, "-2", "3\x00"])
def test_vacation_days_that_are_no_number(client, alice, days):
    client.force_login(alice)
    response = client.post(reverse("vacation"), {"action": "start", "days": days})
    assert response.status_code == 400
    alice.profile.refresh_from_db()
    assert alice.profile.vacation_until is None


# --- sockets ----------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path",
    ["/ws/matches/-1/", "/ws/matches/²/", f"/ws/matches/{HUGE_ID}/", "/ws/nothing/", "/ws/"],
    ids=lambda path: path[:16],
)
async def test_a_socket_to_a_junk_route_is_refused_with_a_close_code(path):
    communicator = WebsocketCommunicator(websocket_router, path)
    communicator.scope["user"] = AnonymousUser()
    is_connected, code = await communicator.connect(timeout=5)
    assert not is_connected and code == 4404
    await communicator.wait(timeout=1)


# --- cookies ----------------------------------------------------------------------------------


def test_a_session_cookie_holding_a_nul_is_ignored_not_a_500(client, alice):
    client.force_login(alice)
    client.cookies["sessionid"] = "\x00" + "a" * 31
    response = client.get("/")
    assert response.status_code == 200
    assert "Log in" in response.content.decode()  # the bad cookie counted as none


def test_a_banira_card_id_as_long_as_the_engine_allows_is_read():
    """The bound on the card field is the engine's own id length, not a guess."""
    from games.boards.banira.form import form_move
    from games.engine.banira.cards import ID_LENGTH

    card = "c" * (ID_LENGTH - 3) + "#12"
    assert form_move({"card": card, "slot": "ruby"}) == {
        "type": "play",
        "card": card,
        "slot": "ruby",
    }
    with pytest.raises(BadInput):
        form_move({"card": "c" * (ID_LENGTH + 1), "slot": "ruby"})


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_production_socket_stack_refuses_a_junk_route_too():
    """Through web.asgi's whole websocket stack (origin check, session auth, router)."""
    from web.asgi import application

    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{HUGE_ID}/", headers=[(b"origin", b"http://testserver")]
    )
    is_connected, code = await communicator.connect(timeout=5)
    assert not is_connected and code == 4404
    await communicator.wait(timeout=1)
