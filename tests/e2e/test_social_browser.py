"""Friends and challenges in a real browser: follow a player, see them among my friends,
challenge them from their page, they accept; then they block me and the challenge button
refuses, saying why."""

from __future__ import annotations

import os
import secrets

import pytest
from players import MATCH_URL, accept_invitation, new_player, report_failure, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

START_TIMEOUT = 20_000  # ms: the host's waiting page turns into the board by push


def test_follow_challenge_accept_then_block_refuses_the_challenge(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(chromium_browser, live_server_url, f"ally_{tag}")
    bob = new_player(chromium_browser, live_server_url, f"bo_{tag}")
    keep = os.environ.get("SOCIAL_SHOTS")  # a folder: keep the pages' screenshots there

    def shot(player, name: str) -> None:
        if keep:
            player.page.screenshot(path=os.path.join(keep, f"{name}.png"), full_page=True)

    try:
        sign_up(alice)
        sign_up(bob)
        page = alice.page

        # Follow bob from his page; he is among my friends.
        page.goto(f"/players/{bob.username}/")
        alice.testid("follow").click()
        expect(page.locator(".flash.success")).to_contain_text(f"You follow {bob.username}")
        expect(alice.testid("unfollow")).to_be_visible()
        shot(alice, "player-page")
        page.goto("/friends/")
        expect(alice.testid("friend")).to_have_count(1)
        expect(alice.testid("friend")).to_contain_text(bob.username)
        shot(alice, "friends")

        # Challenge him from his page: the lobby's choices, he is invited.
        page.goto(f"/players/{bob.username}/")
        alice.testid("challenge").click()
        expect(page.locator("h1")).to_have_text(f"Challenge {bob.username}")
        page.locator("select[name=game]").select_option("dogblade")
        page.locator("select[name=time_control]").select_option("1d")
        shot(alice, "challenge")
        alice.testid("send-challenge").click()
        page.wait_for_url(MATCH_URL)
        match_id = int(MATCH_URL.search(page.url).group(1))
        expect(alice.board).to_have_attribute("data-status", "waiting")

        # He accepts from "My matches": the match starts on both pages.
        assert accept_invitation(bob, match_id) == str(match_id)
        for player in (alice, bob):
            expect(player.board).to_have_attribute("data-status", "active", timeout=START_TIMEOUT)

        # He blocks me; my challenge button now refuses, with the reason, and makes nothing.
        bob.page.goto(f"/players/{alice.username}/")
        bob.testid("block").click()
        expect(bob.page.locator(".flash.success")).to_contain_text(f"You blocked {alice.username}")
        expect(bob.testid("unblock")).to_be_visible()
        expect(bob.testid("challenge")).to_have_count(0)
        page.goto(f"/players/{bob.username}/")
        alice.testid("challenge").click()
        page.locator("select[name=game]").select_option("dogblade")
        alice.testid("send-challenge").click()
        expect(alice.testid("challenge-error")).to_have_text(
            f"{bob.username} is not taking matches from you."
        )
        assert "/challenge/" in page.url
        shot(alice, "challenge-refused")
        page.goto("/matches/")  # the accepted challenge is all there is: nothing new waits
        expect(page.locator(".match-link")).to_have_count(1)
        expect(page.locator(f".match-link[href$='/matches/{match_id}/']")).to_have_count(1)
        expect(alice.testid("waiting")).to_have_count(0)
        assert not alice.page_errors and not bob.page_errors
    except BaseException:
        report_failure((alice, bob), e2e_server, tmp_path_factory)
        raise
