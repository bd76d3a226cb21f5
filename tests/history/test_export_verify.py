"""Provably fair: the export (`/matches/<id>/export`), and checking it with the /verify/ page
and `manage.py verify_match`: a round trip for each game, and every kind of tampering
rejected with a clear message, nothing written, nothing revealed."""

from __future__ import annotations

import copy
import datetime
import hashlib
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from games import fairness, services
from games.models import Match, Move
from tests.history.helpers import GAMES, SEATS, play, start


def exported(client, match, user=None):
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(reverse("games:export", args=[match.pk]))
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


def verify_page(client, text, **extra):
    return client.post(reverse("games:verify"), {"export": text, **extra})


def verify_command(tmp_path, document) -> str:
    path = tmp_path / "export.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    out = io.StringIO()
    call_command("verify_match", str(path), stdout=out)
    return out.getvalue()


@pytest.fixture
def finished(make_user):
    """A finished Grimhand match and its players."""
    users = [make_user(), make_user()]
    return play(start("grimhand", users), users).match, users


@pytest.mark.parametrize("game", GAMES)
def test_export_then_verify_round_trip(client, make_user, tmp_path, game):
    users = [make_user() for _ in range(SEATS[game])]
    match = play(start(game, users), users).match
    document = exported(client, match)  # anyone, once it is over
    assert document["log_version"] == 3 and document["game"] == game
    assert document["seats"] == SEATS[game] and document["options"] == match.options
    assert document["seed"] == bytes(match.seed).hex()
    assert document["seed_commitment"] == hashlib.sha256(bytes(match.seed)).hexdigest()
    assert [m["ply"] for m in document["moves"]] == list(range(match.ply))
    assert document["outcome"] == match.outcome

    assert "Verified" in verify_command(tmp_path, document)

    response = verify_page(client, json.dumps(document))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'data-verified="yes"' in body and 'data-testid="replay-board"' in body
    assert f"{match.ply} of {match.ply} legal" in body and match.seed_commitment in body
    assert "the replay ends as recorded" in body
    step = verify_page(client, json.dumps(document), ply="1")
    assert step.status_code == 200 and 'data-ply="1"' in step.content.decode()


def test_a_resigned_match_verifies_through_its_forfeit(client, alice, bob, tmp_path):
    match = start("grimhand", [alice, bob])
    services.match_resign(match_id=match.pk, user=bob)
    document = exported(client, match, alice)
    assert document["forfeits"] == [{"seat": 1, "reason": "resign"}]
    assert "Verified" in verify_command(tmp_path, document)
    tampered = dict(document, forfeits=[{"seat": 0, "reason": "resign"}])
    with pytest.raises(CommandError, match="outcome"):
        verify_command(tmp_path, tampered)


def _tamper_move(document):
    moves = document["moves"]
    first = moves[0]["payload"]
    if first.get("deck") == "attack":
        first["deck"] = "defense"
    else:
        first["deck"] = "attack"
    return document


def _tamper_seed(document):
    document["seed"] = "00" * 32
    return document


def _tamper_outcome(document):
    winners = document["outcome"]["winners"]
    document["outcome"]["winners"] = [1 - winners[0]]
    document["outcome"]["ranking"] = list(reversed(document["outcome"]["ranking"]))
    return document


def _tamper_illegal(document):
    document["moves"][0]["payload"] = {"type": "attack"}  # nothing to attack with yet
    return document


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (_tamper_seed, "does not match the commitment"),
        (_tamper_outcome, "recorded outcome"),
        (_tamper_illegal, "not legal"),
    ],
)
def test_a_tampered_export_is_rejected(client, finished, tmp_path, tamper, words):
    match, users = finished
    document = tamper(copy.deepcopy(exported(client, match)))
    with pytest.raises(CommandError, match=words):
        verify_command(tmp_path, document)
    response = verify_page(client, json.dumps(document))
    assert response.status_code == 422
    body = response.content.decode()
    assert words in body and 'data-verified="no"' in body
    assert 'data-testid="replay-board"' not in body  # nothing replayed is shown


