"""Two people fight one Haymaker exchange in two real browsers: attack, block, reversal.

They sign up through the real forms, one invites the other to Haymaker from the lobby, and
the invitee accepts. The deal is the server's own shuffle, so the test reads both pages and
chooses: an attack card the defender can answer with cards of exactly its strength (an
exact block is a reversal), or failing that a haymaker (every block of one is a reversal).
Cards are picked by clicking them; the buttons light up from the server's preview. Each
move must reach the other page over the websocket (polling is set to 600 s) without a
reload, and after the block both pages show the reversal with the roles switched.
"""

from __future__ import annotations

import itertools
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

VALUES = {"A": 1, **{str(value): value for value in range(2, 11)}}


class HaymakerPlayer(Player):
    def hand(self) -> list[str]:
        """My cards as my page shows them (a form of checkboxes only on my turn)."""
        return (
            self.testid("my-hand")
            .locator("[data-card]")
            .evaluate_all("cards => cards.map(card => card.dataset.card)")
        )

    def pick(self, cards: list[str]) -> None:
        for card in cards:
            self.page.locator(f"label.hm-pick:has(input[value='{card}'])").click()
            expect(self.page.locator(f"#hm-play input[value='{card}']")).to_be_checked()

    def role(self, seat: int):
        return self.testid(f"role-{seat}")


def value(card: str) -> int:
    return VALUES[card[:-1]]


def exact_block(hand: list[str], strength: int) -> list[str] | None:
    """The fewest cards of `hand` adding up to exactly `strength` (hands hold 10 cards)."""
    for size in range(1, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            if sum(map(value, cards)) == strength:
                return list(cards)
    return None


def choose_exchange(attacker: list[str], defender: list[str]) -> tuple[str, list[str], list[str]]:
    """(action, attack cards, block cards) that make a reversal."""
    for card in sorted(attacker, key=value, reverse=True):
        block = exact_block(defender, value(card))
        if block:
            return "attack", [card], block
    # A haymaker: any block of it is a reversal. Ten cards hold two of one suit.
    pairs = (
        list(pair) for pair in itertools.combinations(attacker, 2) if pair[0][-1] == pair[1][-1]
    )
    haymaker = min(pairs, key=lambda pair: sum(map(value, pair)))
    needed, block = sum(map(value, haymaker)), []
    for card in sorted(defender, key=value, reverse=True):
        if sum(map(value, block)) >= needed:
            break
        block.append(card)
    assert sum(map(value, block)) >= needed, (attacker, defender)
    return "haymaker", haymaker, block


def test_an_attack_block_reversal_exchange_between_two_browsers(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    alice = new_player(
        chromium_browser, live_server_url, f"alice_{tag}", player_class=HaymakerPlayer
    )
    bob = new_player(chromium_browser, live_server_url, f"bob_{tag}", player_class=HaymakerPlayer)
    players = (alice, bob)
    try:
        start_duel(alice, bob, "haymaker", timeout=PUSH_TIMEOUT)
        ring = alice.testid("haymaker-ring")
        first = int(ring.get_attribute("data-attacker"))
        attacker, defender = (alice, bob) if alice.seat == first else (bob, alice)
        expect(attacker.role(attacker.seat)).to_have_attribute("data-role", "attacker")
        expect(defender.role(defender.seat)).to_have_attribute("data-role", "defender")

        action, attack, block = choose_exchange(attacker.hand(), defender.hand())
        strength = sum(map(value, attack))

        # The attacker clicks cards; the server's preview lights the button up.
        attacker.pick(attack)
        button = attacker.testid(f"action-{action}")
        expect(button).to_be_enabled()
        expect(attacker.testid("selected-sum")).to_contain_text(f"= {strength}")
        button.click()

        table = defender.testid("table-attack")
        expect(table).to_have_attribute("data-strength", str(strength), timeout=PUSH_TIMEOUT)
        expect(attacker.testid("table-attack")).to_have_attribute("data-strength", str(strength))
        if action == "haymaker":
            expect(defender.testid("haymaker-badge")).to_be_visible()
        for player in players:
            assert player.stayed(), f"{player.username}'s page reloaded after the attack"

        # The defender picks a block of exactly that strength (or any, against a haymaker).
        expect(defender.testid("action-block")).to_be_disabled()
        defender.pick(block)
        expect(defender.testid("block-total")).to_have_text(str(sum(map(value, block))))
        expect(defender.testid("block-verdict")).to_contain_text("REVERSAL")
        expect(defender.testid("action-block")).to_be_enabled()
        defender.testid("action-block").click()

        for player in players:
            expect(player.testid("last-turn")).to_have_attribute(
                "data-result", "reversal", timeout=PUSH_TIMEOUT
            )
            expect(player.role(defender.seat)).to_have_attribute("data-role", "attacker")
            expect(player.role(attacker.seat)).to_have_attribute("data-role", "defender")
            expect(player.testid("result-stamp")).to_have_text("Reversal!")
            expect(player.testid(f"discard-{defender.seat}")).to_have_attribute(
                "data-count", str(len(attack) + len(block))
            )
            assert player.stayed(), f"{player.username}'s page reloaded after the block"
        expect(defender.page.get_by_test_id("turn-banner")).to_have_text("Your turn!")
        expect(defender.testid("action-attack")).to_be_visible()
        expect(attacker.testid("action-block")).to_be_disabled()  # now the defender, waiting
        for player in players:
            assert not player.page_errors, f"{player.username}: {player.page_errors}"
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
