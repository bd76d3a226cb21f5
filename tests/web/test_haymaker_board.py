"""The Haymaker board, rendered for real matches from a fixed deal.

What a viewer may see (their own cards; the opponent's only face down, in pages and in
the preview fragment), the card form (checkboxes + action buttons, posted with and without
HTMX), the preview whose buttons the engine enables, and bad input refused with the
engine's message and nothing written.
"""

import html
import re
from collections import Counter

import pytest
from django.urls import reverse

from games import selectors, services
from games.boards import haymaker as haymaker_board
from games.engine.core import Event
from games.models import Move
from tests.pages import page

ALICE = ["3C", "6C", "10C", "5D", "8D", "2H", "7H", "9H", "AS", "4S"]
BOB = ["5C", "9C", "3D", "4D", "10D", "AH", "6H", "2S", "7S", "8S"]  # 9C: Bob's alone
BURNED = ["2C", "5H", "10H", "3S"]
DECK = ["AC", "4C", "7C", "8C", "AD", "2D", "6D", "7D", "9D", "3H", "4H", "8H", "5S", "6S"]
DECK += ["9S", "10S"]
DEAL = {"hands": [ALICE, BOB], "burned": BURNED, "deck": DECK, "first": 0}
SENTINEL = "9C"  # only Bob ever holds it in these tests
CARD = re.compile(r'data-card="([0-9AC-HS]+)"')


def haymaker_match(creator, invitee, deal=DEAL):
    match = services.match_create(
        creator=creator,
        game_slug="haymaker",
        opponent="player",
        invitee_username=invitee.username,
        options={"deal": deal},
    )
    services.match_join(match_id=match.pk, user=invitee)
    match.refresh_from_db()
    return match


def preview(client, match, user, cards=(), **params) -> tuple[int, str]:
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(
        reverse("games:preview", args=[match.pk]),
        {"cards": list(cards), **params},
        HTTP_HX_REQUEST="true",
    )
    return response.status_code, response.content.decode()


def post_cards(client, match, user, action, cards=(), *, htmx=False, ply=None):
    client.force_login(user)
    match.refresh_from_db()
    data = {"ply": match.ply if ply is None else ply, "action": action, "cards": list(cards)}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[match.pk]), data, **headers)


def play(match, user, move):
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()


def mentions(text: str, card: str) -> bool:
    """The card's name as a word (not inside a token or a hash), or its spoken label."""
    label = haymaker_board.CARDS[card]["label"]
    return bool(re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text)) or label in text


def buttons(fragment: str) -> dict[str, bool]:
    """action -> enabled, for every action button in the HTML."""
    found = re.findall(
        r'<button type="submit" name="action" value="(\w+)"[^>]*?(disabled)?>', fragment
    )
    return {action: not disabled for action, disabled in found}


@pytest.fixture
def match(alice, bob):
    return haymaker_match(alice, bob)


# --- what each viewer sees ------------------------------------------------------------------


def test_my_cards_are_real_cards_and_the_opponents_are_face_down(client, match, alice):
    board = page(client, match, alice)
    assert 'data-testid="haymaker-ring"' in board
    assert Counter(CARD.findall(board)) == Counter(ALICE)
    assert all(f'name="cards" value="{card}"' in board for card in ALICE)
    assert 'aria-label="7 of hearts"' in board and 'aria-label="Ace of spades"' in board
    assert board.count('class="hm-pip') >= sum(haymaker_board.CARDS[c]["value"] for c in ALICE)
    theirs = board.split('data-testid="hand-1"')[1].split("</div>")[0]
    assert theirs.count("hm-card is-back") == 10
    assert 'data-testid="hand-count-1" data-count="10"' in board
    assert 'data-testid="deck" data-count="16"' in board
    assert 'data-testid="burned" data-count="4"' in board
    assert 'data-testid="discard-0" data-count="0"' in board
    assert 'data-testid="role-0" data-role="attacker"' in board
    assert 'data-testid="role-1" data-role="defender"' in board
    assert 'data-testid="opening-bell"' in board


