"""The Grimhand Tactics board, rendered for real matches from fixed deals.

What a viewer may see (their own hand, backs only for the opponent, never a deck order),
the fate meter and the attack preview, the markup the engine's events switch on (flip,
clash, pop-ups, flush, Lucky save, Death reveal), and moves over HTMX and plain forms.
"""

import html
import json
import re
from collections import Counter

import pytest
from django.urls import reverse

from games import services
from games.boards import grimhand
from games.engine.core import Event
from games.models import Move
from tests.pages import page

# Alice (seat 0) moves first. Bob's hand holds the only 9 and 11 of the defense cards,
# the attack deck's order is 5 then 6, the defense deck holds one Death card in two.
DEAL = {
    "attack": [5, 6],
    "defense": [1, 13],
    "hands": [{"attack": [3, 10], "defense": [2]}, {"attack": [4], "defense": [9, 11]}],
    "lucky": [True, False],
    "hp": [40, 30],
    "first": 0,
}
CARD = re.compile(r'data-card="([a-z-]+\d+)"')
BIG_VALUE = re.compile(r'<span class="gh-value" aria-hidden="true">(\d+)</span>')


def grimhand_match(creator, invitee, deal, **options):
    match = services.match_create(
        creator=creator,
        game_slug="grimhand",
        opponent="player",
        invitee_username=invitee.username,
        options={"deal": deal, **options},
    )
    services.match_join(match_id=match.pk, user=invitee)
    match.refresh_from_db()
    return match


def play(match, user, move):
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()


def button_move(page_html: str, testid: str) -> dict:
    found = re.search(rf'value="([^"]+)"[^>]*data-testid="{testid}"', page_html)
    assert found, f"no button {testid}"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture
def match(alice, bob):
    return grimhand_match(alice, bob, DEAL)


def test_the_viewer_sees_their_own_hand_and_only_backs_of_the_opponents(client, match, alice):
    board = page(client, match, alice)
    assert 'data-testid="grimhand-table"' in board
    assert Counter(CARD.findall(board)) == Counter(
        ["attack-3", "attack-10", "defense-2", "lucky-7"]
    )
    assert Counter(BIG_VALUE.findall(board)) == Counter(["3", "10", "2"])
    hidden_row = board.split('data-testid="hand-1-defense"')[1].split("gh-row-label")[1]
    assert hidden_row.count("gh-card is-back") == 2


@pytest.mark.parametrize("viewer", ["alice", "spectator"])
def test_no_hidden_card_reaches_the_page(client, match, viewer, request):
    user = request.getfixturevalue(viewer) if viewer == "alice" else None
    board = page(client, match, user)
    shown = set(CARD.findall(board))
    # Bob's 9 and 11, and the deck order (5 then 6; the 13), never reach another seat.
    for secret in ("defense-9", "defense-11", "attack-4", "attack-5", "attack-6", "defense-13"):
        assert secret not in shown
    if user is None:
        assert not {card for card in shown if card.startswith(("attack-", "defense-"))}
        assert not BIG_VALUE.findall(board)
        assert 'data-testid="draw-attack"' not in board and 'data-testid="preview"' not in board


def test_the_fate_meter_shows_the_engines_death_chance(client, match, alice, bob):
    board = page(client, match, alice)
    assert 'data-testid="fate-attack">0%<' in board
    assert 'data-testid="fate-defense">50%<' in board
    assert "fate-dire" in board and "fate-safe" in board
    assert "1 Death card in 2" in board
    assert 'data-testid="protected"' in board  # Alice's Lucky slot is filled
    assert 'data-testid="protected"' not in page(client, match, bob)


def test_the_attack_button_shows_the_preview_range(client, match, alice):
    board = page(client, match, alice)
    # Unseen defense cards for Alice: 1, 9, 11 (her own 2 and the 13 excluded). Bob holds
    # two: 1 + 9 = 10 to 9 + 11 = 20 against her 3 + 10 = 13.
    assert "Your 13 against their 2 hidden defense cards: 0–3 damage" in board
    assert button_move(board, "move-attack") == {"type": "attack"}


