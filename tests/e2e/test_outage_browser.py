"""A request the server cannot answer is said so on the page, never dropped in silence.

htmx swaps nothing for a 5xx answer (base.html's responseHandling), so without a word the
board would just stop moving. Two people play Dog Blade in real browsers; the browser is
made to get the server's own 503 page (config.overload.UNREACHABLE_PAGE) for the board's
poll and for a move, then no answer at all: each time a readable notice appears at the top
of the page, and the board stays as it was. Once the server answers again, the notice
goes with the next request and the move goes through.
"""

from __future__ import annotations

import re
import secrets

import pytest
from players import PUSH_TIMEOUT, new_player, report_failure, start_duel
from playwright.sync_api import Browser, Route, expect

from config.overload import RETRY_AFTER_SECONDS, UNREACHABLE_PAGE

pytestmark = pytest.mark.e2e

BOARD = re.compile(r"/matches/\d+/board/")
MOVE = re.compile(r"/matches/\d+/move/")


def unavailable(route: Route) -> None:
    route.fulfill(
        status=503,
        body=UNREACHABLE_PAGE,
        headers={
            "Content-Type": "text/html; charset=utf-8",
            "Retry-After": str(RETRY_AFTER_SECONDS),
        },
    )


def poll(player) -> None:  # noqa: ANN001
    """What the board does every MATCH_POLL_SECONDS and when the tab is shown again."""
    player.page.evaluate("document.dispatchEvent(new CustomEvent('page-visible'))")


def test_a_server_that_cannot_answer_is_said_so_and_the_board_catches_up(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(chromium_browser, live_server_url, f"alice_{tag}")
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}")
    players = (alice, bob)
    try:
        start_duel(alice, bob, "dogblade", timeout=PUSH_TIMEOUT)
        expect(alice.banner).to_have_text(re.compile(r"Your turn!|Waiting for"))
        actor, watcher = (alice, bob) if "Your turn!" in alice.banner.inner_text() else (bob, alice)
        notice = actor.testid("server-trouble")
        expect(notice).to_have_count(0)

        # The board's poll gets a 503: the page says so, the board stays.
        actor.page.route(BOARD, unavailable)
        poll(actor)
        expect(notice).to_contain_text("Cardhall cannot answer right now")
        expect(notice).to_contain_text("The board will catch up by itself")
        expect(notice).to_have_attribute("role", "alert")
        expect(actor.board).to_have_attribute("data-ply", "0")

        # A move gets a 503: not carried out, and the player is told to try again.
        actor.page.route(MOVE, unavailable)
        actor.testid("move-attack").click()
        expect(notice).to_contain_text("That was not carried out")
        expect(actor.board).to_have_attribute("data-ply", "0")
        expect(watcher.board).to_have_attribute("data-ply", "0")

        # No answer at all (the network, or the server gone).
        actor.page.unroute(BOARD)
        actor.page.route(BOARD, lambda route: route.abort())
        poll(actor)
        expect(notice).to_contain_text("Cardhall cannot be reached")

        # The server answers again: the notice goes with the next request, and the move
        # goes through and reaches the other page.
        actor.page.unroute(BOARD)
        actor.page.unroute(MOVE)
        poll(actor)
        expect(notice).to_have_count(0)
        actor.testid("move-attack").click()
        expect(actor.board).to_have_attribute("data-ply", "1", timeout=PUSH_TIMEOUT)
        expect(watcher.board).to_have_attribute("data-ply", "1", timeout=PUSH_TIMEOUT)
        for player in players:
            assert player.page_errors == [], player.page_errors
    except Exception:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
