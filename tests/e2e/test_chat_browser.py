"""Two players chat during a Dog Blade match, in two real browsers against a real server:
a line typed on one page appears on the other over the match socket (no reload), an emote
too, with the sender's name and the time; a move in between leaves the chat as it is; an
empty message is refused with a sentence; the chat switch turns it off and back on."""

from __future__ import annotations

import re
import secrets

import pytest
from players import new_player, report_failure, start_duel
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PUSH_TIMEOUT = 5_000  # ms: a line must show on the other page this fast


def test_two_players_chat_during_a_match(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(chromium_browser, live_server_url, f"alice_{tag}")
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}")
    players = (alice, bob)
    try:
        start_duel(alice, bob, "dogblade", timeout=PUSH_TIMEOUT)
        for player in players:
            expect(player.testid("chat")).to_have_attribute("data-room", "seats")
            expect(player.testid("chat-line")).to_have_count(0)

        alice.testid("chat-input").fill("Good luck, have fun!")
        alice.testid("chat-send").click()
        line = bob.testid("chat-line").filter(has_text="Good luck, have fun!")
        expect(line).to_have_count(1, timeout=PUSH_TIMEOUT)
        expect(line.locator(".chat-sender")).to_have_text(alice.username)
        expect(line.locator("time")).to_have_text(re.compile(r"^\d\d:\d\d$"))
        expect(alice.testid("chat-line")).to_have_count(1)  # her own, once
        expect(alice.testid("chat-input")).to_have_value("")

        # A move swaps the boards; the chat stays as it is.
        actor = alice if "Your turn!" in alice.banner.inner_text() else bob
        ply = actor.ply()
        actor.testid("move-attack").click()
        for player in players:
            expect(player.board).to_have_attribute("data-ply", str(ply + 1), timeout=PUSH_TIMEOUT)
            expect(player.testid("chat-line")).to_have_count(1)

        bob.testid("emote-gg").click()
        expect(alice.testid("chat-line").filter(has_text="Good game!")).to_have_count(
            1, timeout=PUSH_TIMEOUT
        )
        expect(bob.testid("chat-line")).to_have_count(2)

        bob.testid("chat-send").click()  # nothing typed
        expect(bob.testid("chat-error")).to_contain_text("empty")
        expect(bob.testid("chat-line")).to_have_count(2)

        bob.testid("chat-switch").click()
        expect(bob.testid("chat-off")).to_be_visible()
        expect(bob.testid("chat-line")).to_have_count(0)
        bob.testid("chat-switch").click()
        expect(bob.testid("chat-line")).to_have_count(2)

        for player in players:
            assert player.stayed(), f"{player.username}'s page reloaded"
            assert not player.page_errors, player.page_errors
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