def test_each_deck_is_a_draw_button_posting_its_move(client, match, alice, bob):
    board = page(client, match, alice)
    assert button_move(board, "draw-attack") == {"type": "draw", "deck": "attack"}
    assert button_move(board, "draw-defense") == {"type": "draw", "deck": "defense"}
    form = board.split('data-testid="draw-attack"')[0].rsplit("<form", 1)[1]
    assert f'hx-post="{reverse("games:move", args=[match.pk])}"' in form
    assert 'name="ply" value="0"' in form and 'name="move_id"' in form
    assert ">Draw<" in board
    waiting = page(client, match, bob)
    assert 'data-testid="draw-attack"' not in waiting and 'data-testid="move-attack"' not in waiting
    assert 'data-testid="deck-attack"' in waiting


def test_a_plain_form_draw_redirects_and_the_new_card_flips_in(client, match, alice, bob):
    client.force_login(alice)
    response = client.post(
        reverse("games:move", args=[match.pk]),
        {"ply": 0, "move": json.dumps({"type": "draw", "deck": "attack"}), "move_id": "d1"},
    )
    assert response.status_code == 302
    assert response["Location"] == match.get_absolute_url()
    assert Move.objects.filter(match=match).count() == 1
    board = page(client, match, alice)
    assert re.search(r'class="gh-card gh-card-attack is-fresh"[^>]*data-card="attack-5"', board)
    assert "alice takes an Attack 5 into hand." in board
    seen_by_bob = page(client, match, bob)
    assert "alice draws from the Attack deck." in seen_by_bob
    assert "Attack 5" not in seen_by_bob
    assert "fx-draw-attack" in seen_by_bob  # the back slides into Alice's row
    assert (
        seen_by_bob.split('data-testid="hand-0-attack"')[1].split("gh-fan")[1].count("is-back") == 3
    )


def test_an_htmx_attack_shows_the_clash_and_the_pop_ups(client, alice, bob):
    match = grimhand_match(
        alice,
        bob,
        {**DEAL, "hands": [{"attack": [3, 7], "defense": []}, {"attack": [], "defense": [4]}]},
    )
    client.force_login(alice)
    response = client.post(
        reverse("games:move", args=[match.pk]),
        {"ply": 0, "move": json.dumps({"type": "attack"})},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    board = response.content.decode()
    assert board.lstrip().startswith("<section")
    assert 'data-testid="clash"' in board and "6 damage" in board
    assert 'data-testid="damage-pop">−6<' in board
    assert 'data-testid="block-pop">−4 blocked<' in board
    assert "alice attacks with 3 + 7 = 10 against 4: 6 damage. bob has 24 HP." in board
    assert 'data-testid="hp-1"><strong>24</strong>' in board
    assert "gh-hp-ghost" in board and "fx-hit" in board


def test_the_death_card_without_a_lucky_7_is_revealed_and_stays(client, alice, bob):
    match = grimhand_match(alice, bob, {**DEAL, "attack": [13, 5], "lucky": [False, False]})
    play(match, alice, {"type": "draw", "deck": "attack"})
    for viewer, title in ((alice, "Defeat"), (bob, "Victory!"), (None, "bob wins")):
        board = page(client, match, viewer)
        assert 'data-testid="death-reveal"' in board
        assert "gh-death is-fatal" in board and "Death claims alice" in board
        assert "fx-death_card" in board  # the table quakes
        assert 'data-testid="outcome"' in board and title in board


def test_a_lucky_7_cheats_the_death_card(client, alice, bob):
    match = grimhand_match(alice, bob, {**DEAL, "attack": [13, 5]})
    play(match, alice, {"type": "draw", "deck": "attack"})
    board = page(client, match, alice)
    assert "gh-death is-saved" in board and "the Lucky 7 cheats death" in board
    assert "gh-slot-ghost" in board and "fx-lucky_saved" in board
    assert "gh-lucky-slot is-filled" not in board
    assert 'data-card="discard-attack-7"' in board  # the 7 went back to its discard pile


def test_a_fourteenth_card_flushes_the_hand_with_its_animation(client, alice, bob):
    full = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 8, 9]
    match = grimhand_match(
        alice, bob, {**DEAL, "hands": [{"attack": full, "defense": [2]}, {"defense": [9]}]}
    )
    before = page(client, match, alice)
    assert "gh-row gh-row-attack is-full" in before and ">full<" in before
    play(match, alice, {"type": "draw", "deck": "attack"})
    for viewer in (alice, bob):
        board = page(client, match, viewer)
        assert 'data-testid="flush"' in board
        assert "Flushed! 14 cards to the discard" in board
        assert 'data-testid="hand-0-attack" data-count="0"' in board


