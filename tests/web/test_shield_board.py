"""The Shield board, rendered for real matches of 3 to 8 seats from fixed deals.

What each viewer may see (my own four setup cards and pick, nobody else's; stored cards
only as counts, mine included; a spectator no hand at all), the target picker's buttons
(the viewer's legal moves as JSON, posted with and without HTMX), the boost and giving
steps, players who are out, an 8-seat table, the log lines and the rules page.
"""

from __future__ import annotations

import html
import json
import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import services
from games.boards import shield as shield_board
from games.engine import registry
from games.models import Move
from tests.pages import page

ALICE_HAND = ["AC", "3C", "2D", "JH"]  # shield JH: HP 1 + 3 + 2 = 6, the lowest: Alice starts
BOB_HAND = ["10C", "KC", "5C", "6C"]  # shield 6C: HP 28
CAROL_HAND = ["AH", "AS", "QD", "10D"]  # shield 10D: HP 14
BOB_STORED = ["3H", "QS"]  # face down from the start: nobody may ever see these two
SUITS = "CDHS"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS]
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
CARD_ATTR = re.compile(r'data-card="([0-9AJQKCDHS]+)"')


def _rest(*used: list[str], top: tuple[str, ...] = ()) -> list[str]:
    taken = {card for cards in used for card in cards} | set(top)
    return list(top) + [card for card in ALL_CARDS if card not in taken]


SETUP_DEAL = {
    "hands": [ALICE_HAND, BOB_HAND, CAROL_HAND],
    "deck": _rest(ALICE_HAND, BOB_HAND, CAROL_HAND),
}
# Play from the start: shields laid, Bob holds two stored cards, the King of spades on top.
PLAY_DEAL = {
    "hands": [ALICE_HAND, BOB_HAND, CAROL_HAND],
    "shields": ["JH", "6C", "10D"],
    "stored": [[], BOB_STORED, []],
    "deck": _rest(ALICE_HAND, BOB_HAND, CAROL_HAND, BOB_STORED, top=("KS", "4D", "9S")),
}


def mentions(page: str, card: str) -> bool:
    """Does the page name this card anywhere: as a card face, a label or a log line?"""
    rank, suit = card[:-1], card[-1]
    word = f"{WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"
    return card in CARD_ATTR.findall(page) or word in page or f"{rank}{SYMBOLS[suit]}" in page


class _Buttons(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict[str, str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "button" and "data-testid" in found:
            self.found[found["data-testid"]] = found


def buttons(page: str) -> dict[str, dict[str, str]]:
    parser = _Buttons()
    parser.feed(page)
    return parser.found


def move_of(button: dict[str, str]) -> dict:
    return json.loads(html.unescape(button["value"]))


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def shield_match(creator, *invitees, deal=None, **rules):
    others = [services.SeatSpec(kind="player", username=user.username) for user in invitees]
    options = {"deal": deal, **rules} if deal is not None else dict(rules)
    with services.automation_paused():
        match = services.match_create(
            creator=creator, game_slug="shield", others=others, options=options
        )
        for user in invitees:
            services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def play(match, user, move):
    match.refresh_from_db()
    with services.automation_paused():
        services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()


def post_move(client, match, user, move, *, htmx=False):
    client.force_login(user)
    match.refresh_from_db()
    data = {"ply": match.ply, "move": json.dumps(move)}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[match.pk]), data, **headers)


# --- the setup ---------------------------------------------------------------------------


def test_during_setup_i_see_my_four_cards_and_nobody_elses(client, alice, bob, carol):
    match = shield_match(alice, bob, carol, deal=SETUP_DEAL)
    board = page(client, match, alice)
    assert 'data-testid="my-hand"' in board
    for card in ALICE_HAND:
        assert f'data-testid="choose-{card}"' in board
    for card in BOB_HAND + CAROL_HAND:
        assert not mentions(board, card), card
    assert board.count('data-testid="choosing-') == 3
    assert 'data-testid="confirm"' in board and "disabled" in buttons(board)["confirm"]