@pytest.mark.parametrize("viewer", ["alice", "spectator", "stranger"])
def test_a_card_only_the_opponent_holds_never_reaches_the_page(
    client, match, viewer, request, make_user
):
    user = {"alice": lambda: request.getfixturevalue("alice"), "stranger": make_user}.get(
        viewer, lambda: None
    )()
    board = page(client, match, user)
    assert not mentions(board, SENTINEL)
    if viewer != "alice":
        assert not CARD.findall(board)  # nobody's hand, face up
        assert 'name="cards"' not in board and 'name="action"' not in board
    status, fragment = preview(client, match, user, [SENTINEL, "7H"])
    assert status == 200 and not mentions(fragment, SENTINEL)


def test_the_preview_never_echoes_a_card_i_do_not_hold(client, match, alice):
    status, fragment = preview(client, match, alice, [SENTINEL, "7H"])
    assert status == 200
    assert not mentions(fragment, SENTINEL)
    assert "7♥" in fragment and buttons(fragment)["attack"] is False  # 9C is not Alice's


def test_the_bottom_of_my_page_is_my_corner_for_either_seat(client, match, bob):
    board = page(client, match, bob)
    assert Counter(CARD.findall(board)) == Counter(BOB)
    assert board.index('data-testid="side-0"') < board.index('data-testid="side-1"')
    assert not any(mentions(board, card) for card in ALICE)
    assert 'id="hm-play"' not in board and 'name="cards"' not in board  # Alice attacks first
    assert buttons(board) == {"block": False, "take_hit": False}
    assert "Waiting for alice to attack" in board


# --- the card form and the preview ---------------------------------------------------------------


def test_the_plain_form_enables_every_button_of_my_role_but_an_early_pass(client, match, alice):
    board = page(client, match, alice)
    form = board.split('id="hm-play"')[1].split("</form>")[0]
    assert f'action="{reverse("games:move", args=[match.pk])}"' in board
    assert 'name="ply" value="0"' in form and 'name="move_id"' in form
    assert buttons(form) == {"attack": True, "haymaker": True, "pass": False}
    # The trigger sits beside the bar it refreshes, not in it: a tap while the bar is being
    # swapped still asks for a preview.
    trigger = form.split('data-testid="preview-trigger"')[1].split("</div>")[0]
    assert f'hx-get="{reverse("games:preview", args=[match.pk])}"' in trigger
    assert 'hx-trigger="load, change from:#hm-play"' in trigger
    # Queued, the last one wins: a replaced request was aborted, and htmx logs each abort as
    # a console error (issue 18's first-hour test).
    assert 'hx-target="#hm-actions"' in trigger and 'hx-sync="this:queue last"' in trigger
    bar = form.split('id="hm-actions"')[1].split(">")[0]
    assert "hx-get" not in bar


def test_the_preview_adds_up_the_cards_and_asks_the_engine(client, match, alice):
    status, fragment = preview(client, match, alice, ["7H"], ply=0)
    assert status == 200 and 'data-testid="action-bar"' in fragment
    assert 'data-total="7"' in fragment
    assert buttons(fragment) == {"attack": True, "haymaker": False, "pass": False}
    assert "hx-trigger" not in fragment  # the trigger stays on the board: no request loop

    _, fragment = preview(client, match, alice, ["2H", "7H", "9H"])
    assert 'data-total="18"' in fragment
    assert buttons(fragment) == {"attack": False, "haymaker": True, "pass": False}

    _, fragment = preview(client, match, alice, ["7H", "3C"])  # mixed suits
    assert buttons(fragment) == {"attack": False, "haymaker": False, "pass": False}


