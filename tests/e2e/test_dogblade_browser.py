"""Two people play Dog Blade in two real browsers, against a real server.

They sign up through the real forms, one invites the other from the lobby, the invitee
accepts from "My matches", and they attack in turn. Each move must reach the other page
over the websocket (polling is set to 600 s, so it cannot hide a broken socket) without a
reload. Then both switch on auto-play and the server plays the match out; both pages must
show the result and the revealed seed, still without a reload.
"""

from __future__ import annotations

import hashlib
import re
import secrets

import pytest
from players import (
    PUSH_TIMEOUT,
    Player,
    new_player,
    report_failure,
    start_duel,
)
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PLIES_BY_HAND = 14
FINISH_TIMEOUT = 60_000  # ms: auto-play plays the rest of the match


class DogbladePlayer(Player):
    def monster(self, seat: int) -> tuple[int, int]:
        card = self.testid(f"monster-{seat}")
        return int(card.get_attribute("data-atk")), int(card.get_attribute("data-hp"))

    def cards_left(self, seat: int) -> int:
        text = self.testid(f"cards-left-{seat}").inner_text()
        found = re.search(r"(\d+)\s+left", text)
        assert found, f"cannot read the cards left from {text!r}"
        return int(found.group(1))


def _assert_no_seed(*players: Player) -> None:
    for player in players:
        expect(player.testid("seed")).to_have_count(0)


def _play_one_ply_by_hand(
    actor: DogbladePlayer, watcher: DogbladePlayer, pages_seen: list[str]
) -> None:
    """The actor attacks; the watcher's page must show it live, with the right HP."""
    target = watcher.seat
    ply = actor.ply()
    expect(actor.banner).to_have_text("Your turn!")
    expect(watcher.banner).to_contain_text(f"Waiting for {actor.username}")
    atk, _ = watcher.monster(actor.seat)
    _, hp = watcher.monster(target)
    left_before = watcher.cards_left(target)

    # The page names its socket with the move (cardhall.js): the answer is its new board,
    # so the server pushes the same board to no page of the actor but this one's others.
    socket = actor.page.locator("#board-sync").get_attribute("data-socket")
    with actor.page.expect_request(lambda r: r.method == "POST" and "/move/" in r.url) as post:
        actor.testid("move-attack").click()
    assert socket and post.value.all_headers().get("x-board-socket") == socket

    expect(watcher.board).to_have_attribute("data-ply", str(ply + 1), timeout=PUSH_TIMEOUT)
    expect(actor.board).to_have_attribute("data-ply", str(ply + 1), timeout=PUSH_TIMEOUT)
    for player in (watcher, actor):
        assert player.stayed(), f"{player.username}'s page reloaded at ply {ply + 1}"
    hit = watcher.testid(f"monster-{target}")
    if hp > atk:
        expect(hit).to_have_attribute("data-hp", str(hp - atk), timeout=PUSH_TIMEOUT)
        assert watcher.cards_left(target) == left_before
    else:  # the monster fell: the next one enters at full health, unknown beforehand
        assert left_before > 1, "a deck ran out during the hand-played plies"
        expect(watcher.testid(f"cards-left-{target}")).to_contain_text(f"{left_before - 1} left")
        new_hp = actor.monster(target)[1]
        assert new_hp > 0
        expect(hit).to_have_attribute("data-hp", str(new_hp), timeout=PUSH_TIMEOUT)
    # Turns alternate: the side just attacked moves next, and both pages say so.
    expect(watcher.banner).to_have_text("Your turn!")
    expect(actor.banner).to_contain_text(f"Waiting for {watcher.username}")
    expect(actor.testid("move-attack")).to_have_count(0)
    _assert_no_seed(actor, watcher)
    pages_seen.extend([actor.page.content(), watcher.page.content()])


def _click_autoplay(player: Player) -> None:
    toggle = player.testid("autoplay")
    expect(toggle).to_have_attribute("aria-checked", "false")
    toggle.click()


def test_two_players_play_dogblade_live(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(
        chromium_browser, live_server_url, f"alice_{tag}", player_class=DogbladePlayer
    )
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}", player_class=DogbladePlayer)
    players = (alice, bob)
    try:
        # Alice's waiting page turns into the board by itself when Bob takes his seat.
        match_id = start_duel(alice, bob, "dogblade", timeout=PUSH_TIMEOUT)
        for player in players:
            expect(player.board).to_have_attribute("data-ply", "0")
            assert player.stayed()
        assert (alice.seat, bob.seat) == (0, 1)
        _assert_no_seed(alice, bob)

        expect(alice.banner).to_have_text(re.compile(r"Your turn!|Waiting for"))
        actor, watcher = (alice, bob) if "Your turn!" in alice.banner.inner_text() else (bob, alice)

        pages_seen: list[str] = []
        for _ in range(PLIES_BY_HAND):
            _play_one_ply_by_hand(actor, watcher, pages_seen)
            actor, watcher = watcher, actor
        assert alice.ply() == PLIES_BY_HAND

        # Auto-play: the first switch may play that seat's move at once; after the second
        # the server plays every remaining (forced) move and pushes each board.
        _click_autoplay(actor)
        expect(actor.testid("autoplay")).to_have_attribute("aria-checked", "true")
        expect(watcher.board).to_have_attribute(
            "data-ply", str(PLIES_BY_HAND + 1), timeout=PUSH_TIMEOUT
        )
        expect(watcher.banner).to_have_text("Your turn!")
        _click_autoplay(watcher)

        for player in players:
            expect(player.board).to_have_attribute(
                "data-status", "finished", timeout=FINISH_TIMEOUT
            )
        for player in players:
            assert player.stayed(), f"{player.username}'s page reloaded"
            expect(player.testid("move-attack")).to_have_count(0)
            expect(player.testid("seed")).to_be_visible()
        results = {player.username: player.banner.inner_text() for player in players}
        winners = [name for name, text in results.items() if "You won" in text]
        losers = [name for name, text in results.items() if "You lost" in text]
        assert len(winners) == 1 and len(losers) == 1, results
        assert int(alice.board.get_attribute("data-ply")) > PLIES_BY_HAND + 1

        # Provably fair: the revealed seed hashes to the commitment shown from the start,
        # and never appeared on either page while the match was running.
        seeds = {player.testid("seed").inner_text().strip() for player in players}
        assert len(seeds) == 1, seeds
        seed = seeds.pop()
        commitment = alice.testid("commitment").inner_text().split()[-1]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        assert not [html for html in pages_seen if seed in html]

        for player in players:
            assert not player.page_errors, f"{player.username}: {player.page_errors}"
            assert f"/ws/matches/{match_id}/" in " ".join(player.sockets), player.sockets
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
