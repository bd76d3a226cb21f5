"""Three people play Shield in three real browsers, against a real server.

They sign up through the real forms; the first opens a three-seat table from the lobby,
naming the other two; both accept from "My matches". All three pick and confirm a shield
at the same time (in a scrambled order), then take turns attacking through the target
picker. Every change must reach the other pages over the websocket (polling is set to
600 s, so it cannot hide a broken socket) without a reload (the window.__stayed marker).
"""

from __future__ import annotations

import re
import secrets

import pytest
from players import (
    MATCH_URL,
    PUSH_TIMEOUT,
    Player,
    new_player,
    report_failure,
    seat_guests,
    sign_up,
)
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

TURNS = 4


class ShieldPlayer(Player):
    @property
    def table(self):
        return self.page.get_by_test_id("shield-table")


def _open_table(host: ShieldPlayer, second: ShieldPlayer, third: ShieldPlayer) -> int:
    """The lobby's table of three: me, a named player in seat 2, another in seat 3."""
    page = host.page
    page.goto("/play/")
    page.locator("select[name=game]").select_option("shield")
    page.locator("select[name=players]").select_option("3")
    page.get_by_label("A player I name").check()
    page.locator("input[name=username]").fill(second.username)
    page.locator("select[name=seat_2]").select_option("player")
    page.locator("input[name=seat_2_username]").fill(third.username)
    page.get_by_test_id("create-match").click()
    page.wait_for_url(MATCH_URL)
    return int(MATCH_URL.search(page.url).group(1))


def _my_seat(player: Player) -> int:
    seat = player.page.locator(".sh-seat.is-viewer")
    expect(seat).to_have_count(1)
    return int(seat.get_attribute("data-seat"))


def _pick_shield(player: Player) -> str:
    """Pick the first of my four cards as my shield; my page highlights it."""
    choose = player.page.locator("[data-testid^='choose-']").first
    card = choose.get_attribute("data-testid").removeprefix("choose-")
    choose.click()
    expect(player.testid("my-pick").locator(".sh-card")).to_have_attribute("data-card", card)
    return card


def _all_stayed(players: tuple[Player, ...], when: str) -> None:
    for player in players:
        assert player.stayed(), f"{player.username}'s page reloaded {when}"


def _play_attack(actor: Player, players: tuple[Player, ...]) -> None:
    """The actor attacks through the target picker; the other pages show it in their log."""
    watchers = [player for player in players if player is not actor]
    ply = actor.ply()
    expect(actor.page.get_by_test_id("turn-banner")).to_have_text("Your turn!")
    for watcher in watchers:
        expect(watcher.testid("target-picker")).to_have_count(0)
    button = actor.testid("target-picker").locator("[data-testid^='attack-']").first
    target = int(button.get_attribute("data-testid").split("-")[1])
    target_name = next(player.username for player in players if player.seat == target)
    button.click()
    line = re.compile(rf"^\s*{ply + 1}\s+{actor.username} attacks {target_name} and draws the ")
    for player in (*watchers, actor):
        newest = player.page.locator(".log-list li").first
        expect(newest).to_have_text(line, timeout=PUSH_TIMEOUT)
        expect(player.testid("last-action")).to_have_attribute("data-action", "attack")
    _all_stayed(players, f"after the attack at ply {ply + 1}")


def test_three_players_set_up_and_attack_live(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    ana = new_player(chromium_browser, live_server_url, f"ana_{tag}", player_class=ShieldPlayer)
    bo = new_player(chromium_browser, live_server_url, f"bo_{tag}", player_class=ShieldPlayer)
    cy = new_player(chromium_browser, live_server_url, f"cy_{tag}", player_class=ShieldPlayer)
    players = (ana, bo, cy)
    try:
        for player in players:
            sign_up(player)
        match_id = _open_table(ana, bo, cy)
        seat_guests(ana, [bo, cy], match_id)

        # Everyone's page turns into the setup by itself once the last seat is taken.
        for player in players:
            expect(player.board).to_have_attribute("data-status", "active", timeout=PUSH_TIMEOUT)
            expect(player.table).to_have_attribute("data-step", "setup")
            expect(player.page.locator("[data-testid^='choose-']")).to_have_count(4)
            player.seat = _my_seat(player)
        assert [player.seat for player in players] == [0, 1, 2]
        _all_stayed(players, "when the table filled")

        # All at once, in any order: picks first, then confirmations in another order.
        picks = {player.username: _pick_shield(player) for player in (cy, ana, bo)}
        for player in players:  # nobody sees another player's pick or hand
            others = [card for name, card in picks.items() if name != player.username]
            for card in others:
                expect(player.page.locator(f".sh-table [data-card='{card}']")).to_have_count(0)
        for confirmer in (bo, cy):
            confirmer.testid("confirm").click()
            expect(confirmer.testid("confirm")).to_have_count(0)
            for player in players:
                expect(player.testid(f"ready-{confirmer.seat}")).to_be_visible(timeout=PUSH_TIMEOUT)
        expect(ana.testid(f"choosing-{ana.seat}")).to_be_visible()
        ana.testid("confirm").click()
        for player in players:
            expect(player.table).to_have_attribute("data-step", "action", timeout=PUSH_TIMEOUT)
            for other in players:  # every shield is face up now, mine as I picked it
                shield = player.testid(f"seat-{other.seat}").locator(".sh-shield-slot [data-card]")
                expect(shield).to_have_attribute("data-card", picks[other.username])
            expect(player.page.locator("[data-testid='turn-marker']")).to_have_count(1)
        _all_stayed(players, "during the setup")

        for _ in range(TURNS):
            if ana.board.get_attribute("data-status") == "finished":
                break  # two knockouts in a row: rare, and the match is over
            turn = int(ana.table.get_attribute("data-turn"))
            actor = next(player for player in players if player.seat == turn)
            _play_attack(actor, players)
            for player in players:
                expect(player.table).to_have_attribute("data-ply", str(actor.ply()))

        for player in players:
            assert not player.page_errors, f"{player.username}: {player.page_errors}"
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
