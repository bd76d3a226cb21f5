"""A player finishes a Dog Blade match against the AI in a real browser, and sees what it
earned: the match-end XP panel, the header's level bar move, and a quest tick up.

The server's database is the shared e2e one; this module gives it three quest templates
that any finished Dog Blade match moves ("finish", "event attack sum damage", "win or
lose: finish in dogblade"), through `manage.py shell` with the server's own environment.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from players import MATCH_URL, new_player, report_failure, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

REPO_ROOT = Path(__file__).resolve().parents[2]
FINISH_TIMEOUT = 60_000  # ms: auto-play plays the match out
QUESTS = """
from progression.models import QuestTemplate
QuestTemplate.objects.update(is_active=False)
for name, condition, target in [
    ("E2E: play two", "finish", 2),
    ("E2E: strike", "event attack sum damage in dogblade", 10000),
    ("E2E: Dog Blade", "finish in dogblade", 3),
]:
    QuestTemplate.objects.update_or_create(
        name=name,
        defaults={"description": name, "condition": condition, "target": target,
                  "xp": 10, "is_active": True},
    )
"""


@pytest.fixture(scope="module")
def quests(e2e_server) -> None:
    """Three quest templates in the live server's database."""
    e2e_server.manage("shell", "-c", QUESTS)


def _quest_progress(page) -> int:
    page.goto("/progress/")
    cards = page.locator(".quest-card")
    expect(cards).to_have_count(3)
    return sum(int(cards.nth(i).get_attribute("data-progress")) for i in range(3))


def test_finishing_a_match_moves_the_xp_bar_and_a_quest(
    chromium_browser: Browser, e2e_server, live_server_url: str, quests, tmp_path_factory
) -> None:
    player = new_player(chromium_browser, live_server_url, f"prog_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        page = player.page
        expect(player.testid("header-level-number")).to_have_text("1")
        expect(player.testid("header-xp-fill")).to_have_attribute("data-percent", "0")
        assert _quest_progress(page) == 0

        page.goto("/play/")
        page.locator("select[name=game]").select_option("dogblade")
        page.get_by_test_id("create-match").click()  # the AI is the default opponent
        page.wait_for_url(MATCH_URL)
        player.testid("autoplay").click()  # Dog Blade's moves are all forced: it plays out
        expect(player.board).to_have_attribute("data-status", "finished", timeout=FINISH_TIMEOUT)
        page.reload()

        panel = player.testid("match-xp")
        expect(panel).to_be_visible()
        expect(player.testid("match-xp-gain")).to_contain_text("XP")
        expect(player.testid("match-xp-summary")).to_contain_text("Level")
        assert int(player.testid("header-xp-fill").get_attribute("data-percent")) > 0

        assert _quest_progress(page) > 0
        expect(page.locator(".quest-card", has_text="E2E: play two")).to_contain_text("1 / 2")
    except BaseException:
        report_failure((player,), e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()
