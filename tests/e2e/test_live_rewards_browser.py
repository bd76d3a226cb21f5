"""A player finishes a match against the AI and sees what it earned arrive live: the
match-end panel (XP, level) and the header's level bar move, with no reload."""

from __future__ import annotations

import secrets

import pytest
from players import MATCH_URL, new_player, report_failure, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

FINISH_TIMEOUT = 60_000  # ms: auto-play plays the match out


def test_the_rewards_of_a_match_against_the_ai_arrive_without_a_reload(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    player = new_player(chromium_browser, live_server_url, f"live_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        page = player.page
        expect(player.testid("header-level-number")).to_have_text("1")
        expect(player.testid("header-xp-fill")).to_have_attribute("data-percent", "0")

        frames: list[str] = []  # what the match socket pushed

        def on_socket(socket) -> None:
            if "/ws/matches/" in socket.url:
                socket.on("framereceived", lambda frame: frames.append(str(frame)))

        page.on("websocket", on_socket)
        page.goto("/play/")
        page.locator("select[name=game]").select_option("dogblade")
        page.get_by_test_id("create-match").click()  # the AI is the default opponent
        page.wait_for_url(MATCH_URL)
        page.evaluate("window.__stayed = true")  # gone if the page reloads
        player.testid("autoplay").click()  # Dog Blade's moves are all forced: it plays out
        expect(player.board).to_have_attribute("data-status", "finished", timeout=FINISH_TIMEOUT)

        expect(player.testid("match-xp")).to_be_visible()
        expect(player.testid("match-xp-gain")).to_contain_text("XP")
        expect(player.testid("match-xp-summary")).to_contain_text("Level")
        fill = player.testid("header-xp-fill")
        expect(fill).not_to_have_attribute("data-percent", "0")
        assert player.stayed(), "the page reloaded"
        # The end also came as a push: the finished board with its panel and the header's bar.
        ends = [frame for frame in frames if 'data-status="finished"' in frame]
        assert ends and 'data-testid="match-xp"' in ends[-1]
        assert '<a id="header-level"' in ends[-1] and 'hx-swap-oob="true"' in ends[-1]
        assert not player.page_errors
    except BaseException:
        report_failure((player,), e2e_server, tmp_path_factory)
        raise