def test_a_changed_move_is_caught(client, finished, tmp_path):
    """A different draw deals different cards: the replay ends elsewhere, or breaks."""
    match, _ = finished
    document = _tamper_move(copy.deepcopy(exported(client, match)))
    with pytest.raises(CommandError):
        verify_command(tmp_path, document)
    assert verify_page(client, json.dumps(document)).status_code == 422


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ('{"log_version": 1}', "missing"),
        ("x" * (fairness.MAX_EXPORT_CHARS + 1), "too large"),
    ],
)
def test_unreadable_input_is_a_clear_message(client, tmp_path, text, words):
    with pytest.raises(CommandError, match=words):
        verify_command(tmp_path, text)
    response = verify_page(client, text)
    assert response.status_code in (400, 413)
    assert words in response.content.decode()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"log_version": 4}, "versions 1, 2 and 3"),
        ({"log_version": True}, "versions 1, 2 and 3"),
        ({"game": "chess"}, "no game"),
        ({"seats": 9}, "seats"),
        ({"seed": "zz"}, "64 hex"),
        ({"seed_commitment": "abc"}, "64 hex"),
        ({"moves": {"0": 1}}, "list"),
        ({"options": []}, "object"),
        ({"outcome": "won"}, "outcome"),
        ({"forfeits": [{"seat": 0, "reason": "bored"}]}, "forfeit"),
    ],
)
def test_a_malformed_export_is_rejected(client, finished, tmp_path, change, words):
    match, _ = finished
    document = {**exported(client, match), **change}
    with pytest.raises(CommandError, match=words):
        verify_command(tmp_path, document)
    response = verify_page(client, json.dumps(document))
    assert response.status_code == 400 and words in response.content.decode()


def test_moves_out_of_order_or_of_no_seat_are_rejected(client, finished):
    match, _ = finished
    document = exported(client, match)
    swapped = copy.deepcopy(document)
    swapped["moves"][0]["ply"], swapped["moves"][1]["ply"] = 1, 0
    assert "in order" in verify_page(client, json.dumps(swapped)).content.decode()
    seatless = copy.deepcopy(document)
    seatless["moves"][0]["seat"] = 5
    assert "no seat" in verify_page(client, json.dumps(seatless)).content.decode()


def test_too_many_moves_are_refused_before_any_replay(finished, client):
    match, _ = finished
    document = exported(client, match)
    document["moves"] = [
        {"ply": n, "seat": 0, "payload": {"type": "pass"}} for n in range(fairness.MAX_MOVES + 1)
    ]
    with pytest.raises(fairness.ExportRejected, match="limit"):
        fairness.export_parse(json.dumps(document))


def test_verifying_writes_nothing(client, finished):
    match, _ = finished
    counts = (Match.objects.count(), Move.objects.count())
    document = exported(client, match)
    verify_page(client, json.dumps(document))
    verify_page(client, json.dumps(_tamper_seed(document)))
    assert (Match.objects.count(), Move.objects.count()) == counts


def test_a_running_match_exports_without_its_seed(client, alice, bob, make_user, tmp_path):
    match = start("dogblade", [alice, bob])  # twenty monsters each: still on after 2 moves
    played = play(match, [alice, bob], plies=2, finish=False)
    assert played.match.status == Match.Status.ACTIVE
    seed = bytes(played.match.seed).hex()
    for user in (alice, make_user(), None):
        document = exported(client, played.match, user)
        assert document["seed"] is None and document["outcome"] is None
        assert len(document["moves"]) == 2
        assert seed not in json.dumps(document)
    with pytest.raises(CommandError, match="no seed"):
        verify_command(tmp_path, document)
    response = verify_page(client, json.dumps(document))
    body = response.content.decode()
    assert response.status_code == 422 and "no seed" in body
    assert played.match.seed_commitment in body


def test_a_running_shield_setup_export_hides_other_seats_picks(client, make_user):
    users = [make_user() for _ in range(3)]
    match = start("shield", users)
    services.move_submit(
        match_id=match.pk,
        user=users[1],
        ply=0,
        move={"type": "choose_shield", "card": _first_card(match, 1)},
    )
    mine = exported(client, match, users[1])["moves"][0]
    assert mine["payload"]["card"] and "redacted" not in mine
    for user in (users[0], make_user(), None):
        theirs = exported(client, match, user)["moves"][0]
        assert theirs == {
            "ply": 0,
            "seat": 1,
            "payload": {"type": "choose_shield"},
            "redacted": True,
        }


def test_a_fixed_deal_is_exported_only_with_the_seed(client, alice, tmp_path):
    """A tutorial's fixed deal is the tutor's hand and the draw order: hidden like a seed."""
    match = services.tutorial_start(user=alice, game_slug="haymaker")
    assert "deal" in match.options and match.status == Match.Status.ACTIVE
    for user in (alice, None):
        document = exported(client, match, user)
        assert document["options"] == {} and document["seed"] is None
        assert not any(card in json.dumps(document) for card in match.options["deal"]["deck"])
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    document = exported(client, match)
    assert document["options"] == match.options and document["seed"]
    assert "Verified" in verify_command(tmp_path, document)


