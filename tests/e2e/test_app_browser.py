"""The installable app in a real Chromium (docs/notifications.md, "Web Push and the app").

On a server of its own (conftest.py's `push_server`), with VAPID keys and our own push
service on localhost (tests/push_service.py, in this process):

- the service worker registers from every page with the whole site as its scope and takes
  control; the manifest and its icons load; a push delivered to it (DevTools'
  `ServiceWorker.deliverPushMessage`, as a push service would) is shown as a notification
  titled by the game, tagged by the match, opening it; offline, a page shows the offline
  page (from the worker's cache) styled by the cached style sheet; no CSP violation;
- the real PushManager: headless Chromium (Debian's, no Google API keys) cannot subscribe,
  as it needs Google's push service (FCM): `subscribe()` fails with "AbortError:
  Registration failed - permission denied" even with the permission granted. The settings
  page must then say so in a sentence, and nothing is stored;
- so the rest of the path is driven with the browser's `PushManager.subscribe` replaced
  (players.py's `PUSH_STUB`, an init script) by one that returns a subscription whose keys
  this test made: the settings page's own script posts it, the server stores it, another
  player's invitation is pushed, and our push service receives the payload, which
  decrypts (http_ece) to the match, the game and a short text.
"""

from __future__ import annotations

import pytest
from players import (
    Player,
    allow_push,
    create_match,
    deliver_push,
    new_player,
    poll,
    report_failure,
    sign_up,
    turn_push_on,
)
from playwright.sync_api import Browser, expect

from tests.push_service import Browser as PushKeys
from tests.push_service import unb64url, vapid_claims

pytestmark = pytest.mark.e2e

PUSH_WAIT = 10.0  # seconds for the push to reach our push service


def _player(browser: Browser, url: str, name: str) -> Player:
    player = new_player(browser, url, name)
    player.context.grant_permissions(["notifications"], origin=url)
    return player


def test_the_worker_controls_every_page_and_shows_the_offline_page(
    chromium_browser: Browser, push_server, tmp_path_factory
) -> None:
    server, _service, _key = push_server
    ann = _player(chromium_browser, server.url, "app_ann")
    try:
        sign_up(ann)
        page = ann.page
        page.goto("/")
        registered = poll(
            page,
            """navigator.serviceWorker.getRegistration().then(reg => reg && reg.active
                && reg.active.state === "activated" && reg.scope)""",
        )
        assert registered == server.url + "/"
        page.goto("/matches/")  # another page: the same worker, now in control
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")

        manifest = page.evaluate(
            """async () => {
                const link = document.querySelector("link[rel=manifest]");
                const manifest = await (await fetch(link.href)).json();
                const icons = await Promise.all(manifest.icons.map(async icon => {
                    const answer = await fetch(icon.src);
                    return [icon.sizes, answer.status, answer.headers.get("content-type")];
                }));
                return {name: manifest.name, display: manifest.display, icons};
            }"""
        )
        assert manifest["name"] == "Cardhall" and manifest["display"] == "standalone"
        assert {size for size, _, _ in manifest["icons"]} >= {"any", "192x192", "512x512"}
        assert all(
            status == 200 and kind.startswith("image/") for _, status, kind in manifest["icons"]
        )

        # A push, as the browser's push service would deliver it (DevTools' own
        # ServiceWorker.deliverPushMessage): the worker shows it, titled by the game.
        payload = {"match": 42, "game": "Dog Blade", "text": "Your turn in Dog Blade against bo"}
        shown = deliver_push(ann, server.url, payload)
        assert shown == [["Dog Blade", payload["text"], "match-42", "/matches/42/"]]

        ann.context.set_offline(True)
        page.goto("/matches/")
        expect(page.get_by_test_id("offline-page")).to_be_visible()
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        rules = page.evaluate(  # the style sheet came from the worker's cache
            "Array.from(document.styleSheets).map(sheet => sheet.cssRules.length)"
        )
        assert rules and rules[0] > 10, rules
        page.screenshot(path=str(tmp_path_factory.mktemp("app") / "offline.png"))
        ann.context.set_offline(False)
        page.goto("/")
        expect(page.locator(".user-chip")).to_have_text("app_ann")
        assert ann.page_errors == []
    except Exception:
        report_failure((ann,), server, tmp_path_factory)
        raise
    finally:
        ann.context.close()


def test_the_real_push_manager_fails_in_headless_chromium_with_a_clear_message(
    chromium_browser: Browser, push_server, tmp_path_factory
) -> None:
    server, service, _key = push_server
    cy = _player(chromium_browser, server.url, "app_cy")
    try:
        sign_up(cy)
        cy.page.goto("/notifications/settings/")
        status = cy.testid("push-status")
        expect(status).to_have_text("Push is off for this device.")
        cy.testid("push-on").click()
        expect(status).not_to_have_text("Asking your browser…")
        text = status.inner_text()
        print(f"the real PushManager: {text}")
        if text.startswith("Push is on"):  # a Chromium with a push service: fine too
            return
        assert text.startswith("Push could not be turned on:"), text
        assert "Registration failed" in text or "push service" in text.lower(), text
        expect(cy.testid("push-on")).to_be_visible()
        cy.page.reload()
        expect(cy.page.get_by_text("0 devices of yours receive push.")).to_be_visible()
        assert service.received == [] and cy.page_errors == []
    except Exception:
        report_failure((cy,), server, tmp_path_factory)
        raise
    finally:
        cy.context.close()


def test_the_settings_page_subscribes_and_an_invitation_arrives_encrypted(
    chromium_browser: Browser, push_server, tmp_path_factory
) -> None:
    server, service, public_key = push_server
    keys = PushKeys(service.endpoint("dee-laptop"))
    dee = new_player(chromium_browser, server.url, "app_dee")
    eve = _player(chromium_browser, server.url, "app_eve")
    allow_push(dee, server.url, keys.subscription())
    try:
        sign_up(dee)
        sign_up(eve)
        turn_push_on(dee)
        assert dee.page.evaluate("window.__pushKey") == public_key  # the server's VAPID key
        expect(dee.testid("push-off")).to_be_visible()
        dee.page.reload()
        expect(dee.page.locator("input[name=push]")).to_be_checked()  # the opt-in

        service.arrived.clear()
        match_id = create_match(eve, dee, "dogblade")
        assert service.arrived.wait(PUSH_WAIT), "no push reached the push service"
        [request] = service.received
        assert request.path == "/push/dee-laptop"
        assert keys.decrypt(request.body) == {
            "match": match_id,
            "game": "Dog Blade",
            "text": "app_eve invites you to Dog Blade",
        }
        assert vapid_claims(request, public_key=public_key)["aud"] == service.url
        assert len(unb64url(public_key)) == 65

        dee.page.goto("/notifications/settings/")
        expect(dee.testid("push-status")).to_have_text("Push is on for this device.")
        dee.testid("push-off").click()
        expect(dee.testid("push-status")).to_have_text("Push is off for this device.")
        dee.page.reload()
        expect(dee.page.get_by_text("0 devices of yours receive push.")).to_be_visible()
        assert dee.page_errors == [] and eve.page_errors == []
    except Exception:
        report_failure((dee, eve), server, tmp_path_factory)
        raise
    finally:
        dee.context.close()
        eve.context.close()