def test_my_pick_is_highlighted_and_stays_secret_until_everyone_confirms(client, alice, bob, carol):
    match = shield_match(alice, bob, carol, deal=SETUP_DEAL)
    play(match, bob, {"type": "choose_shield", "card": "KC"})
    mine = page(client, match, bob)
    assert re.search(
        r'data-testid="my-pick"[^>]*>\s*<span class="sh-card[^"]*" data-card="KC"', mine
    )
    assert 'data-testid="choose-KC"' not in mine  # no button to pick it again
    assert move_of(buttons(mine)["confirm"]) == {"type": "confirm"}
    assert 'data-testid="my-hp-preview">21<' in mine  # 10 + 5 + 6 would be my HP
    for user in (alice, carol, None):
        theirs = page(client, match, user)
        assert 'data-testid="choosing-1"' in theirs  # a pick alone is not news
        assert not any(mentions(theirs, card) for card in BOB_HAND), user

    play(match, bob, {"type": "confirm"})
    for user in (alice, carol, None):
        theirs = page(client, match, user)
        assert 'data-testid="ready-1"' in theirs
        assert not any(mentions(theirs, card) for card in BOB_HAND), user
    locked = page(client, match, bob)
    assert 'data-testid="confirm"' not in locked
    assert "Your layout is locked in" in locked
    assert "only you see this" in locked  # my own pick is in my log, nobody else's

    play(match, alice, {"type": "choose_shield", "card": "JH"})
    play(match, alice, {"type": "confirm"})
    play(match, carol, {"type": "choose_shield", "card": "10D"})
    play(match, carol, {"type": "confirm"})
    started = page(client, match, None)  # now every layout is face up
    assert 'data-testid="shield-1">13<' in started and 'data-testid="hp-1">21<' in started
    assert "Shields up!" in started


def test_a_spectator_sees_no_hand_during_the_setup(client, alice, bob, carol):
    match = shield_match(alice, bob, carol, deal=SETUP_DEAL)
    board = page(client, match, None)
    assert 'data-testid="my-hand"' not in board
    assert 'name="move"' not in board
    assert CARD_ATTR.findall(board) == []
    assert "choosing their shields" in board


# --- stored cards ---------------------------------------------------------------------------


def test_stored_cards_are_counted_and_never_named_for_anyone(client, alice, bob, carol):
    match = shield_match(alice, bob, carol, deal=PLAY_DEAL)
    play(match, alice, {"type": "store"})  # the King of spades, face down, unseen
    for user in (alice, bob, carol, None):
        board = page(client, match, user)
        for card in [*BOB_STORED, "KS"]:
            assert not mentions(board, card), (user, card)
        assert re.search(r'data-testid="stored-0" data-count="1"', board)
        assert re.search(r'data-testid="stored-1" data-count="2"', board)
    mine = page(client, match, alice)
    assert "not even you" in mine  # the pile says so to its holder
    play(match, alice, {"type": "give", "target": 2, "count": 1})
    for user in (alice, bob, carol, None):
        board = page(client, match, user)
        assert not mentions(board, "KS"), user
        assert re.search(r'data-testid="stored-2" data-count="1"', board)
        assert "alice gives 1 stored card to carol." in board


# --- the picker -----------------------------------------------------------------------------


def test_the_target_picker_is_my_legal_moves_grouped_by_action(client, alice, bob, carol):
    match = shield_match(alice, bob, carol, deal=PLAY_DEAL)
    found = buttons(page(client, match, alice))
    assert move_of(found["attack-1"]) == {"type": "attack", "target": 1}
    assert move_of(found["attack-2"]) == {"type": "attack", "target": 2}
    assert "attack-0" not in found  # never myself
    assert move_of(found["change-1"]) == {"type": "change_shield", "target": 1}
    assert move_of(found["change-2"]) == {"type": "change_shield", "target": 2}
    assert move_of(found["change-mine"]) == {"type": "change_shield", "target": 0}
    assert move_of(found["store"]) == {"type": "store"}
    game = registry.get("shield")
    state = game.new(3, b"\0" * 32, {"deal": PLAY_DEAL})
    moves = [b for b in found.values() if b.get("name") == "move"]  # not the chat's emotes
    posted = sorted(json.dumps(move_of(b), sort_keys=True) for b in moves)
    legal = sorted(json.dumps(move, sort_keys=True) for move in game.legal_moves(state, 0))
    assert posted == legal
    watcher = page(client, match, bob)
    assert 'data-testid="target-picker"' not in watcher and 'name="move"' not in watcher
    assert 'data-testid="turn-marker"' in watcher and 'data-testid="waiting"' in watcher


