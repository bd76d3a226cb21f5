"""'Play anyone' (quick pairing, the seek page) is one link of the site header (issue 18):
on a desktop it is in the header's row; on a phone (390x844) the header stays one compact
row and the link is in its menu. Both open the seek page. Screenshots of both headers go to
test-artifacts/header/ (git-ignored) for people to look at."""

from __future__ import annotations

import secrets
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.e2e.players import new_player, sign_up

PHONE = {"width": 390, "height": 844}
HEADER_SHARE = 0.09  # as tests/e2e/test_sound_header_browser.py: the phone header's share
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "header"
ROWS_JS = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const middles = Array.from(document.querySelectorAll('.site-header > *'))
    .map(el => el.getBoundingClientRect())
    .filter(box => box.width > 0 && box.height > 0)
    .map(box => box.top + box.height / 2);
  return {height: header.height, spread: Math.max(...middles) - Math.min(...middles)};
}"""

NAV_ROWS_JS = """() => new Set(Array.from(document.querySelectorAll('.site-nav a'))
  .map(a => Math.round(a.getBoundingClientRect().top))).size"""


def test_play_anyone_from_the_header_on_desktop_and_phone(
    chromium_browser: Browser, live_server_url: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    player = new_player(chromium_browser, live_server_url, f"any_{secrets.token_hex(3)}")
    page = player.page
    sign_up(player)

    page.goto("/")
    link = page.locator(".site-header").get_by_test_id("header-play-anyone")
    expect(link).to_be_visible()
    assert page.locator(".site-header [data-testid=header-play-anyone]").count() == 1
    page.locator(".site-header").screenshot(path=str(SHOTS / "desktop-header.png"))
    assert page.evaluate(ROWS_JS)["spread"] < 8  # the desktop header is one row too,
    assert page.evaluate(NAV_ROWS_JS) == 1  # its links included (1280 wide, logged in)
    # The account menu: the name opens it (Friends, profile, settings, log out); Escape
    # closes it, and gives focus back to the name.
    friends, account = player.testid("header-friends"), player.testid("account-toggle")
    expect(friends).to_be_hidden()
    account.click()
    expect(account).to_have_attribute("aria-expanded", "true")
    expect(friends).to_be_visible()
    page.keyboard.press("Escape")
    expect(friends).to_be_hidden()
    expect(account).to_be_focused()
    link.click()
    page.wait_for_url("**/play/quick/")
    expect(page.locator("h1")).to_be_visible()
    assert page.evaluate("location.pathname") == "/play/quick/"

    page.set_viewport_size(PHONE)
    page.goto("/")
    box = page.evaluate(ROWS_JS)
    assert box["height"] <= HEADER_SHARE * PHONE["height"], box
    assert box["spread"] < 8, box
    page.screenshot(path=str(SHOTS / "phone-390x844.png"))
    expect(link).to_be_hidden()  # behind the menu button, with the rest of the nav
    player.testid("menu-toggle").click()
    expect(link).to_be_visible()
    expect(player.testid("header-friends")).to_be_visible()  # a plain list in the menu
    page.screenshot(path=str(SHOTS / "phone-390x844-menu.png"))
    link.click()
    page.wait_for_url("**/play/quick/")
    assert page.evaluate("location.pathname") == "/play/quick/"
    assert player.page_errors == []
    player.context.close()
