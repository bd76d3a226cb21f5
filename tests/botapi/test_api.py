"""`/api/v1/`: the endpoints call the same services as the web pages; every refusal is a
JSON problem with its status, and writes nothing."""

from __future__ import annotations

import pytest

from botapi import services as bot_services
from games.models import Match, Move

pytestmark = pytest.mark.django_db(transaction=True)


def _problem(answer, status):
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert body["status"] == status and body["message"]
    return body


def test_no_token_or_a_bad_one_is_401(client, alice, api_for):
    _problem(client.get("/api/v1/games"), 401)
    _problem(client.get("/api/v1/games", headers={"Authorization": "Bearer nope"}), 401)
    token, text = bot_services.token_create(user=alice, name="x", scopes=["read"])
    bot_services.token_revoke(user=alice, token_id=token.pk)
    _problem(client.get("/api/v1/games", headers={"Authorization": f"Bearer {text}"}), 401)


def test_a_missing_scope_is_403_and_writes_nothing(alice, api_for):
    reader = api_for(alice, scopes=["read"])
    _problem(reader.post("/api/v1/matches", {"game": "dogblade", "opponent": {"ai": "easy"}}), 403)
    assert not Match.objects.exists()
    player = api_for(alice, scopes=["play"])
    _problem(player.get("/api/v1/games"), 403)


def test_games_list_seat_ranges_and_option_schemas(alice, api_for):
    games = api_for(alice).get("/api/v1/games").json()
    by_slug = {game["slug"]: game for game in games}
    assert {"grimhand", "dogblade", "haymaker", "shield", "banira"} <= set(by_slug)
    assert by_slug["shield"]["min_seats"] < by_slug["shield"]["max_seats"]
    names = {option["name"] for option in by_slug["grimhand"]["options"]}
    assert "hp" in names


def test_a_whole_match_against_the_ai_through_the_api(alice, api_for):
    api = api_for(alice)
    made = api.post("/api/v1/matches", {"game": "dogblade", "opponent": {"ai": "easy"}})
    assert made.status_code == 201, made.content
    match_id = made.json()["id"]
    for _ in range(500):
        seen = api.get(f"/api/v1/matches/{match_id}").json()
        if seen["match"]["status"] != "active":
            break
        assert seen["is_my_turn"] and seen["legal_moves"]
        moved = api.post(
            f"/api/v1/matches/{match_id}/moves",
            {"ply": seen["ply"], "move": seen["legal_moves"][0], "move_id": f"m{seen['ply']}"},
        )
        assert moved.status_code == 200, moved.content
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    export = api.get(f"/api/v1/matches/{match_id}/export").json()
    assert export["game"] == "dogblade" and export["moves"]


def _started(api):
    made = api.post("/api/v1/matches", {"game": "grimhand", "opponent": {"ai": "easy"}})
    assert made.status_code == 201, made.content
    return made.json()["id"]


def _started_on_my_turn(api, tries: int = 12):
    """A running match against the AI where it is my turn. Grimhand's first player comes
    from the seed, and the AI's first draw can be a Death card that ends the match at
    once (about one match in twenty-five): then deal another."""
    for _ in range(tries):
        match_id = _started(api)
        seen = api.get(f"/api/v1/matches/{match_id}").json()
        if seen["is_my_turn"]:
            return match_id, seen
    raise AssertionError(f"{tries} matches, never my turn: {seen}")


