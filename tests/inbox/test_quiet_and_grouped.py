"""Fewer, grouped notifications (issue 18): no "your turn" against the AI while the player
is on the board, nothing about a solo run, and the notification centre's rows grouped per
match, filtered per kind and paged.

Real database; the match socket on the real channel layer (Redis when REDIS_URL is set)
is what tells the server the player is on the board.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from channels.db import database_sync_to_async

from games import services as games
from games.engine import registry
from games.models import Match
from inbox import centre, services
from inbox.models import Notification
from tests.inbox.conftest import LONG_DEAL
from tests.realtime.test_match_socket import connected, socket_for

Kind = Notification.Kind


def _beat_later(match_id, minutes=2):
    """The beat's scan, `minutes` after the current turn began."""
    match = Match.objects.get(pk=match_id)
    started = max(seat.turn_started for seat in match.seats.all() if seat.turn_started)
    return services.reminders_send_due(now=started + dt.timedelta(minutes=minutes))


def _shown_turns(user):
    return Notification.objects.filter(user=user, kind=Kind.TURN, in_app=True).count()


# --- against the AI, on the board --------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_your_turn_row_against_the_ai_while_on_the_board(alice):
    match = await database_sync_to_async(games.match_create)(
        creator=alice, game_slug="dogblade", opponent="ai", options=LONG_DEAL
    )
    page = await connected(socket_for(alice, match.pk))  # the board is open

    async def move_then_beat():
        current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        assert current.status == Match.Status.ACTIVE
        await database_sync_to_async(games.move_submit)(
            match_id=match.pk, user=alice, ply=current.ply, move={"type": "attack"}
        )
        return await database_sync_to_async(_beat_later)(match.pk)

    await database_sync_to_async(_beat_later)(match.pk)  # recorded only: she sees it
    for _ in range(2):  # alice moves, the AI answers at once: her turn again, on the board
        await move_then_beat()
    assert await database_sync_to_async(_shown_turns)(alice) == 0

    await page.disconnect()  # she leaves the board: her next turn is in the centre, once
    assert (await move_then_beat())["turn"] == 1
    assert await database_sync_to_async(_shown_turns)(alice) == 1
    assert not await database_sync_to_async(
        Notification.objects.filter(user=alice, by_email=True).exists
    )()


# --- solo runs ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_solo_run_sends_nothing_at_all(alice):
    run = games.match_create(creator=alice, game_slug="banira", others=[])
    game = registry.get("banira")
    from games import selectors

    for _ in range(6):
        run.refresh_from_db()
        state = selectors.match_position(match=run).state
        move = game.legal_moves(state, 0)[0]
        games.move_submit(match_id=run.pk, user=alice, ply=run.ply, move=move)
        assert _beat_later(run.pk) == {"turn": 0, "late": 0}
    games.match_resign(match_id=run.pk, user=alice)  # the run ends: no result notice either
    assert Match.objects.get(pk=run.pk).is_finished
    assert not Notification.objects.filter(user=alice).exists()


# --- the grouped, paged list --------------------------------------------------------------------


def _notify(user, key, kind=Kind.TURN, match=None, text=None):
    return services.notification_send(
        user=user, kind=kind, key=key, text=text or f"{kind} {key}", match=match, url="/x/"
    )


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def _rows(html):
    return re.findall(r'<li class="inbox-item[^"]*" data-testid="notification".*?</li>', html, re.S)