def test_the_lucky_slot_glows_when_filled(client, match, alice, bob):
    for viewer in (alice, bob, None):
        board = page(client, match, viewer)
        assert 'class="gh-lucky-slot is-filled" tabindex="0" data-testid="lucky-0"' in board
        assert 'class="gh-lucky-slot" tabindex="0" data-testid="lucky-1"' in board


def test_cards_explain_themselves_on_hover_and_focus(client, match, alice):
    board = page(client, match, alice)
    assert "Attack 10: adds 10 to your attack total." in board
    assert "Defense 2: blocks 2 damage when you are attacked" in board
    assert "Lucky 7: your charm against Death." in board
    assert re.search(r'class="gh-card gh-card-attack"[^>]*tabindex="0"', board)
    assert "Defense deck: 2 cards face down, 1 Death card among them: a 50% chance" in board


def test_a_seat_that_can_do_nothing_else_passes(client, alice, bob):
    match = grimhand_match(
        alice,
        bob,
        {"attack": [], "defense": [], "hands": [{}, {"attack": [2]}], "first": 0},
    )
    board = page(client, match, alice)
    assert button_move(board, "move-pass") == {"type": "pass"}
    assert 'data-testid="draw-attack"' not in board and "gh-deck-empty" in board


@pytest.mark.django_db  # the Arcana section's card gallery reads the enabled pool
def test_the_rules_page(client):
    response = client.get(reverse("games:rules", args=["grimhand"]))
    assert response.status_code == 200
    text = response.content.decode()
    for phrase in ("3 + 7 − 4 = 6", "Lucky 7", "Death", "flush", "fate meter", "13"):
        assert phrase in text


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (Event("draw", {"seat": 0, "deck": "attack"}), "Alice draws from the Attack deck."),
        (Event("card_to_hand", {"seat": 1, "deck": "defense", "value": 4}), "Bob takes a"),
        (Event("lucky_slotted", {"seat": 0, "deck": "defense"}), "Lucky 7"),
        (Event("death_card", {"seat": 1, "deck": "attack"}), "Bob turns over the Death card!"),
        (Event("lucky_saved", {"seat": 1}), "Bob's Lucky 7 cheats death!"),
        (Event("death", {"seat": 0}), "Death claims Alice."),
        (Event("hand_flushed", {"seat": 0, "deck": "attack", "values": [1] * 14}), "all 14"),
        (
            Event("card_discarded", {"seat": 0, "deck": "defense", "value": 1, "reason": "x"}),
            "Alice discards a Defense 1.",
        ),
        (
            Event(
                "attack",
                {
                    "seat": 0,
                    "target": 1,
                    "attack": [3, 7],
                    "defense": [4],
                    "attack_total": 10,
                    "defense_total": 4,
                    "damage": 6,
                    "hp": 44,
                },
            ),
            "Alice attacks with 3 + 7 = 10 against 4: 6 damage.",
        ),
        (Event("blocked", {"seat": 1, "amount": 4}), "Bob's shields block 4."),
        (Event("hp_penalty", {"seat": 0, "amount": 3, "hp": 9}), "Alice overdraws and loses 3"),
        (Event("reshuffled", {"deck": "defense", "count": 30}), "The Defense deck is reshuffled"),
        (Event("pass", {"seat": 1}), "Bob can neither draw nor attack"),
    ],
)
def test_every_event_has_a_log_line_naming_the_player(event, line):
    assert line in grimhand.describe(event, ["Alice", "Bob"])
