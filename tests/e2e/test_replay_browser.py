"""A player replays a finished match: the arrow keys step through it in place, the viewer
can switch to everything revealed, and each step matches the position's move number."""

from __future__ import annotations

import re
import secrets

import pytest
from players import MATCH_URL, new_player, report_failure, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

FINISH_TIMEOUT = 60_000  # ms


def test_a_finished_match_steps_back_and_forth_with_the_keyboard(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    player = new_player(chromium_browser, live_server_url, f"replay_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        page = player.page
        page.goto("/play/")
        page.locator("select[name=game]").select_option("dogblade")
        page.get_by_test_id("create-match").click()  # the AI is the default opponent
        page.wait_for_url(MATCH_URL)
        match_id = MATCH_URL.search(page.url).group(1)
        player.testid("autoplay").click()  # every Dog Blade move is forced: it plays out
        expect(player.board).to_have_attribute("data-status", "finished", timeout=FINISH_TIMEOUT)
        plies = int(player.board.get_attribute("data-ply"))
        assert plies > 2

        page.goto(f"/matches/{match_id}/history/")
        replay = player.testid("replay")
        expect(replay).to_have_attribute("data-ply", str(plies))
        page.evaluate("window.__stayed = true")

        page.keyboard.press("ArrowLeft")
        expect(replay).to_have_attribute("data-ply", str(plies - 1))
        expect(player.testid("replay-ply")).to_contain_text(f"Move {plies - 1}")
        assert re.search(rf"ply={plies - 1}\b", page.url), page.url
        page.keyboard.press("Home")
        expect(replay).to_have_attribute("data-ply", "0")
        expect(player.testid("replay-ply")).to_contain_text("The deal")
        page.keyboard.press("ArrowRight")
        expect(replay).to_have_attribute("data-ply", "1")
        assert page.evaluate("window.__stayed === true"), "the page reloaded instead of swapping"

        player.testid("viewer-revealed").click()
        expect(player.testid("replay-viewer")).to_have_text("Every card face up.")
        expect(replay).to_have_attribute("data-ply", "1")
        page.keyboard.press("End")
        expect(replay).to_have_attribute("data-ply", str(plies))
        expect(player.testid("replay-banner")).to_contain_text("won")
        assert not player.page_errors, player.page_errors
    except BaseException:
        report_failure((player,), e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()