def test_block_is_enabled_only_when_the_block_reaches_the_attack(client, match, alice, bob):
    play(match, alice, {"type": "attack", "cards": ["7H"]})
    board = page(client, match, bob)
    assert 'data-testid="table-attack" data-strength="7"' in board
    assert "Block with 7 or more: exactly 7 is a reversal" in board

    _, fragment = preview(client, match, bob, ["3D"])
    assert 'data-total="3"' in fragment and 'data-testid="block-meter"' in fragment
    assert buttons(fragment) == {"block": False, "take_hit": True}
    assert "4 short of the attack." in fragment

    _, fragment = preview(client, match, bob, ["3D", "4D"])
    assert 'data-total="7"' in fragment
    assert buttons(fragment) == {"block": True, "take_hit": True}
    assert "REVERSAL" in fragment

    _, fragment = preview(client, match, bob, ["3D", "8S"])
    assert buttons(fragment)["block"] is True and "4 over: no reversal" in fragment

    _, fragment = preview(client, match, alice, ["2H"])  # not Alice's turn
    assert buttons(fragment) == {"attack": False, "haymaker": False, "pass": False}


def test_a_stale_or_foreign_preview_enables_nothing(client, match, alice, bob, make_user):
    _, fragment = preview(client, match, alice, ["7H"], ply=5)
    assert not any(buttons(fragment).values())
    _, fragment = preview(client, match, make_user(), ["7H"])
    assert buttons(fragment) == {} and 'data-testid="action-bar"' in fragment
    _, fragment = preview(client, match, None, ["7H"])
    assert buttons(fragment) == {}


def test_the_preview_of_an_unknown_match_is_a_404_page(client, alice):
    client.force_login(alice)
    response = client.get(reverse("games:preview", args=[987654]))
    assert response.status_code == 404
    assert "There is no such match." in response.content.decode()


def test_a_board_without_a_card_form_has_no_preview(client, make_match, alice, bob):
    client.force_login(alice)
    response = client.get(reverse("games:preview", args=[make_match(alice, bob).pk]))
    assert response.status_code == 404
    assert "This board has no move preview." in response.content.decode()


def test_the_preview_is_get_only(client, match, alice):
    client.force_login(alice)
    assert client.post(reverse("games:preview", args=[match.pk])).status_code == 405


