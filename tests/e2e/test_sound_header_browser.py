"""Issue 18 on a phone (390×844): the header is one compact row that never covers the board;
the sound's volume and mute are the player's own across a reload; no AudioContext exists
before the first click (browsers' autoplay rule), and a move's engine events play their cues.
"""

from __future__ import annotations

import secrets

from playwright.sync_api import Browser, expect

from tests.e2e.players import MATCH_URL, new_player, report_failure, sign_up

PHONE = {"width": 390, "height": 844}
HEADER_SHARE = 0.09  # the header's height at most this share of the viewport's (was ~21%)


SAVED_JS = "() => document.querySelector('.sound-control').dataset.saved === '1'"


def _header_box(page) -> dict:
    return page.evaluate(
        """() => {
          const header = document.querySelector('.site-header').getBoundingClientRect();
          const tops = Array.from(document.querySelectorAll('.site-header > *'))
            .map(el => el.getBoundingClientRect())
            .filter(box => box.width > 0 && box.height > 0)
            .map(box => box.top + box.height / 2);
          return {height: header.height, middles: tops};
        }"""
    )


def test_the_phone_header_is_one_row_and_the_sound_is_the_players(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    player = new_player(chromium_browser, live_server_url, f"snd_{secrets.token_hex(3)}")
    page = player.page
    try:
        page.set_viewport_size(PHONE)
        sign_up(player)

        # One row: every visible child of the header sits on the same line, and the whole
        # header is a small share of the screen. The rest is behind the menu button.
        box = _header_box(page)
        assert box["height"] <= HEADER_SHARE * PHONE["height"], box
        assert max(box["middles"]) - min(box["middles"]) < 8, box
        nav = page.locator(".site-nav")
        expect(nav).to_be_hidden()
        player.testid("menu-toggle").click()
        expect(nav.get_by_role("link", name="Leaderboards")).to_be_visible()
        page.keyboard.press("Escape")
        expect(nav).to_be_hidden()

        # No AudioContext before the first interaction, one after it.
        page.goto("/play/")
        page.wait_for_timeout(300)
        assert page.evaluate("window.cardhallSound.contextCreated") is False
        page.locator("h1").first.click()
        assert page.evaluate("window.cardhallSound.contextCreated") is True

        # The volume and the mute are kept on the player's profile: a reload shows them.
        player.testid("sound-toggle").click()
        player.testid("sound-volume").fill("25")
        expect(player.testid("sound-control")).to_have_attribute("data-saved", "1")
        player.testid("sound-mute").click()
        expect(player.testid("sound-mute")).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(SAVED_JS)
        page.wait_for_timeout(300)  # the mute's own POST
        page.reload()
        assert page.evaluate("window.cardhallSound.contextCreated") is False
        player.testid("sound-toggle").click()
        expect(player.testid("sound-volume")).to_have_value("25")
        expect(player.testid("sound-mute")).to_have_attribute("aria-pressed", "true")
        player.testid("sound-mute").click()  # unmuted again, for the cues below
        expect(player.testid("sound-mute")).to_have_attribute("aria-pressed", "false")

        # A board against the AI: the header scrolls away and never covers it.
        page.locator("select[name=game]").select_option("dogblade")
        page.get_by_test_id("create-match").click()  # the AI is the default opponent
        page.wait_for_url(MATCH_URL)
        # The deal decides who opens: when it is the AI, its move may reach this page as a
        # push (with its cues). Once it is our turn nothing else comes: open the page anew.
        expect(player.testid("turn-banner")).to_contain_text("Your turn")
        page.reload()
        page.evaluate("document.getElementById('board').scrollIntoView()")
        page.evaluate("window.scrollBy(0, 40)")
        covered = page.evaluate(
            """() => {
              const header = document.querySelector('.site-header').getBoundingClientRect();
              const hit = document.elementFromPoint(PHONE_W / 2, 5);
              return {headerBottom: header.bottom, inBoard: !!hit.closest('#board')};
            }""".replace("PHONE_W", str(PHONE["width"]))
        )
        assert covered["headerBottom"] <= 0 and covered["inBoard"], covered

        # A move plays its engine events' cues (the same events as the animations): an
        # attack is a metal clash. Nothing played for the board the page loaded with.
        assert page.evaluate("window.cardhallSound.played.length") == 0
        ply = player.ply()
        player.testid("move-attack").click()
        page.wait_for_function(
            "(ply) => Number(document.getElementById('board').dataset.ply) > ply", arg=ply
        )
        page.wait_for_function("() => window.cardhallSound.played.includes('clash')")
        assert not player.page_errors
    except BaseException:
        report_failure((player,), e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()


def test_a_visitors_volume_stays_in_the_browser(
    chromium_browser: Browser, e2e_server, live_server_url: str
) -> None:
    player = new_player(chromium_browser, live_server_url, "visitor")
    page = player.page
    try:
        page.goto("/")
        player.testid("sound-toggle").click()
        player.testid("sound-volume").fill("40")
        page.reload()
        player.testid("sound-toggle").click()
        expect(player.testid("sound-volume")).to_have_value("40")
        assert page.evaluate("JSON.parse(localStorage.getItem('cardhall.sound')).volume") == 40
        assert not player.page_errors
    finally:
        player.context.close()
