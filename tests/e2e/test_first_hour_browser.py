"""The first hour of a new player, on a phone (390x844), in a real browser (issue 18).

One persona, one session, on a server with Web Push on (conftest.py's `push_server`: VAPID
keys, our own push service on localhost): they sign up and turn push on for their phone
from the notification settings, finish every tutorial (each game's first match and
Grimhand Arcana's first boss, following the coach's taps), then play one match of each game
against the AI to its end (Dog Blade by auto-play, its moves all being forced; the others
with simple taps; BaniraCards, played alone, as a practice run given up after a few plays).
Each end shows what it earned without a reload (the match-end XP panel, the header's level
bar), every board links to its rules, and no page logs a console error.

Nothing of that hour is pushed (the AI and solo runs never are). Then a friend, in a
browser of their own, invites the persona to Dog Blade: the push reaches the push service,
signed with the server's VAPID key, and decrypts (http_ece, with the keys the phone
subscribed with) to the match, the game and "<friend> invites you to Dog Blade". Handed to
the phone's service worker as its push service would hand it, it shows that notification,
and the persona follows it to the match and accepts.

Headless Chromium cannot subscribe for real (it needs Google's push service), so the
phone's `PushManager.subscribe` is players.py's `PUSH_STUB`, returning a subscription whose
keys the test made; tests/e2e/test_app_browser.py shows the real one's failure message.

Screenshots of every board, at phone and desktop sizes, go to test-artifacts/first-hour/
(git-ignored) for people to look at.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from players import (
    MATCH_URL,
    Player,
    allow_push,
    create_match,
    deliver_push,
    new_player,
    report_failure,
    sign_up,
    turn_push_on,
)
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from games.boards import tutorial_for
from tests.push_service import Browser as PushKeys
from tests.push_service import vapid_claims

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "first-hour"
MOVE_TIMEOUT = 20_000  # ms: the move's answer and the AI's reply
PUSH_WAIT = 10.0  # seconds for the friend's invitation to reach our push service
TUTORIALS = ("banira", "dogblade", "grimhand", "grimhand-arcana", "haymaker", "shield")
AI_GAMES = ("dogblade", "grimhand", "haymaker", "shield")
# No finite animation still running (the last move's; a coach's pulse loops forever).
SETTLED_JS = """() => !document.getAnimations().some(
  (a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Infinity)"""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"
# What sticks out past the right edge (for the failure message): the deepest such elements.
WIDE_JS = """() => {
  const wide = (el) => el.getBoundingClientRect().right > window.innerWidth + 1;
  return [...document.querySelectorAll("body *")]
    .filter((el) => wide(el) && ![...el.children].some(wide))
    .slice(0, 8).map((el) => el.outerHTML.slice(0, 160));
}"""
# Resolves once the board is at `ply` or past it, waiting on me, or over.
AT_PLY_JS = """(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) < ply) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}"""
READY_JS = """(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) <= ply) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}"""
# A new player's policy (next_tap): TAPS taps end every match it was tried on; in Shield,
# an opponent's shield of HIGH_SHIELD or more is changed before any attack.
TAPS = 120
HIGH_SHIELD = 10
# The enabled "change their shield" button of an opponent whose shield is `high` or more.
HIGH_SHIELD_JS = """(high) => {
  for (const button of document.querySelectorAll("#board button[data-testid^='change-']")) {
    const seat = button.dataset.testid.slice("change-".length);
    const shield = document.querySelector(`#board [data-testid='shield-${seat}']`);
    if (seat !== "mine" && !button.disabled && Number(shield?.textContent) >= high) {
      return button.dataset.testid;
    }
  }
  return null;
}"""
# The board's submit button whose posted move is `move` (compared as JSON, not as text).
MOVE_BUTTON_JS = """(move) => {
  const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
  function sorted(value) {
    if (Array.isArray(value)) return value.map(sorted);
    if (value && typeof value === "object") {
      return Object.keys(value).sort().reduce((o, k) => (o[k] = sorted(value[k]), o), {});
    }
    return value;
  }
  for (const button of document.querySelectorAll("#board button[name=move]")) {
    try { if (same(JSON.parse(button.value), move)) return button.dataset.testid || ""; }
    catch (error) { /* not a JSON move */ }
  }
  return null;
}"""


class Newcomer(Player):
    console_errors: list[str]

    def at(self, ply: int) -> None:
        self.page.wait_for_function(AT_PLY_JS, arg=ply, timeout=MOVE_TIMEOUT)

    def is_over(self) -> bool:
        return self.board.get_attribute("data-status") == "finished"

    def tap(self, testid: str) -> None:
        """Tap a control and wait until the board has moved on and waits on me (or ended)."""
        ply = self.ply()
        self.testid(testid).click()  # the board may be swapped meanwhile: looked up again
        self.page.wait_for_function(READY_JS, arg=ply, timeout=MOVE_TIMEOUT)

    def pick(self, selector: str) -> None:
        """Tap a hand card (its label: the input itself is visually hidden)."""
        self.page.locator(selector).first.click()

    def play(self, game: str, move: dict[str, Any]) -> None:
        """Make `move` (the coach's) with the taps a player would make."""
        kind = move["type"]
        if game == "haymaker" and kind != "pass":
            for card in move["cards"]:
                self.pick(f"label.hm-pick:has(input[name=cards][value='{card}'])")
                expect(self.page.locator(f"input[name=cards][value='{card}']")).to_be_checked()
            expect(self.testid(f"action-{kind}")).to_be_enabled()
            return self.tap(f"action-{kind}")
        if game == "haymaker":
            return self.tap("action-pass")
        if game == "grimhand" and kind == "play":
            return self.tap(f"play-{move['card']}")
        if game == "banira" and kind in ("play", "discard"):
            self.pick(f"[data-testid=hand-card][data-card='{move['card']}']")
            return self.tap(f"slot-{move['slot']}" if kind == "play" else "discard-button")
        testid = self.page.evaluate(MOVE_BUTTON_JS, move)
        assert testid, f"no button on the board makes {json.dumps(move)}"
        self.tap(testid)


def shoot(player: Newcomer, name: str) -> None:
    """The board at desktop and phone sizes (the phone last: the persona's own)."""
    page = player.page
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_function(SETTLED_JS)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    if page.evaluate(OVERFLOW_JS) > 0:
        raise AssertionError(f"{name} scrolls sideways on a phone: {page.evaluate(WIDE_JS)}")


def rules_link(player: Newcomer, game: str) -> None:
    """The board links to its game's rules, and the page is there."""
    link = player.testid("rules-link")
    for attempt in range(3):
        try:
            link.scroll_into_view_if_needed()
            break
        except PlaywrightError as error:
            # A push (an AI seat's move, which follows the page's own answer) can swap the
            # board, the link with it, while it is being scrolled to: find it again.
            if "not attached" not in str(error) or attempt == 2:
                raise
    expect(link).to_be_visible()
    assert link.get_attribute("href") == f"/games/{game}/rules/"
    assert player.page.request.get(link.get_attribute("href")).ok


def rewards_arrived(player: Newcomer) -> None:
    """The end came live: the XP panel is on the board and the page never reloaded."""
    expect(player.testid("match-xp")).to_be_visible()
    expect(player.testid("match-xp-gain")).to_contain_text("XP")
    assert player.stayed(), "the page reloaded"


def finish_tutorial(player: Newcomer, key: str) -> None:
    tutorial = tutorial_for(key)
    assert tutorial is not None, key
    page = player.page
    page.goto(f"/games/{tutorial.game}/tutorial/" if key == tutorial.game else "/")
    if key != tutorial.game:  # a further tutorial starts from its game's rules page
        page.goto(f"/games/{tutorial.game}/rules/")
        page.get_by_test_id(f"tutorial-{key}").click()
    else:
        page.get_by_test_id("tutorial-begin").click()
    page.wait_for_url(MATCH_URL)
    page.evaluate("window.__stayed = true")
    expect(player.testid("coach")).to_be_visible()
    rules_link(player, tutorial.game)
    shoot(player, f"tutorial-{key}-start")
    for ply, step in sorted(tutorial.steps.items()):
        if step.move is None:
            continue
        player.at(ply)
        if player.is_over():
            break
        expect(player.testid("coach")).to_contain_text(step.text[:40])
        player.play(tutorial.game, step.move)
    # The script is over: won (the tutorials scripted to the win), or the coach lets go.
    if not player.is_over():
        expect(player.testid("coach")).to_be_visible()
        expect(player.testid("board-error")).to_have_count(0)
    assert player.stayed(), "the page reloaded during the tutorial"


def start_ai_match(player: Newcomer, game: str) -> None:
    page = player.page
    page.goto(f"/play/?game={game}")
    page.locator("select[name=game]").select_option(game)
    against_ai = page.locator("input[name=opponent][value=ai]")
    if against_ai.is_visible():
        against_ai.check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(MATCH_URL)
    page.evaluate("window.__stayed = true")
    expect(player.board).to_have_attribute("data-status", "active")
    # Should the AI open, its first move follows the new page (the table's answer goes out
    # first): the board waits on me once that push has been swapped in.
    page.wait_for_function(READY_JS, arg=-1, timeout=MOVE_TIMEOUT)
    rules_link(player, game)


def next_tap(player: Newcomer, game: str) -> None:
    """One simple, legal step of a new player's game."""
    page = player.page
    if game == "grimhand":
        if player.testid("move-attack").count():
            return player.tap("move-attack")
        return player.tap("draw-attack" if player.testid("draw-attack").count() else "move-pass")
    if game == "haymaker":
        if player.testid("action-take_hit").count():
            return player.tap("action-take_hit")
        player.pick("label.hm-pick:has(input[name=cards])")
        expect(player.testid("action-attack")).to_be_enabled()
        return player.tap("action-attack")
    if game == "shield":
        # An opponent's high shield blocks nearly every draw: change it before attacking.
        # Only attacking never ends against Normal, which stores every turn behind a King
        # (1 dealt match in 20 went past TAPS taps, some past 3,000); changing shields of
        # HIGH_SHIELD or more ended each of 3,000 dealt matches in at most 69 taps.
        high = page.evaluate(HIGH_SHIELD_JS, HIGH_SHIELD)
        if high:
            return player.tap(high)
        for prefix in ("confirm", "resolve", "end-turn", "attack-"):
            found = player.board.locator(f"button[data-testid^='{prefix}']:not([disabled])")
            if found.count():
                return player.tap(found.first.get_attribute("data-testid"))
        choose = player.board.locator("button[data-testid^='choose-']")
        choose.last.click()
        return expect(player.testid("confirm")).to_be_enabled()
    raise AssertionError(f"no policy for {game} on {page.url}")


def play_to_the_end(player: Newcomer, game: str) -> None:
    start_ai_match(player, game)
    if game == "dogblade":
        player.testid("autoplay").click()  # every Dog Blade move is forced
    else:
        for _step in range(TAPS):
            player.page.wait_for_function(READY_JS, arg=-1, timeout=MOVE_TIMEOUT)
            if player.is_over():
                break
            next_tap(player, game)
    expect(player.board).to_have_attribute("data-status", "finished", timeout=60_000)
    rewards_arrived(player)
    shoot(player, f"{game}-vs-ai-end")


def a_practice_run(player: Newcomer) -> None:
    """BaniraCards is played alone: a practice run, a few plays, then given up (its end)."""
    page = player.page
    page.goto("/banira/")
    page.get_by_test_id("start-practice-classic").click()
    page.wait_for_url(MATCH_URL)
    page.evaluate("window.__stayed = true")
    rules_link(player, "banira")
    player.tap("unlock-flex")
    for _play in range(3):
        cards = player.testid("hand-card")
        fits = [cards.nth(i).get_attribute("data-legal-slots") or "" for i in range(cards.count())]
        legal = [i for i, slots in enumerate(fits) if slots.split()]
        if not legal:
            break
        player.pick(f"[data-testid=hand-card] >> nth={legal[0]}")
        player.tap(f"slot-{fits[legal[0]].split()[0]}")
    page.once("dialog", lambda dialog: dialog.accept())  # "Give up this run?"
    player.testid("resign").click()
    expect(player.board).to_have_attribute("data-status", "finished")
    rewards_arrived(player)
    shoot(player, "banira-practice-end")


def push_on_the_phone(player: Newcomer, push_server) -> None:
    """Just signed up, the persona turns push on for their phone from the settings page."""
    turn_push_on(player)
    assert player.page.evaluate("window.__pushKey") == push_server.public_key
    player.page.reload()
    expect(player.testid("push-status")).to_have_text("Push is on for this device.")
    expect(player.page.locator("input[name=push]")).to_be_checked()  # "Push to my devices"
    shoot(player, "push-settings")


def a_friend_invites(player: Newcomer, friend: Player, push_server, keys: PushKeys) -> None:
    """A friend invites the persona to Dog Blade: the push arrives, encrypted for the phone;
    its service worker shows it, and the persona follows it to the match and accepts."""
    server, service, public_key = push_server
    assert service.received == [], "the hour against the AI pushed something"
    sign_up(friend)
    match_id = create_match(friend, player, "dogblade")
    assert service.arrived.wait(PUSH_WAIT), "no push reached the push service"
    [request] = service.received
    assert request.path == "/push/first-hour-phone"
    payload = keys.decrypt(request.body)
    text = f"{friend.username} invites you to Dog Blade"
    assert payload == {"match": match_id, "game": "Dog Blade", "text": text}
    assert vapid_claims(request, public_key=public_key)["aud"] == service.url

    shown = deliver_push(player, server.url, payload)
    assert shown == [["Dog Blade", text, f"match-{match_id}", f"/matches/{match_id}/"]]
    player.page.goto(shown[0][3])  # where a tap on the notification leads
    player.testid("accept").click()
    player.page.wait_for_url(MATCH_URL)
    expect(player.board).to_have_attribute("data-status", "active")
    rules_link(player, "dogblade")


def test_the_first_hour_of_a_new_player_on_a_phone(
    chromium_browser: Browser, push_server, tmp_path_factory
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = push_server.server.url
    keys = PushKeys(push_server.service.endpoint("first-hour-phone"))
    player = new_player(chromium_browser, url, f"new_{secrets.token_hex(3)}", player_class=Newcomer)
    allow_push(player, url, keys.subscription())
    player.console_errors = []
    player.page.on(
        "console",
        lambda message: message.type == "error" and player.console_errors.append(message.text),
    )
    player.page.set_viewport_size(PHONE)
    friend = new_player(chromium_browser, url, f"friend_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        push_on_the_phone(player, push_server)
        for key in TUTORIALS:
            finish_tutorial(player, key)
        level_before = player.testid("header-level-number").inner_text()
        for game in AI_GAMES:
            play_to_the_end(player, game)
        a_practice_run(player)
        assert player.testid("header-level-number").inner_text() >= level_before
        a_friend_invites(player, friend, push_server, keys)
        assert not player.page_errors, player.page_errors
        assert not player.console_errors, player.console_errors
        assert not friend.page_errors, friend.page_errors
        print(f"Screenshots: {SHOTS}")
    except BaseException:
        report_failure((player, friend), push_server.server, tmp_path_factory)
        raise
    finally:
        player.context.close()
        friend.context.close()
