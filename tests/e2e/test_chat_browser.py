"""Two players chat during a Dog Blade match, in two real browsers against a real server:
a line typed on one page appears on the other over the match socket (no reload), an emote
too, with the sender's name and the time; a move in between leaves the chat as it is; an
empty message is refused with a sentence; a line a moderator removes leaves both pages at
once (with a Redis channel layer, which a moderator's process shares with the server); the
chat switch turns it off and back on."""

from __future__ import annotations

import os
import re
import secrets

import pytest
from players import PUSH_TIMEOUT, new_player, report_failure, start_duel
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e


# A moderator's removal, made in a process of its own against the server's database, as the
# admin's "Remove the selected messages" action does it (community.services.message_remove).
REMOVE = """
from django.contrib.auth import get_user_model
from community import services
from community.models import ChatMessage
mod, _ = get_user_model().objects.get_or_create(username="mod_{tag}", defaults={{"is_staff": True}})
services.message_remove(message=ChatMessage.objects.get(text="{text}"), by=mod)
"""


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

        if os.environ.get("REDIS_URL"):  # the in-memory channel layer is the server's own
            text = "Good luck, have fun!"
            e2e_server.manage("shell", "-c", REMOVE.format(tag=tag, text=text))
            for player in players:
                expect(player.testid("chat-line").filter(has_text=text)).to_have_count(
                    0, timeout=PUSH_TIMEOUT
                )
            expect(bob.testid("chat-line")).to_have_count(1)  # the emote stays
            bob.testid("chat-switch").click()
            expect(bob.testid("chat-off")).to_be_visible()
            bob.testid("chat-switch").click()  # a redrawn panel does not bring it back
            expect(bob.testid("chat-line")).to_have_count(1)
            expected_lines = 1
        else:
            expected_lines = 2

        bob.testid("chat-send").click()  # nothing typed
        expect(bob.testid("chat-error")).to_contain_text("empty")
        expect(bob.testid("chat-line")).to_have_count(expected_lines)

        bob.testid("chat-switch").click()
        expect(bob.testid("chat-off")).to_be_visible()
        expect(bob.testid("chat-line")).to_have_count(0)
        bob.testid("chat-switch").click()
        expect(bob.testid("chat-line")).to_have_count(expected_lines)

        for player in players:
            assert player.stayed(), f"{player.username}'s page reloaded"
            assert not player.page_errors, player.page_errors
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
