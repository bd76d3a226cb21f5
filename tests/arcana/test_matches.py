"""Arcana matches from the lobby: the options are a snapshot (an admin's edit of a card
changes no running match or replay), decks are hidden from the other seats until the
match is over, and a rematch keeps each deck with its player."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from arcana import selectors
from arcana.models import ArcanaCard, ArcanaDeck, OwnedCard
from games import fairness, replay, services
from games import selectors as match_selectors
from games.engine import registry
from games.models import Match
from games.services.tables import _options_turned

pytestmark = pytest.mark.django_db


def _lobby(client, **fields) -> object:
    form = {"game": "grimhand", "players": "2", "opponent": "ai", "ai_level": "normal"}
    form.update(fields)
    return client.post(reverse("games:lobby"), form)


def _starter_deck(client, user) -> ArcanaDeck:
    client.force_login(user)
    client.get(reverse("arcana:decks"))  # the starter set and deck
    return ArcanaDeck.objects.get(owner=user)


def test_the_lobby_creates_an_arcana_match_with_my_deck_and_levels(client, alice) -> None:
    deck = _starter_deck(client, alice)
    OwnedCard.objects.filter(user=alice, card__card_id="iron_wall").update(level=2)
    response = _lobby(client, variant="arcana", arcana_deck=str(deck.pk))
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.options["variant"] == "arcana"
    assert match.options["decks"] == [deck.card_ids, None]
    assert match.options["levels"][0]["iron_wall"] == 2  # against the AI: unrated
    assert match.options["pool"] == selectors.pool_cards()
    assert match.status == Match.Status.ACTIVE


def test_a_table_that_may_be_rated_plays_level_one(client, alice, bob) -> None:
    deck = _starter_deck(client, alice)
    OwnedCard.objects.filter(user=alice).update(level=3)
    _lobby(client, variant="arcana", arcana_deck=str(deck.pk), opponent="player", username="bob")
    match = Match.objects.get()
    assert set(match.options["levels"][0].values()) == {1}


def test_classic_stays_the_default(client, alice) -> None:
    client.force_login(alice)
    assert _lobby(client).status_code == 302
    assert Match.objects.get().options == {}


def test_a_deck_that_is_no_longer_legal_is_a_message_and_no_match(client, alice) -> None:
    deck = _starter_deck(client, alice)
    ArcanaCard.objects.filter(card_id="iron_wall").update(is_enabled=False)
    response = _lobby(client, variant="arcana", arcana_deck=str(deck.pk))
    assert response.status_code == 400
    assert "cannot be played" in response.content.decode()
    assert not Match.objects.exists()


def test_another_players_deck_is_not_a_choice(client, alice, bob) -> None:
    deck = _starter_deck(client, bob)
    client.force_login(alice)
    response = _lobby(client, variant="arcana", arcana_deck=str(deck.pk))
    assert response.status_code == 400 and not Match.objects.exists()


def _views(match: Match) -> list[dict]:
    replay.memo_clear()
    match.refresh_from_db()
    state = match_selectors.match_position(match=match).state
    game = registry.get("grimhand")
    return [game.view(state, seat) for seat in (0, 1)]


def test_an_admin_edit_changes_no_running_match_nor_its_replay(client, alice, admin_user):
    deck = _starter_deck(client, alice)
    _lobby(client, variant="arcana", arcana_deck=str(deck.pk), ai_level="easy")
    match = Match.objects.get()
    game = registry.get("grimhand")
    for _ in range(6):  # a few moves, the AI's included
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in match.seats_to_act:
            state = match_selectors.match_position(match=match).state
            move = game.legal_moves(state, 0)[0]
            services.move_submit(match_id=match.pk, user=alice, ply=match.ply, move=move)
        else:
            services.automation_run(match_id=match.pk)
    match.refresh_from_db()
    options, views, history = dict(match.options), _views(match), replay.match_events(match=match)

    client.force_login(admin_user)
    iron_wall = ArcanaCard.objects.get(card_id="iron_wall")
    url = reverse("admin:arcana_arcanacard_change", args=[iron_wall.pk])
    form = {
        "card_id": "iron_wall",
        "name": "Iron Bastion",
        "slot": "defense",
        "value": "3",
        "cost": "3",
        "effect": iron_wall.effect,
        "params": json.dumps(iron_wall.params),
        "rarity": "common",
        "text": "",
        "flavour": "",
        "art": "",
        "art_svg": "",
        "season": "",
    }  # and no longer enabled
    assert client.post(url, form).status_code == 302
    ArcanaCard.objects.filter(card_id="counter_shield").delete()

    match.refresh_from_db()
    assert match.options == options
    assert _views(match) == views
    assert [(m.ply, [e.data for e in m.events]) for m in replay.match_events(match=match)] == [
        (m.ply, [e.data for e in m.events]) for m in history
    ]
    assert "Iron Bastion" not in json.dumps(match.options)


def _running_match_with_decks(client, alice, bob) -> Match:
    deck = _starter_deck(client, alice)
    _lobby(client, variant="arcana", arcana_deck=str(deck.pk), opponent="player", username="bob")
    match = Match.objects.get()
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


def test_the_export_hides_another_seats_deck_until_the_match_is_over(client, alice, bob):
    match = _running_match_with_decks(client, alice, bob)
    deck = match.options["decks"][0]
    url = reverse("games:export", args=[match.pk])

    mine = json.loads(client.get(url).content)["options"]  # alice, seat 0
    assert mine["decks"] == [deck, None] and mine["levels"][0]
    client.force_login(bob)
    theirs = json.loads(client.get(url).content)["options"]
    assert theirs["decks"] == [None, None] and theirs["levels"] == [None, {}]
    client.logout()
    anyone = client.get(url).content.decode()
    assert json.loads(anyone)["options"]["decks"] == [None, None]
    for card_id in set(deck):  # no word of alice's list (the pool names every card: skip it)
        assert json.dumps(json.loads(anyone)["options"]["decks"]).count(card_id) == 0

    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.is_finished
    client.force_login(bob)
    after = json.loads(client.get(url).content)["options"]
    assert after["decks"] == [deck, None]


def test_the_board_and_history_pages_never_show_the_deck_list(client, alice, bob) -> None:
    match = _running_match_with_decks(client, alice, bob)
    # bob plays an archetype deck drawn from the seed, and his opening hand is his to see:
    # every other card of alice's deck is checked (nothing has been played yet).
    state = replay.match_position(match=match).state
    alices_only = set(state.setup.decks[0]) - set(state.abilities[1])
    assert len(alices_only) >= 3
    client.force_login(bob)
    for name in ("games:match", "games:history"):
        page = client.get(reverse(name, args=[match.pk]))
        assert page.status_code == 200
        html = page.content.decode()
        assert [card for card in sorted(alices_only) if card in html] == []


def test_a_rematch_keeps_each_deck_with_its_player() -> None:
    options = {"variant": "arcana", "decks": [["a"], None], "levels": [{"a": 2}, {}]}
    turned = _options_turned(options, 2)
    assert turned["decks"] == [None, ["a"]] and turned["levels"] == [{}, {"a": 2}]
    assert _options_turned({"hp": 50}, 2) == {"hp": 50}


def test_the_export_of_a_classic_match_is_unchanged(make_match, alice, bob) -> None:
    match = make_match(alice, bob)
    assert fairness.export_build(match=match, viewer_seat=1)["options"] == match.options


# --- the invited player picks a deck at join --------------------------------------------------


def _invitation(client, alice, bob) -> tuple[Match, ArcanaDeck]:
    """alice's Arcana table inviting bob; bob's own starter deck."""
    deck = _starter_deck(client, alice)
    _lobby(client, variant="arcana", arcana_deck=str(deck.pk), opponent="player", username="bob")
    match = Match.objects.get()
    return match, _starter_deck(client, bob)  # logs bob in


def test_the_invited_player_picks_a_deck_at_join(client, alice, bob) -> None:
    match, bob_deck = _invitation(client, alice, bob)
    OwnedCard.objects.filter(user=bob).update(level=3)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'name="arcana_deck"' in page and bob_deck.name in page  # the pick, on the invitation
    response = client.post(reverse("games:join", args=[match.pk]), {"arcana_deck": bob_deck.pk})
    assert response.status_code in (200, 302)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.options["decks"][1] == bob_deck.card_ids
    assert set(match.options["levels"][1].values()) == {1}  # may be rated: level 1
    state = replay.match_position(match=match).state
    assert sorted(state.setup.decks[1]) == sorted(bob_deck.card_ids)


def test_joining_without_a_pick_plays_the_archetype_deck(client, alice, bob) -> None:
    match, _ = _invitation(client, alice, bob)
    client.post(reverse("games:join", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.options["decks"][1] is None


@pytest.mark.parametrize("pick", ["other", "junk", "0", "99999999"])
def test_a_deck_pick_at_join_that_is_not_mine_is_a_message_and_no_seat(
    client, alice, bob, pick
) -> None:
    match, _ = _invitation(client, alice, bob)
    alices = ArcanaDeck.objects.get(owner=alice)
    before = dict(match.options)
    value = {"other": str(alices.pk), "junk": "x1"}.get(pick, pick)
    response = client.post(reverse("games:join", args=[match.pk]), {"arcana_deck": value})
    assert 400 <= response.status_code < 500
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING and match.options == before
    assert not match.seats.get(index=1).joined


# --- and on a private table's link, and from the open tables ----------------------------------


def _open_arcana_table(client, alice, **fields) -> Match:
    deck = _starter_deck(client, alice)
    _lobby(client, variant="arcana", arcana_deck=str(deck.pk), opponent="open", **fields)
    return Match.objects.get()


def test_a_deck_is_picked_on_a_private_tables_link(client, alice, bob) -> None:
    match = _open_arcana_table(client, alice, is_private="on", time_control="1d")
    link = reverse("games:private_table", args=[match.invite_token])
    bob_deck = _starter_deck(client, bob)
    page = client.get(link).content.decode()
    assert 'name="arcana_deck"' in page and bob_deck.name in page
    before = dict(match.options)
    alices = ArcanaDeck.objects.get(owner=alice)
    refused = client.post(link, {"arcana_deck": str(alices.pk)})  # not bob's: a message
    assert refused.status_code == 404 and "no such deck" in refused.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING and match.options == before

    assert client.post(link, {"arcana_deck": str(bob_deck.pk)}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.options["decks"][1] == bob_deck.card_ids


def test_a_deck_is_picked_when_taking_a_seat_from_the_open_tables(client, alice, bob) -> None:
    match = _open_arcana_table(client, alice, time_control="1d")
    bob_deck = _starter_deck(client, bob)
    page = client.get(reverse("games:open_matches")).content.decode()
    assert f'id="join-arcana-deck-{match.pk}"' in page and bob_deck.name in page
    client.post(reverse("games:join", args=[match.pk]), {"arcana_deck": str(bob_deck.pk)})
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.options["decks"][1] == bob_deck.card_ids
