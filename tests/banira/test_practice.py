"""Practice runs: starting one, the deck copied into the match, the board and its play form,
bad input refused with the engine's message, and the deck order kept off the page."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils.html import escape

from banira import selectors
from banira.models import CardDefinition, DeckList, PracticeRun
from banira.services import run_start_practice
from games import selectors as match_selectors
from games import services as match_services
from games.engine.banira.default_deck import DEFAULT_DECK
from games.models import Match, Move

pytestmark = pytest.mark.django_db

# A fixed deal of the default deck (its order, top first): the first four are the hand.
#   sa5 Sapphire Tundra: rainbow sun, 5/-1/4 (its stamina would leave 0 - 1 after paying 1)
#   aq2 Aquamarine Current: gold sun, 2/5/1
#   di1 Diamond Prism: gold sun, 2/4/2
#   aq1 Aquamarine Tide: rainbow sun, 3/6/-1
HAND = ["sa5", "aq2", "di1", "aq1"]
DEAL = HAND + [card["id"] for card in DEFAULT_DECK if card["id"] not in HAND]


@pytest.fixture
def run(alice) -> Match:
    """A run on a fixed deal (a practice run's shape, with the deal fixed for the test)."""
    return match_services.match_create(
        creator=alice, game_slug="banira", others=[], options={"deck": DEFAULT_DECK, "deal": DEAL}
    )


def _post(client, match: Match, data: dict, *, htmx: bool = False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    match.refresh_from_db()
    body = {"ply": str(match.ply), **data}
    return client.post(reverse("games:move", args=[match.pk]), body, **headers)


def _move(client, match: Match, move: str):
    response = _post(client, match, {"move": move})
    assert response.status_code == 302, response.content.decode()[:500]


def _view(match: Match) -> dict:
    match.refresh_from_db()
    seat = match.seats.get(index=0)
    return match_selectors.match_board(match=match, seat=seat)["view"]


# --- starting a run ---------------------------------------------------------------------------


def test_a_practice_run_copies_the_active_deck_list_into_the_match(alice) -> None:
    match = run_start_practice(user=alice)
    classic = DeckList.objects.get(slug="classic")
    assert match.game == "banira" and match.status == Match.Status.ACTIVE
    assert match.options == {"deck": classic.to_engine_deck()}
    practice = PracticeRun.objects.get(match=match)
    assert practice.user == alice and practice.deck_list == classic
    assert practice.deck_name == "Classic"


def test_practice_runs_get_fresh_seeds(alice) -> None:
    first, second = run_start_practice(user=alice), run_start_practice(user=alice)
    assert bytes(first.seed) != bytes(second.seed)


def test_editing_the_list_later_leaves_the_runs_replay_unchanged(client, alice) -> None:
    client.force_login(alice)
    match = run_start_practice(user=alice)
    _move(client, match, '{"type": "boost"}')
    before = _view(match)
    for card in CardDefinition.objects.all():  # rewrite every card of the list
        card.points, card.stamina, card.name = -3, -3, "Changed"
        card.save()
    cache.clear()  # force a replay from the log
    after = _view(match)
    assert after == before
    assert all(card["name"] != "Changed" for card in after["hand"])


def test_the_page_starts_a_run_with_a_post(client, alice) -> None:
    client.force_login(alice)
    response = client.post(reverse("banira:practice"), {"deck_list": "classic"})
    match = Match.objects.get(game="banira")
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    page = client.get(reverse("banira:home"))
    assert f'data-testid="run-{match.pk}"' in page.content.decode()
    assert "Practice" in page.content.decode()


def test_the_page_lists_active_lists_and_scores(client, alice) -> None:
    DeckList.objects.create(name="Hidden", slug="hidden", is_active=False)
    client.force_login(alice)
    page = client.get(reverse("banira:home")).content.decode()
    assert "start-practice-classic" in page and "Hidden" not in page
    match = run_start_practice(user=alice)
    match_services.match_resign(match_id=match.pk, user=alice)
    rows = selectors.runs_for_user(user=alice)
    assert rows[0].is_practice and rows[0].score == 0 and rows[0].reason == "resign"


def test_without_an_active_list_no_run_starts(client, alice) -> None:
    DeckList.objects.update(is_active=False)
    client.force_login(alice)
    response = client.post(reverse("banira:practice"), follow=True)
    assert "No deck list is open for practice" in response.content.decode()
    assert not Match.objects.exists()


def test_the_lobby_sends_banira_to_its_page(client, alice) -> None:
    client.force_login(alice)
    response = client.post(reverse("games:lobby"), {"game": "banira"})
    assert response.status_code == 302 and response.url == reverse("banira:home")
    assert not Match.objects.exists()


# --- the board --------------------------------------------------------------------------------


def test_the_board_shows_the_cost_of_every_slot_and_play(client, alice, run) -> None:
    client.force_login(alice)
    page = client.get(run.get_absolute_url()).content.decode()
    for slot in ("aquamarine", "ruby", "diamond", "sun", "moon", "flex"):
        assert f'data-testid="unlock-{slot}"' in page  # locked, with its Unlock button
        assert re.search(rf'data-testid="cost-{slot}"[^>]*>1<', page)  # unlock cost: 1 point
    _move(client, run, '{"type": "unlock", "slot": "flex"}')
    page = client.get(run.get_absolute_url()).content.decode()
    assert re.search(r'data-testid="cost-flex"[^>]*>1<', page)  # an empty slot: 1 stamina
    costs = _view(run)["costs"]
    for card_id in HAND:  # every held card has its play onto Flex priced on the page
        cell = costs[card_id]["flex"]
        assert cell["cost"] == 1
        state = "is-legal" if cell["legal"] else "is-short"
        position = HAND.index(card_id) + 1
        assert re.search(rf'class="bn-for {state}" data-for="{position}"', page)
    assert 'data-testid="points"' in page and 'data-testid="stamina"' in page


@pytest.mark.parametrize("htmx", [False, True])
def test_a_card_and_a_slot_make_a_play(client, alice, run, htmx: bool) -> None:
    client.force_login(alice)
    _move(client, run, '{"type": "unlock", "slot": "flex"}')
    response = _post(client, run, {"card": "aq2", "slot": "flex"}, htmx=htmx)
    run.refresh_from_db()
    assert run.moves.last().payload == {"type": "play", "card": "aq2", "slot": "flex"}
    if htmx:
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="board"' in html and "<html" not in html
        assert re.search(r'data-testid="score" data-value="58"', html)
        assert "fx-placed" in html
    else:
        assert response.status_code == 302
    view = _view(run)
    assert view["score"] == 58 and view["stamina"] == 5 and view["points"] == 2


def test_discard_takes_the_selected_card(client, alice, run) -> None:
    client.force_login(alice)
    response = _post(client, run, {"card": "di1", "discard": "1"})
    assert response.status_code == 302
    assert run.moves.last().payload == {"type": "discard", "card": "di1"}


def _refused(client, run: Match, data: dict, *, htmx: bool, reason: str | None = None) -> str:
    moves = Move.objects.count()
    run.refresh_from_db()
    ply = run.ply
    response = _post(client, run, data, htmx=htmx)
    assert 400 <= response.status_code < 500
    html = response.content.decode()
    assert 'data-testid="board-error"' in html
    if reason:
        assert escape(reason) in html
    run.refresh_from_db()
    assert Move.objects.count() == moves and run.ply == ply
    return html


@pytest.mark.parametrize("htmx", [False, True])
def test_playing_onto_a_locked_slot_is_refused(client, alice, run, htmx: bool) -> None:
    client.force_login(alice)
    reason = _view(run)["costs"]["aq2"]["aquamarine"]["reason"]
    assert "lock" in reason.lower()
    _refused(client, run, {"card": "aq2", "slot": "aquamarine"}, htmx=htmx, reason=reason)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_wrong_element_is_refused(client, alice, run, htmx: bool) -> None:
    client.force_login(alice)
    _move(client, run, '{"type": "unlock", "slot": "ruby"}')
    reason = _view(run)["costs"]["aq2"]["ruby"]["reason"]
    assert reason
    _refused(client, run, {"card": "aq2", "slot": "ruby"}, htmx=htmx, reason=reason)


@pytest.mark.parametrize("htmx", [False, True])
def test_an_illegal_stack_is_refused(client, alice, run, htmx: bool) -> None:
    client.force_login(alice)
    _move(client, run, '{"type": "unlock", "slot": "flex"}')
    assert _post(client, run, {"card": "aq2", "slot": "flex"}).status_code == 302
    reason = _view(run)["costs"]["di1"]["flex"]["reason"]  # gold onto gold
    assert reason
    _refused(client, run, {"card": "di1", "slot": "flex"}, htmx=htmx, reason=reason)


@pytest.mark.parametrize("htmx", [False, True])
def test_an_unaffordable_play_is_refused(client, alice, run, htmx: bool) -> None:
    client.force_login(alice)
    _move(client, run, '{"type": "unlock", "slot": "flex"}')
    cell = _view(run)["costs"]["sa5"]["flex"]  # pay 1 stamina, then the card's -1
    assert cell["cost"] == 1 and not cell["legal"]
    _refused(client, run, {"card": "sa5", "slot": "flex"}, htmx=htmx, reason=cell["reason"])


def test_a_slot_without_a_card_is_refused(client, alice, run) -> None:
    client.force_login(alice)
    html = _refused(client, run, {"slot": "flex"}, htmx=True)
    assert "Pick a card from your hand first" in html


def test_a_card_not_in_the_hand_is_refused(client, alice, run) -> None:
    client.force_login(alice)
    _move(client, run, '{"type": "unlock", "slot": "flex"}')
    _refused(client, run, {"card": DEAL[10], "slot": "flex"}, htmx=True)


# --- hidden information ------------------------------------------------------------------------


def test_the_deck_order_never_appears_on_the_page(client, alice) -> None:
    """Sentinel ids: the undrawn cards' ids (and so their draw order) are not on the page."""
    deck = [
        dict(card, id=f"zq{index:02d}x", name=f"Sentinel {index:02d}")
        for index, card in enumerate(DEFAULT_DECK)
    ]
    order = [card["id"] for card in deck]
    order = order[::-1][:25] + order[:25]  # a draw order unlike the deck list's order
    match = match_services.match_create(
        creator=alice, game_slug="banira", others=[], options={"deck": deck, "deal": order}
    )
    client.force_login(alice)
    _move(client, match, '{"type": "unlock", "slot": "flex"}')
    page = client.get(match.get_absolute_url()).content.decode()
    hand = order[:4]
    undrawn = order[4:]
    for card_id in hand:
        assert card_id in page
    for card_id in undrawn:
        assert card_id not in page, f"{card_id} is face down but appears on the page"
    names = [name for name in re.findall(r"Sentinel \d\d", page)]
    drawn_order = [f"Sentinel {int(card_id[2:4]):02d}" for card_id in undrawn]
    assert not set(drawn_order) & set(names)


def test_a_run_given_up_says_so_and_scores_zero(client, run, alice) -> None:
    match_services.match_resign(match_id=run.pk, user=alice)
    client.force_login(alice)
    html = client.get(run.get_absolute_url()).content.decode()
    assert "You gave up the run: score 0." in html
    assert "Practice run" in html
    assert "A draw." not in html
