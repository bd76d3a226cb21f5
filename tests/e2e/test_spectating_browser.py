"""A spectator watches a public Grimhand match update live, and never sees a hidden card.

Two people play in their own browsers; a third, not signed in, finds the match under
"Playing now" on the open-tables page and watches. Each move must reach the spectator's
page over the websocket (polling is 600 s in the e2e server) without a reload.
"""

from __future__ import annotations

import re
import secrets

import pytest
from players import (
    PUSH_TIMEOUT,
    Player,
    accept_invitation,
    create_match,
    new_player,
    report_failure,
    sign_up,
)
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PLIES = 6


def _actor(players: tuple[Player, Player]) -> Player:
    for player in players:
        if player.banner.inner_text().strip() == "Your turn!":
            return player
    raise AssertionError("nobody's turn")


def _faces_in_hands(player: Player) -> list[str]:
    return player.page.evaluate(
        """() => [...document.querySelectorAll("[data-testid^='hand-'] [data-card]")]
            .map((card) => card.dataset.card)
            .filter((name) => /^(attack|defense)-\\d+$/.test(name))"""
    )


def test_a_spectator_watches_a_public_match_live(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(chromium_browser, live_server_url, f"alice_{tag}")
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}")
    carol = new_player(chromium_browser, live_server_url, f"watcher_{tag}")
    everyone = (alice, bob, carol)
    try:
        sign_up(alice)
        sign_up(bob)
        match_id = create_match(alice, bob, "grimhand")
        accept_invitation(bob, match_id)
        alice.page.goto(f"/matches/{match_id}/")
        for player in (alice, bob):
            expect(player.board).to_have_attribute("data-status", "active")
            expect(player.testid("clocks")).to_be_visible()

        carol.page.goto("/tables/")
        watch = carol.testid("live-matches").locator(f"a[href$='/matches/{match_id}/']")
        expect(watch).to_have_count(1)
        watch.click()
        carol.page.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
        carol.page.evaluate("window.__stayed = true")
        expect(carol.banner).to_contain_text("Waiting for")
        expect(carol.page.locator("[data-testid^='move-']")).to_have_count(0)

        players = (alice, bob)
        for _ in range(PLIES):
            actor = _actor(players)
            ply = actor.ply()
            actor.testid("draw-attack").click()
            expect(carol.board).to_have_attribute("data-ply", str(ply + 1), timeout=PUSH_TIMEOUT)
            for player in players:
                expect(player.board).to_have_attribute("data-ply", str(ply + 1))
            if carol.board.get_attribute("data-status") != "active":
                break
        assert carol.stayed(), "the spectator's page reloaded"
        # A spectator sees card backs only: no face of either hand, no seed while it runs.
        expect(carol.page.locator("[data-testid^='move-']")).to_have_count(0)
        if carol.board.get_attribute("data-status") == "active":
            expect(carol.testid("seed")).to_have_count(0)
        expect(carol.page.locator("button[data-testid^='draw-']")).to_have_count(0)
        assert _faces_in_hands(carol) == [], "the spectator saw cards in hand"
        # The same check finds the players' own cards, so it can fail: whenever a card went
        # into a hand (a Death card on the first draw ends the match with both hands empty).
        if any(player.page.get_by_text("into hand").count() for player in players):
            assert _faces_in_hands(alice) or _faces_in_hands(bob)
        backs = carol.page.locator("[data-testid^='hand-']")
        assert backs.count() > 0
        assert not carol.page_errors, carol.page_errors
        assert f"/ws/matches/{match_id}/" in " ".join(carol.sockets), carol.sockets
    except BaseException:
        report_failure(everyone, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in everyone:
            player.context.close()