@pytest.mark.parametrize("htmx", [False, True])
def test_an_attack_button_posts_its_move_with_and_without_htmx(client, alice, bob, carol, htmx):
    match = shield_match(alice, bob, carol, deal=PLAY_DEAL)
    move = move_of(buttons(page(client, match, alice))["attack-1"])
    response = post_move(client, match, alice, move, htmx=htmx)
    if htmx:
        assert response.status_code == 200
        fragment = response.content.decode()
        assert fragment.lstrip().startswith('<section id="board"') and "<html" not in fragment
        assert "alice hits bob for 7" in fragment
    else:
        assert response.status_code == 302
        assert response["Location"] == match.get_absolute_url()
    logged = Move.objects.get(match=match, ply=0)
    assert (logged.seat, logged.payload) == (0, {"type": "attack", "target": 1})
    board = page(client, match, carol)
    assert 'data-testid="hp-1">21<' in board  # 28 - (13 - 6)
    assert "bob loses 2 stored cards" in board  # a hit discards them, face up
    assert 'data-testid="last-action"' in board and 'data-testid="damage-pop">−7<' in board


def test_the_boost_step_reveals_the_draw_and_offers_stored_cards(client, alice, bob, carol):
    deal = dict(
        PLAY_DEAL,
        stored=[["5H", "7C"], [], []],
        deck=_rest(ALICE_HAND, BOB_HAND, CAROL_HAND, ["5H", "7C"], top=("4D", "KS", "9S")),
    )
    match = shield_match(alice, bob, carol, deal=deal)
    play(match, alice, {"type": "attack", "target": 1})  # 4 against shield 6
    mine = page(client, match, alice)
    assert 'data-testid="attack-on-table"' in mine and 'data-card="4D"' in mine
    found = buttons(mine)
    assert move_of(found["boost-1"]) == {"type": "boost", "count": 1}
    assert move_of(found["boost-2"]) == {"type": "boost", "count": 2}
    assert move_of(found["resolve"]) == {"type": "resolve"}
    assert "Resolve: blocked" in mine
    for user in (bob, carol, None):
        board = page(client, match, user)
        assert 'data-card="4D"' in board  # everyone sees the draw
        assert not mentions(board, "5H") and not mentions(board, "7C")
    play(match, alice, {"type": "boost", "count": 1})  # the 7 of clubs, top of the pile
    board = page(client, match, bob)
    assert 'data-card="7C"' in board and "sh-reveal is-boost is-fresh" in board
    assert 'data-power="11"' in board and not mentions(board, "5H")
    response = post_move(client, match, alice, {"type": "resolve"}, htmx=True)
    assert response.status_code == 200
    given = buttons(response.content.decode())
    assert move_of(given["end-turn"]) == {"type": "end_turn"}
    assert move_of(given["give-1-1"]) == {"type": "give", "target": 1, "count": 1}
    assert move_of(given["give-2-1"]) == {"type": "give", "target": 2, "count": 1}


def test_with_boosts_committed_before_the_draw_each_attack_names_its_count(
    client, alice, bob, carol
):
    deal = dict(
        PLAY_DEAL,
        stored=[["5H", "7C"], [], []],
        deck=_rest(ALICE_HAND, BOB_HAND, CAROL_HAND, ["5H", "7C"], top=("4D", "KS", "9S")),
    )
    match = shield_match(alice, bob, carol, deal=deal, boost="before_draw")
    mine = page(client, match, alice)
    found = buttons(mine)
    for count in (0, 1, 2):
        move = {"type": "attack", "target": 1, "boost": count}
        assert move_of(found[f"attack-1-{count}"]) == move
    assert "+2 stored" in mine
    response = post_move(client, match, alice, move_of(found["attack-1-2"]), htmx=True)
    assert response.status_code == 200
    assert "alice hits bob for 10 (16 against shield 6)" in response.content.decode()


def test_a_player_who_is_out_is_greyed_with_their_place(client, alice, bob, carol):
    deal = dict(
        PLAY_DEAL,
        stored=[[], [], []],
        hp=[2, 5, 14],
        deck=_rest(ALICE_HAND, BOB_HAND, CAROL_HAND, top=("KS", "4D", "9S")),
    )
    match = shield_match(alice, bob, carol, deal=deal)
    play(match, alice, {"type": "attack", "target": 1})  # 13 - 6 = 7 > 5 HP
    for user in (alice, bob, carol, None):
        board = page(client, match, user)
        assert re.search(r'class="sh-seat[^"]*\bis-out\b[^"]*"[^>]*data-seat="1"', board)
        assert 'data-testid="out-1">Out · 3rd<' in board
        assert "bob is knocked out by alice (3rd place)." in board
    assert "You are out" in page(client, match, bob)
    found = buttons(page(client, match, carol))
    assert "attack-1" not in found and "change-1" not in found  # nobody targets bob now