def test_stale_ply_409_illegal_move_422_and_a_repeat_answers_again(alice, api_for):
    api = api_for(alice)
    match_id, seen = _started_on_my_turn(api)
    moves_before = Move.objects.filter(match_id=match_id).count()
    illegal = _problem(
        api.post(
            f"/api/v1/matches/{match_id}/moves", {"ply": seen["ply"], "move": {"type": "fly"}}
        ),
        422,
    )
    assert illegal["field"] == "move"
    stale = _problem(
        api.post(
            f"/api/v1/matches/{match_id}/moves",
            {"ply": seen["ply"] + 5, "move": seen["legal_moves"][0]},
        ),
        409,
    )
    assert stale["field"] == "ply"
    assert Move.objects.filter(match_id=match_id).count() == moves_before
    body = {"ply": seen["ply"], "move": seen["legal_moves"][0], "move_id": "once"}
    first = api.post(f"/api/v1/matches/{match_id}/moves", body)
    assert first.status_code == 200, first.content
    count = Move.objects.filter(match_id=match_id, move_id="once").count()
    again = api.post(f"/api/v1/matches/{match_id}/moves", body)
    assert again.status_code == 200
    assert again.json()["move_ply"] == first.json()["move_ply"] and again.json()["is_repeat"]
    assert Move.objects.filter(match_id=match_id, move_id="once").count() == count == 1


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"ply": -1, "move": {"type": "draw"}},
        {"ply": "x", "move": {"type": "draw"}},
        {"ply": 0, "move": "draw"},
        {"ply": 0, "move": {"type": "draw"}, "move_id": "x" * 65},
    ],
)
def test_bad_move_bodies_are_400_with_the_field(alice, api_for, body):
    api = api_for(alice)
    match_id = _started(api)
    before = Move.objects.filter(match_id=match_id).count()
    answer = _problem(api.post(f"/api/v1/matches/{match_id}/moves", body), 400)
    assert answer["field"]
    assert Move.objects.filter(match_id=match_id).count() == before


def test_no_such_match_is_404(alice, api_for):
    api = api_for(alice)
    _problem(api.get("/api/v1/matches/999999"), 404)
    _problem(api.post("/api/v1/matches/999999/moves", {"ply": 0, "move": {"type": "x"}}), 404)
    _problem(api.get("/api/v1/matches/99999999999999999999"), 400)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess", "opponent": {"ai": "easy"}}, None),
        ({"game": "dogblade", "opponent": {"robot": "x"}}, "opponent"),
        ({"game": "dogblade", "opponent": {"ai": "godlike"}}, None),
        ({"game": "dogblade", "opponent": {"user": "nobody-here"}}, None),
        ({"game": "grimhand", "opponent": {"ai": "easy"}, "options": {"hp": "lots"}}, None),
        ({"game": "grimhand", "opponent": {"ai": "easy"}, "options": {"colour": 3}}, None),
        ({"game": "dogblade", "opponent": {"ai": "easy"}, "clock": "forever"}, None),
    ],
)
def test_bad_match_requests_are_problems_and_write_nothing(alice, api_for, body, field):
    answer = _problem(api_for(alice).post("/api/v1/matches", body), 400)
    assert answer["field"] == field
    assert not Match.objects.exists()


def test_invitation_accepted_and_declined(alice, bob, api_for):
    alice_api, bob_api = api_for(alice), api_for(bob)
    made = alice_api.post("/api/v1/matches", {"game": "dogblade", "opponent": {"user": "bob"}})
    assert made.status_code == 201, made.content
    match_id = made.json()["id"]
    accepted = bob_api.post(f"/api/v1/matches/{match_id}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "active"
    _problem(bob_api.post(f"/api/v1/matches/{match_id}/accept"), 409)
    resigned = bob_api.post(f"/api/v1/matches/{match_id}/resign")
    assert resigned.json()["status"] == "finished"
    second = alice_api.post("/api/v1/matches", {"game": "dogblade", "opponent": {"user": "bob"}})
    declined = bob_api.post(f"/api/v1/matches/{second.json()['id']}/decline")
    assert declined.json()["status"] == "cancelled"


def test_a_stranger_cannot_move_or_resign(alice, bob, api_for):
    match_id = _started(api_for(alice))
    stranger = api_for(bob)
    _problem(
        stranger.post(f"/api/v1/matches/{match_id}/moves", {"ply": 0, "move": {"type": "draw"}}),
        403,
    )
    _problem(stranger.post(f"/api/v1/matches/{match_id}/resign"), 403)
    assert stranger.get(f"/api/v1/matches/{match_id}").json()["legal_moves"] == []


def test_the_schema_and_its_docs_page(client):
    schema = client.get("/api/v1/schema")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/matches/{match_id}/moves" in paths
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    assert "script-src 'self'" in docs["Content-Security-Policy"]
