"""What the browser tests share: a player in their own browser context, and the steps every
game's test takes the same way (sign up, name an opponent from the lobby, accept from
"My matches" (each guest in turn while the host waits), find my seat, all of it at once for
a two-player match, turn Web Push on and hand a push to the service worker, keep
screenshots when a test fails).

Game-specific helpers stay in each test file, on a subclass of `Player` where they need one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

PASSWORD = "Lantern-Fox-4821"
MATCH_URL = re.compile(r"/matches/(\d+)/$")
VIEWPORT = {"width": 1280, "height": 900}
DEFAULT_TIMEOUT = 10_000  # ms: Playwright's default for every wait and action
PUSH_TIMEOUT = 10_000  # ms: a bound on a push arriving, not a timing (benchmarks time pushes)


@dataclass
class Player:
    username: str
    context: BrowserContext
    page: Page
    seat: int = -1
    page_errors: list[str] = field(default_factory=list)
    sockets: list[str] = field(default_factory=list)

    @property
    def board(self) -> Locator:
        return self.page.locator("#board")

    @property
    def banner(self) -> Locator:
        return self.page.get_by_test_id("turn-banner")

    def testid(self, testid: str) -> Locator:
        return self.page.get_by_test_id(testid)

    def ply(self) -> int:
        return int(self.board.get_attribute("data-ply"))

    def stayed(self) -> bool:
        return self.page.evaluate("window.__stayed === true")


P = TypeVar("P", bound=Player)


def new_player(
    browser: Browser, base_url: str, username: str, *, player_class: type[P] = Player
) -> P:
    """A fresh browser context; the page's JavaScript errors (Content-Security-Policy
    violations among them) and websockets are recorded."""
    context = browser.new_context(base_url=base_url, viewport=VIEWPORT)
    context.set_default_timeout(DEFAULT_TIMEOUT)
    page = context.new_page()
    player = player_class(username, context, page)
    page.on("pageerror", lambda error: player.page_errors.append(str(error)))
    page.on("console", lambda message: _record_csp_violation(player, message.text))
    page.on("websocket", lambda socket: player.sockets.append(socket.url))
    return player


def _record_csp_violation(player: Player, text: str) -> None:
    """Chromium reports what the Content-Security-Policy blocked on the console, and htmx
    what it refused to eval: each is a page error, so every browser test that checks
    `page_errors` fails on one."""
    if "Content Security Policy" in text or "evalDisallowedError" in text:
        player.page_errors.append(f"CSP: {text}")


def sign_up(player: Player) -> None:
    page = player.page
    page.goto("/accounts/signup/")
    form = page.locator("form[action$='/accounts/signup/']")
    form.locator("input[name=username]").fill(player.username)
    form.locator("input[name=email]").fill(f"{player.username}@example.com")
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator(".user-chip")).to_have_text(player.username)


def create_match(host: Player, guest: Player, game: str) -> int:
    """From the lobby, a two-seat match of `game` against a named player; returns its id."""
    page = host.page
    page.goto("/play/")
    page.locator("select[name=game]").select_option(game)
    page.get_by_label("A player I name").check()
    page.locator("input[name=username]").fill(guest.username)
    page.get_by_test_id("create-match").click()
    page.wait_for_url(MATCH_URL)
    return int(MATCH_URL.search(page.url).group(1))


def accept_invitation(player: Player, match_id: int) -> str:
    """Accept the invitation to `match_id` from "My matches"; returns the id of the match
    page it lands on, as the URL spells it."""
    page = player.page
    page.goto("/matches/")
    invitation = page.get_by_test_id("invites").locator(f"a[href$='/matches/{match_id}/']")
    expect(invitation).to_have_count(1)
    invitation.click()
    page.wait_for_url(MATCH_URL)
    page.get_by_test_id("accept").click()
    page.wait_for_url(MATCH_URL)
    return MATCH_URL.search(page.url).group(1)


def seat_guests(host: Player, guests: list[Player], match_id: int) -> None:
    """Each guest in turn accepts the host's invitation; the host's page still waits before
    each. Every page is marked once it shows the match (`Player.stayed`)."""
    host.page.evaluate("window.__stayed = true")
    for guest in guests:
        expect(host.board).to_have_attribute("data-status", "waiting")
        assert accept_invitation(guest, match_id) == str(match_id)
        guest.page.evaluate("window.__stayed = true")


def start_duel(host: Player, guest: Player, game: str, *, timeout: int) -> int:
    """Both sign up, `host` invites `guest` to `game` and `guest` accepts; returns the id.

    Each page is marked once it shows the match (`Player.stayed` proves it never reloads),
    and the host's waiting page must turn into the board by push, within `timeout` ms.
    Both players know their seat afterwards.
    """
    sign_up(host)
    sign_up(guest)
    match_id = create_match(host, guest, game)
    seat_guests(host, [guest], match_id)
    for player in (host, guest):
        expect(player.board).to_have_attribute("data-status", "active", timeout=timeout)
        player.seat = my_seat(player)
    return match_id


def my_seat(player: Player) -> int:
    """The seat of the side the page marks as mine (its "you" tag)."""
    side = player.page.locator("[data-testid^='side-']").filter(has=player.page.locator(".you-tag"))
    expect(side).to_have_count(1)
    return int(side.get_attribute("data-seat"))


# Headless Chromium (Debian's, no Google API keys) cannot subscribe to push for real: its
# PushManager.subscribe() needs Google's push service (FCM) and fails with "Registration
# failed - permission denied" (tests/e2e/test_app_browser.py checks the page says so). This
# init script replaces it by one returning the subscription the test made
# (tests/push_service.py's `Browser`: real keys, an endpoint on our own push service), and
# keeps the applicationServerKey it was given in `window.__pushKey` (base64url). The
# subscription lasts as long as the tab (sessionStorage), like a browser's own.
PUSH_STUB = """
(() => {
  const subscription = %s;
  const stub = () => ({
    endpoint: subscription.endpoint,
    toJSON: () => subscription,
    unsubscribe: () => { sessionStorage.removeItem("push-stub"); return Promise.resolve(true); },
  });
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__pushKey = btoa(String.fromCharCode.apply(null, key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    sessionStorage.setItem("push-stub", "1");
    return Promise.resolve(stub());
  };
  PushManager.prototype.getSubscription = () =>
    Promise.resolve(sessionStorage.getItem("push-stub") ? stub() : null);
})();
"""


def allow_push(player: Player, origin: str, subscription: dict[str, Any]) -> None:
    """Let `player`'s browser subscribe to push: notifications allowed for `origin`, and
    `PushManager.subscribe` answering `subscription` (`PUSH_STUB`), from the next page on."""
    player.context.grant_permissions(["notifications"], origin=origin)
    player.context.add_init_script(PUSH_STUB % json.dumps(subscription))


def turn_push_on(player: Player) -> None:
    """Turn push on for this device from the settings page, as a player does (the page's
    own script subscribes and posts the subscription); it is their only device."""
    player.page.goto("/notifications/settings/")
    player.testid("push-on").click()
    expect(player.testid("push-status")).to_have_text(
        "Push is on for this device (1 device in all)."
    )


def poll(page: Page, expression: str, *, seconds: float = 10.0) -> Any:
    """The value of `expression` (a promise is awaited) once it is truthy; wait_for_function
    would take a pending promise itself for truthy."""
    value = None
    for _ in range(int(seconds * 10)):
        value = page.evaluate(expression)
        if value:
            return value
        page.wait_for_timeout(100)
    return value


# Deliveries of one push before giving up. A delivery can be lost while the browser starts the
# worker (CI: one showed nothing in 10 s); the notification's tag makes a second one replace,
# never add to, the first.
PUSH_TRIES = 3


def deliver_push(player: Player, origin: str, payload: dict[str, Any]) -> list[list[str]]:
    """Hand `payload` to the service worker of `origin` as the browser's push service would
    (DevTools' `ServiceWorker.deliverPushMessage`); returns the notifications it then shows,
    each as [title, body, tag, the URL a click opens]."""
    page = player.page
    cdp = player.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    try:
        cdp.send("ServiceWorker.enable")
        for _ in range(50):  # the registrations event arrives while Playwright waits
            if any(r["scopeURL"] == origin + "/" for r in registrations):
                break
            page.wait_for_timeout(100)
        [registration_id] = {  # one registration, however many events named it
            r["registrationId"]
            for r in registrations
            if r["scopeURL"] == origin + "/" and not r.get("isDeleted")
        }
        shown = None
        for _ in range(PUSH_TRIES):  # a push service delivers again what was not taken
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {"origin": origin, "registrationId": registration_id, "data": json.dumps(payload)},
            )
            shown = poll(
                page,
                """navigator.serviceWorker.ready.then(reg => reg.getNotifications()).then(list =>
                    list.length ? list.map(n => [n.title, n.body, n.tag, n.data.url]) : null)""",
                seconds=5.0,
            )
            if shown:
                break
        return shown
    finally:
        cdp.detach()


def report_failure(players: tuple[Player, ...], e2e_server, tmp_path_factory) -> None:
    """Screenshots of every page and the server log's tail, for a failed test."""
    shots = tmp_path_factory.mktemp("e2e-screenshots")
    for player in players:
        try:
            player.page.screenshot(path=str(shots / f"{player.username}.png"), full_page=True)
        except Exception as error:  # the page may be gone; keep the original failure
            print(f"no screenshot of {player.username}: {error}")
    print(f"Screenshots: {shots}")
    print(f"Server log (tail):\n{e2e_server.log_tail()}")