# --- tables of every size ----------------------------------------------------------------------


def test_an_eight_seat_table_renders_for_every_seat_clockwise(client, make_user):
    users = [make_user(f"p{index}") for index in range(8)]
    match = shield_match(users[0], *users[1:])
    for index, user in enumerate(users):
        board = page(client, match, user)
        seats = [int(seat) for seat in re.findall(r'data-testid="seat-(\d)"', board)]
        assert seats == [(index + step) % 8 for step in range(8)]  # me first, then clockwise
        assert board.count('data-testid="choose-') == 4
        assert 'class="sh-table is-crowded' in board
    for index in range(8):
        play(match, users[index], {"type": "choose_shield", "card": _hand(match, index)[0]})
        play(match, users[index], {"type": "confirm"})
    board = page(client, match, users[3])
    assert len(re.findall(r'data-testid="(?:hp|shield)-\d"', board)) == 16
    assert board.count('data-testid="turn-marker"') == 1


def _hand(match, seat: int) -> list[str]:
    from games import selectors

    state = selectors.match_position(match=match).state
    return registry.get("shield").view(state, seat)["hand"]


def test_the_ring_puts_the_viewer_at_the_bottom_then_clockwise():
    game = registry.get("shield")
    state = game.new(4, b"\1" * 32, {})
    view = shield_board.decorate(game.view(state, 2))
    assert [player["seat"] for player in view["around"]] == [2, 3, 0, 1]
    bottom, left = view["around"][0], view["around"][1]
    assert (bottom["cx"], bottom["cy"]) == ("0.000", "1.000")  # 90°: the bottom
    assert float(left["cx"]) < 0  # the next seat clockwise sits to my left
    spectator = shield_board.decorate(game.view(state, None))
    assert [player["seat"] for player in spectator["around"]] == [0, 1, 2, 3]
    assert spectator["me"] is None and spectator["hand_cards"] == []


# --- the log and the rules ------------------------------------------------------------------------


def test_every_event_reads_as_a_sentence():
    """Random play (with forfeits) of 2 to 8 seats meets every event; each reads as a line."""
    game = registry.get("shield")
    names = [f"N{seat}" for seat in range(8)]
    seen: dict[str, str] = {}
    for seed in range(60):
        rng = random.Random(seed)
        seats = 2 + seed % 7
        state = game.new(seats, seed.to_bytes(32, "big"), {})
        for _ in range(400):
            to_act = game.to_act(state)
            if not to_act:
                break
            living = [s for s in range(seats) if not state.out or s not in state.out]
            if rng.random() < 0.01 and len(living) > 2:
                seat, move = rng.choice(living), {"type": "forfeit", "reason": "resign"}
            else:
                seat = rng.choice(to_act)
                move = rng.choice(game.legal_moves(state, seat))
            state, events = game.apply(state, seat, move)
            for event in events:
                seen[event.type] = shield_board.describe(event, names[:seats])
    expected = {
        "shield_chosen", "confirmed", "play_started", "shield_changed", "stored", "attack",
        "boost", "blocked", "hit", "stored_discarded", "gave", "next_turn", "eliminated",
        "last_standing", "reshuffled", "attack_dropped",
    }  # fmt: skip
    assert expected <= set(seen), expected - set(seen)
    for kind, line in seen.items():
        assert line.endswith((".", "!", ")")) and line[0].isupper(), (kind, line)
        assert line != kind.replace("_", " ").capitalize() + ".", kind  # not the fallback


def test_the_rules_page_explains_the_game_and_the_decisions(client, db):
    response = client.get(reverse("games:rules", args=["shield"]))
    assert response.status_code == 200
    text = response.content.decode()
    assert 'data-testid="shield-rules"' in text
    for phrase in (
        "lowest HP",
        "power − shield",
        "their owner included",
        "A 10 is worth 10",
        "Equal or less",
    ):
        assert phrase in text, phrase
    assert 'data-card="KS"' in text and 'data-card="10D"' in text
