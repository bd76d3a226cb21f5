"""Two players quick-pair in two real browsers and land in the same match (docs/lobby.md).

Alice clicks "Play anyone" first: nobody is waiting, so she sees the empty state with
"Play the AI while you wait" and her waiting page polls. Bob, signed up in his own
browser, sees her in the seek list and clicks "Play anyone" for the same game and clock:
he lands on the match at once, and Alice's waiting page moves there by itself.
"""

from __future__ import annotations

import re
import secrets

import pytest
from players import MATCH_URL, new_player, report_failure, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

SEEK_URL = re.compile(r"/play/quick/(\d+)/$")


def _play_anyone(player, game: str) -> None:
    page = player.page
    page.goto("/play/quick/")
    page.locator("select[name=game]").select_option(game)
    page.locator("select[name=time_control]").select_option("1d")
    page.get_by_test_id("play-anyone").click()


def test_two_players_quick_pair_into_one_match(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(chromium_browser, live_server_url, f"alice_{tag}")
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}")
    players = (alice, bob)
    try:
        for player in players:
            sign_up(player)
        _play_anyone(alice, "haymaker")
        alice.page.wait_for_url(SEEK_URL)
        expect(alice.testid("seek-waiting-empty")).to_be_visible()
        expect(alice.testid("play-ai-while-waiting")).to_be_visible()

        bob.page.goto("/play/quick/")
        expect(bob.testid("seek-list")).to_contain_text(alice.username)
        _play_anyone(bob, "haymaker")
        bob.page.wait_for_url(MATCH_URL)
        alice.page.wait_for_url(MATCH_URL, timeout=10_000)  # her poll moves her there
        assert alice.page.url == bob.page.url
        for player in players:
            expect(player.board).to_have_attribute("data-status", "active")
            expect(player.testid("table-kind")).to_have_text("Rated")
            assert not player.page_errors, player.page_errors
    except Exception:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