def _first_card(match, seat):
    from games import selectors

    state = selectors.match_position(match=match).state
    return selectors.match_game(match=match).view(state, seat)["hand"][0]


def test_a_private_weekly_run_exports_to_its_player_only_and_without_seed(client, alice, bob):
    week_end = timezone.now() + datetime.timedelta(days=3)
    match = start("banira", [alice], private_until=week_end)
    played = play(match, [alice])
    assert played.match.is_finished and played.match.is_private_now
    assert exported(client, played.match, alice)["seed"] is None
    for user in (bob, None):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        response = client.get(reverse("games:export", args=[match.pk]))
        assert response.status_code == 404
        assert "private" in response.json()["error"]
        assert bytes(match.seed).hex() not in response.content.decode()


def test_an_unknown_match_exports_a_clear_error(client, db):
    response = client.get(reverse("games:export", args=[987654]))
    assert response.status_code == 404 and response.json()["error"] == "There is no such match."


def test_the_verify_page_reads_an_uploaded_file(client, finished):
    match, _ = finished
    upload = io.BytesIO(json.dumps(exported(client, match)).encode())
    upload.name = "export.json"
    response = client.post(reverse("games:verify"), {"export": "", "file": upload})
    assert response.status_code == 200 and 'data-verified="yes"' in response.content.decode()


def test_the_verify_page_asks_for_an_export(client):
    assert client.get(reverse("games:verify")).status_code == 200
    response = verify_page(client, "   ")
    assert response.status_code == 400 and "Paste an export" in response.content.decode()


def test_the_command_reads_stdin_and_reports_json(client, finished, monkeypatch):
    match, _ = finished
    document = json.dumps(exported(client, match))
    monkeypatch.setattr("sys.stdin", io.StringIO(document))
    out = io.StringIO()
    call_command("verify_match", "-", "--json", stdout=out)
    findings = json.loads(out.getvalue())
    assert findings["verified"] is True and findings["plies_checked"] == match.ply
    assert findings["outcome"] == match.outcome


def test_the_command_says_when_the_file_is_missing(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("verify_match", str(tmp_path / "nowhere.json"))


def _arcana_export(version: int, options: dict, index: int) -> dict:
    """An export, as a site of that version wrote it, of a whole Arcana match whose moves
    (picked by the golden-log policy) follow `options`' rules."""
    from tests.engine.grimhand_arcana.test_arcana_play import GAME, play_out, seed_for

    seed = seed_for(index)
    states, moves, _events = play_out(seed, options)
    return {
        "log_version": version,
        "match": 1,
        "game": "grimhand",
        "seats": 2,
        "options": {key: value for key, value in options.items() if key != "edition"},
        "seed_commitment": hashlib.sha256(seed).hexdigest(),
        "seed": seed.hex(),
        "moves": [
            {"ply": ply, "seat": seat, "payload": move} for ply, (seat, move) in enumerate(moves)
        ],
        "forfeits": [],
        "outcome": GAME.outcome(states[-1]).to_json(),
    }


def test_a_version_1_arcana_export_is_read_under_the_rules_it_was_played_by(client, tmp_path):
    """Before "no two arcana draws in a row" (Arcana's rules edition 2, move-log version 2),
    an Arcana export named no edition; this match draws arcana twice in a row. Read as
    version 1 it verifies; the same document claiming version 2 is today's rules, which
    refuse that draw, so it does not."""
    old = _arcana_export(1, {"variant": "arcana", "edition": 1}, 4312)
    assert "Verified" in verify_command(tmp_path, old)
    assert 'data-verified="yes"' in verify_page(client, json.dumps(old)).content.decode()
    claimed = {**old, "log_version": 2}
    with pytest.raises(CommandError, match="arcana deck last turn"):
        verify_command(tmp_path, claimed)
    new = _arcana_export(3, {"variant": "arcana"}, 4343)  # today's rules, version 3
    assert "Verified" in verify_command(tmp_path, new)


def test_a_version_2_arcana_export_naming_no_edition_is_read_as_edition_2(client, tmp_path):
    """Before edition 3 (fatigue), a version 2 export naming no edition meant edition 2.
    Seed 4343's match runs past fatigue's 20 turns: read as version 2 it verifies; the same
    document claiming version 3 is read under fatigue, whose replay ends differently."""
    old = _arcana_export(2, {"variant": "arcana", "edition": 2}, 4343)
    assert "Verified" in verify_command(tmp_path, old)
    claimed = {**old, "log_version": 3}
    with pytest.raises(CommandError):
        verify_command(tmp_path, claimed)