@pytest.mark.django_db
def test_one_row_per_match_with_its_latest_state_and_a_count(signed_in, alice, bob, make_match):
    first, second = make_match(alice, bob, LONG_DEAL), make_match(alice, bob, LONG_DEAL)
    Notification.objects.all().delete()
    _notify(alice, "alone", Kind.INVITE, text="A notice without a match")
    for n in range(3):
        _notify(alice, f"t{n}", match=first, text=f"Your turn {n} in the first")
    _notify(alice, "late", Kind.LATE, match=first, text="Running late in the first")
    _notify(alice, "fin", Kind.FINISHED, match=second, text="The second is over: you won")
    _notify(alice, "t9", match=first, text="Your turn, newest, in the first")

    html = signed_in.get("/notifications/").content.decode()
    rows = _rows(html)
    assert len(rows) == 3  # the first match, the second, the lone notice: newest first
    assert "Your turn, newest, in the first" in rows[0] and f'data-match="{first.pk}"' in rows[0]
    assert "5 notices, 5 unread" in rows[0] and "4 × Your turn, 1 × Running late" in rows[0]
    assert "Your turn 0" not in html  # the older notices of a match fold into its row
    assert "The second is over" in rows[1] and "notices" not in rows[1]
    assert "A notice without a match" in rows[2]
    # The bell counts unread rows, not notices: 3 here, for 7 unread notices.
    bell = signed_in.get("/").content.decode()
    assert 'data-count="3"' in bell and 'aria-label="Notifications, 3 unread"' in bell

    # Reading the match's row reads all of its notices, and nothing else.
    newest = Notification.objects.get(key="t9")
    assert signed_in.post(f"/notifications/{newest.pk}/read/").status_code == 302
    assert not Notification.objects.filter(match=first, read_at__isnull=True).exists()
    assert Notification.objects.filter(read_at__isnull=True).count() == 2

    # Per kind: only the groups holding that kind, counted by it alone.
    late_only = _rows(signed_in.get("/notifications/?kind=late").content.decode())
    assert len(late_only) == 1 and "Running late in the first" in late_only[0]
    assert "notices" not in late_only[0]
    empty = signed_in.get("/notifications/?kind=pause").content.decode()
    assert _rows(empty) == [] and "No “Pause requested” notifications" in empty


@pytest.mark.django_db
def test_pages_of_groups_with_older_and_newer_links(signed_in, alice):
    for n in range(centre.PAGE_SIZE + 5):
        _notify(alice, f"n{n}", text=f"Notice number {n}.")

    first = signed_in.get("/notifications/").content.decode()
    assert len(_rows(first)) == centre.PAGE_SIZE
    assert f"Notice number {centre.PAGE_SIZE + 4}." in first and "Notice number 4." not in first
    assert 'data-testid="inbox-older"' in first and 'href="/notifications/?page=2"' in first
    assert 'data-testid="inbox-newer"' not in first

    second = signed_in.get("/notifications/?page=2").content.decode()
    assert len(_rows(second)) == 5 and "Notice number 0." in second
    assert 'data-testid="inbox-newer"' in second and 'data-testid="inbox-older"' not in second

    beyond = signed_in.get("/notifications/?page=3").content.decode()
    assert _rows(beyond) == [] and "No older notifications" in beyond

    # Marking read from page 2 comes back to page 2.
    last = Notification.objects.get(key="n0")
    response = signed_in.post(f"/notifications/{last.pk}/read/?page=2")
    assert response.status_code == 302 and response["Location"] == "/notifications/?page=2"


@pytest.mark.django_db
def test_the_page_takes_three_queries_for_its_groups(
    signed_in, alice, django_assert_max_num_queries
):
    for n in range(30):
        _notify(alice, f"n{n}")
    with django_assert_max_num_queries(4):
        page = centre.page_for(user=alice)
    assert len(page.groups) == centre.PAGE_SIZE and page.has_older and page.total_unread == 30


@pytest.mark.django_db
def test_an_empty_inbox_says_so_readably(signed_in):
    html = signed_in.get("/notifications/").content.decode()
    assert 'data-testid="inbox-empty"' in html and "all caught up" in html
    assert 'data-testid="read-all"' not in html and 'data-testid="inbox-pages"' not in html


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["page=abc", "page=0", "page=99999999", "kind=bogus", "page=²"])
def test_a_bad_page_or_kind_says_why(signed_in, alice, query):
    _notify(alice, "a")
    response = signed_in.get(f"/notifications/?{query}")
    assert response.status_code == 400
    assert ("page" in response.content.decode().lower()) or (
        "kind" in response.content.decode().lower()
    )
