"""The leak sweep over Web Push payloads (docs/notifications.md, "Web Push and the app").

The sweep of test_leak_sweep.py plays a match and reads everything each viewer gets at
every ply; here every seated player also has a push subscription, and every payload
handed to a push service (`inbox.webpush.send`, recorded instead of sent) is checked like
an email: no card at all, no seed. A payload holds the match id, the game's name and a
short text, and nothing else. A planted leak (the seed put in the text) is caught.
"""

from __future__ import annotations

import json

import pytest

from inbox import webpush
from inbox.models import NotificationSettings, PushSubscription
from tests.push_service import Browser, vapid_key_pair
from tests.security.sweep import NOTHING, Body, Leak
from tests.security.test_leak_sweep import PLIES, table  # noqa: F401 - the sweep's fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def web_pushes(settings, monkeypatch):
    """Push on (VAPID keys), and every payload recorded as (endpoint, text)."""
    public, private = vapid_key_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    sent: list[tuple[str, str]] = []

    def record(*, subscription, data, urgency="normal"):
        sent.append((subscription.endpoint, data.decode()))
        return 201

    monkeypatch.setattr(webpush, "send", record)
    return sent


def _watch_pushes(sweep, sent) -> None:
    """Every seat subscribes; each round checks the payloads sent since the last one."""
    for viewer in sweep.viewers:
        if viewer.seat is None:
            continue
        browser = Browser(f"https://push.example/{viewer.key}")
        PushSubscription.objects.create(
            user=viewer.user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth="A" * 22
        )
        NotificationSettings.objects.update_or_create(user=viewer.user, defaults={"push": True})
    seen = [0]
    check_mail = sweep.check_mail

    def check_mail_and_pushes(secrets):
        check_mail(secrets)
        for endpoint, text in sent[seen[0] :]:
            document = json.loads(text)
            assert set(document) == {"match", "game", "text"}, document
            assert document["match"] == sweep.match.pk
            sweep.check(Body(f"web push to {endpoint}", text, NOTHING), secrets)
        seen[0] = len(sent)

    sweep.check_mail = check_mail_and_pushes


@pytest.mark.parametrize("game", ["dogblade", "grimhand"])
def test_web_push_payloads_hold_no_card(table, web_pushes, game):  # noqa: F811
    sweep = table(game)
    _watch_pushes(sweep, web_pushes)
    sweep.play(plies=PLIES[game], seed=f"sweep/{game}")
    assert len(web_pushes) >= 2  # "your turn" went out, and was checked


def test_a_planted_seed_in_a_push_is_caught(table, web_pushes, monkeypatch):  # noqa: F811
    sweep = table("dogblade")
    _watch_pushes(sweep, web_pushes)
    real_payload = webpush.payload
    seed = bytes(sweep.match.seed).hex()
    monkeypatch.setattr(
        webpush, "payload", lambda **kw: real_payload(**{**kw, "text": f"{seed[:64]}"})
    )
    with pytest.raises(Leak, match="web push to .*secret seed"):
        sweep.play(plies=PLIES["dogblade"], seed="sweep/dogblade")