@pytest.mark.parametrize("htmx", [False, True])
def test_a_card_form_exchange_ends_in_a_reversal(client, match, alice, bob, htmx):
    response = post_cards(client, match, alice, "attack", ["7H"], htmx=htmx)
    if htmx:
        assert response.status_code == 200
        assert response.content.decode().lstrip().startswith("<section")
    else:
        assert response.status_code == 302
        assert response["Location"] == match.get_absolute_url()
    assert list(Move.objects.filter(match=match).values_list("payload", flat=True)) == [
        {"type": "attack", "cards": ["7H"]}
    ]
    response = post_cards(client, match, bob, "block", ["4D", "3D"], htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert Move.objects.filter(match=match).count() == 2

    board = page(client, match, bob)
    assert 'data-testid="last-turn" data-result="reversal"' in board
    assert "fx-reversal" in board and "fx-roles_switched" in board
    assert 'data-testid="role-1" data-role="attacker"' in board
    assert 'data-testid="discard-1" data-count="3"' in board
    assert "REVERSAL! bob turns the fight around (an exact block)." in board


def test_take_the_hit_ignores_checked_cards(client, match, alice, bob):
    play(match, alice, {"type": "attack", "cards": ["7H"]})
    response = post_cards(client, match, bob, "take_hit", ["3D"], htmx=True)
    assert response.status_code == 200
    assert Move.objects.get(match=match, ply=1).payload == {"type": "take_hit"}
    board = response.content.decode()
    assert 'data-result="hit"' in board and "bob takes the hit, which costs 1 card." in board


BAD_INPUT = [
    (
        "mixed-suit haymaker",
        "haymaker",
        ["7H", "3C"],
        "A haymaker's cards must all be of one suit.",
    ),
    ("one-card haymaker", "haymaker", ["7H"], "A haymaker needs two or more cards of one suit."),
    ("pass on the first turn", "pass", [], "You cannot pass on the first turn"),
    ("a card not in my hand", "attack", [SENTINEL], "9C is not in your hand."),
    ("the same card twice", "haymaker", ["7H", "7H"], "7H is listed twice"),
    ("no card at all", "attack", [], "A normal attack is exactly one card"),
    ("an unknown action", "dance", ["7H"], "Haymaker moves:"),
    ("a malformed action", "DROP TABLE", ["7H"], "That button does not make a move here."),
    ("a malformed card", "attack", ["7h"], "“7h” is not a card."),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    ("case", "action", "cards", "message"), BAD_INPUT, ids=[c[0] for c in BAD_INPUT]
)
def test_bad_input_gets_a_clear_message_and_writes_nothing(
    client, match, alice, htmx, case, action, cards, message
):
    response = post_cards(client, match, alice, action, cards, htmx=htmx)
    assert 400 <= response.status_code < 500, case
    assert message in html.unescape(response.content.decode())
    assert 'data-testid="board-error"' in response.content.decode()
    assert not Move.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.ply == 0


def test_a_block_below_the_attack_is_refused(client, match, alice, bob):
    play(match, alice, {"type": "attack", "cards": ["7H"]})
    response = post_cards(client, match, bob, "block", ["2S", "AH"])
    assert response.status_code == 422
    text = html.unescape(response.content.decode())
    assert "Your block is 3 against an attack of 7: it must be at least 7." in text
    assert Move.objects.filter(match=match).count() == 1


def test_an_attacker_cannot_block_and_a_stale_ply_is_refused(client, match, alice, bob):
    assert post_cards(client, match, alice, "block", ["7H"]).status_code == 422
    response = post_cards(client, match, alice, "attack", ["7H"], ply=3)
    assert response.status_code == 409
    assert post_cards(client, match, bob, "take_hit").status_code == 409  # not his turn
    assert not Move.objects.filter(match=match).exists()


# --- what happened: the table, the hit, the log -----------------------------------------------


def test_a_haymaker_lands_on_the_table_with_its_badge(client, match, alice, bob):
    play(match, alice, {"type": "haymaker", "cards": ["2H", "9H", "7H"]})
    board = page(client, match, bob)
    assert 'data-testid="table-attack" data-strength="18" data-haymaker="true"' in board
    assert 'data-testid="haymaker-badge"' in board and "fx-haymaker" in board
    assert "any block of a haymaker is a reversal" in board
    assert "alice swings a HAYMAKER: 2♥ 7♥ 9♥ for 18!" in board
    _, fragment = preview(client, match, bob, ["10D", "8S"])
    assert buttons(fragment)["block"] is True and "REVERSAL" in fragment


def test_the_card_a_hit_takes_is_shown_to_the_two_players_only(client, match, alice, bob):
    play(match, alice, {"type": "attack", "cards": ["7H"]})
    play(match, bob, {"type": "take_hit"})
    state = selectors.match_position(match=match).state
    taken = selectors.match_game(match=match).view(state, 0)["last_turn"]["taken"]
    assert len(taken) == 1 and taken[0] in BOB
    (card,) = taken
    mine = page(client, match, alice)
    assert f'name="cards" value="{card}"' in mine and "hm-pick is-fresh" in mine
    assert ">seen<" in mine  # Bob knows Alice holds it
    theirs = page(client, match, bob)
    assert f'data-card="{card}"' in theirs and "hm-pick is-revealed" in theirs
    watcher = page(client, match, None)
    assert not mentions(watcher, card)
    assert "bob takes the hit, which costs 1 card." in watcher
    assert f"alice takes {haymaker_board.CARDS[card]['short']}" in mine


def test_a_knockout_shows_on_the_table(client, alice, bob):
    deal = {**DEAL, "hands": [ALICE, ["AH"]], "deck": DECK + [c for c in BOB if c != "AH"]}
    match = haymaker_match(alice, bob, deal)
    play(match, alice, {"type": "haymaker", "cards": ["2H", "9H"]})
    play(match, bob, {"type": "take_hit"})  # one card against a haymaker: knocked out
    for viewer, who in ((alice, "You win!"), (bob, "alice wins"), (None, "alice wins")):
        board = page(client, match, viewer)
        assert 'data-testid="outcome"' in board and "K.O.!" in board and who in board
        assert "fx-knockout" in board and "fx-floored" in board
        assert 'name="action"' not in board


def test_every_event_reads_as_a_sentence():
    names = ["alice", "bob"]
    events = [
        Event("attack", {"seat": 0, "cards": ["7H"], "strength": 7}),
        Event("haymaker", {"seat": 0, "cards": ["2H", "9H"], "strength": 11}),
        Event("block", {"seat": 1, "cards": ["3D", "4D"], "strength": 7, "attack_strength": 7}),
        Event("reversal", {"seat": 1, "reasons": ["equal", "attacker_empty"]}),
        Event("discarded", {"seat": 1, "cards": ["7H", "3D"], "count": 2}),
        Event("roles_switched", {"attacker": 1, "defender": 0}),
        Event("hit", {"seat": 1, "attacker": 0, "count": 2}),
        Event("cards_taken", {"from": 1, "to": 0, "cards": ["AH"]}, (0, 1)),
        Event("pass", {"seat": 0}),
        Event("card_drawn", {"seat": 0, "deck_count": 1}),
        Event("drew", {"seat": 0, "card": "10S"}, (0,)),
        Event("knockout", {"winner": 0, "loser": 1, "cards_left": 1}),
        Event("technical_knockout", {"winner": 1, "loser": 0}),
        Event("decision", {"discards": [9, 7], "winners": [0]}),
        Event("decision", {"discards": [8, 8], "winners": []}),
    ]
    lines = [haymaker_board.describe(event, names) for event in events]
    assert lines == [
        "alice jabs with 7♥: an attack of 7.",
        "alice swings a HAYMAKER: 2♥ 9♥ for 11!",
        "bob blocks with 3♦ 4♦: 7 against 7.",
        "REVERSAL! bob turns the fight around (an exact block and the attacker has no cards left).",
        "7♥ 3♦ go to bob's discard pile (2 cards).",
        "Roles switch: bob attacks, alice defends.",
        "bob takes the hit, which costs 2 cards.",
        "alice takes A♥ from bob's hand.",
        "alice passes: both draw, and the roles switch.",
        "alice draws a card (1 card left to draw).",
        "It is the 10 of spades.",
        "KNOCKOUT! bob cannot pay for the hit. alice wins.",
        "Technical knockout: alice has no move left. bob wins.",
        "Both hands are empty. Decision on discard piles, 9–7: alice wins.",
        "Both hands are empty. Decision on discard piles, 8–8: a draw.",
    ]


# --- the rules page, the home page and the tutorial's pointers ----------------------------------


def test_the_rules_page_explains_the_decisions_with_cards(client, db):
    response = client.get(reverse("games:rules", args=["haymaker"]))
    assert response.status_code == 200
    text = response.content.decode()
    assert 'data-testid="haymaker-rules"' in text
    for words in ("Reversal", "Knockout", "Technical knockout", "Decision", "attacked last turn"):
        assert words in text
    assert {"7H", "3C", "4S", "AC", "10S"} <= set(CARD.findall(text))
    assert "css/games/haymaker.css" in text


def test_the_home_page_offers_the_rules_and_the_tutorial(client, alice):
    client.force_login(alice)
    text = client.get(reverse("home")).content.decode()
    assert reverse("games:rules", args=["haymaker"]) in text
    assert reverse("games:tutorial", args=["haymaker"]) in text


def test_the_tutorial_points_at_the_button_and_the_cards(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:tutorial", args=["haymaker"]))
    assert response.status_code == 302
    board = client.get(response["Location"]).content.decode()
    assert 'data-testid="coach"' in board and "Tap your 7♣" in board
    assert re.search(r'class="hm-button hm-button-attack is-coached"', board)
    assert len(re.findall(r"is-coached", board)) == 1
    hinted = re.findall(r'class="hm-pick is-hinted"[^>]*>\s*<input[^>]*value="(\w+)"', board)
    assert hinted == ["7C"]
