"""A push subscription whose endpoint names (or resolves to) an address off the internet is
refused (issue 18): private, loopback, link-local, shared or reserved addresses, whether an
IP literal, a number the resolver reads as one, or a host name that resolves there. The
player gets a clear message and nothing is written. The tests' own setting
WEBPUSH_ALLOW_LOCALHOST still lets the end-to-end push test use its push service on
localhost. A stored endpoint whose name later resolves inside gets no push: the device is
forgotten. Name resolution is replaced here (no outside DNS is asked)."""

from __future__ import annotations

import socket

import pytest

from inbox import webpush
from inbox.models import NotificationSettings, PushSubscription
from tests.inbox.test_push import subscribe
from tests.push_service import Browser, vapid_key_pair

INSIDE = [
    "127.0.0.1",
    "127.1.2.3",
    "10.1.2.3",
    "172.16.5.4",
    "192.168.0.5",
    "169.254.169.254",  # the cloud metadata service
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "0.0.0.0",
    "::1",
    "fe80::1%eth0",
    "fc00::1",
    "::ffff:10.0.0.1",
]
PUBLIC = "142.250.74.10"


@pytest.fixture
def vapid(settings):
    public, private = vapid_key_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY = public
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_ALLOW_LOCALHOST = True
    return public


def _resolving(monkeypatch, table):
    """Host names resolve by `table` (name -> addresses); any other name is not found."""

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        family = {True: socket.AF_INET6, False: socket.AF_INET}
        return [
            (family[":" in address], socket.SOCK_STREAM, 6, "", (address, 0))
            for address in table[host]
        ]

    monkeypatch.setattr(webpush.socket, "getaddrinfo", getaddrinfo)


def _document(host):
    return Browser(f"https://{host}/push/abc").subscription()


def _nothing_written(user):
    assert not PushSubscription.objects.exists()
    assert not NotificationSettings.objects.filter(user=user, push=True).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("address", INSIDE)
def test_a_name_resolving_inside_is_refused_and_nothing_written(
    client, alice, vapid, settings, monkeypatch, address
):
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    _resolving(monkeypatch, {"push.evil.example": [address]})
    response = subscribe(client, alice, _document("push.evil.example"))
    assert response.status_code == 400
    error = response.json()["error"]
    assert "private, loopback or link-local" in error and "internet" in error
    _nothing_written(alice)


@pytest.mark.django_db
def test_one_address_inside_among_public_ones_is_enough_to_refuse(
    client, alice, vapid, settings, monkeypatch
):
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    _resolving(monkeypatch, {"push.mixed.example": [PUBLIC, "10.0.0.7"]})
    assert subscribe(client, alice, _document("push.mixed.example")).status_code == 400
    _nothing_written(alice)


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "127.1", "[::ffff:7f00:1]"])
def test_numbers_the_resolver_reads_as_a_loopback_address_are_refused(
    client, alice, vapid, settings, host
):
    """No stub here: the system resolver itself reads these as 127.0.0.1 (no DNS query)."""
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    response = subscribe(client, alice, _document(host))
    assert response.status_code == 400 and "internet" in response.json()["error"]
    _nothing_written(alice)


@pytest.mark.django_db
def test_a_name_resolving_to_the_internet_is_stored(client, alice, vapid, settings, monkeypatch):
    settings.WEBPUSH_ALLOW_LOCALHOST = False
    _resolving(monkeypatch, {"push.service.example": [PUBLIC, "2a00:1450:4001::200e"]})
    response = subscribe(client, alice, _document("push.service.example"))
    assert response.status_code == 201, response.content
    stored = PushSubscription.objects.get()
    assert stored.endpoint == "https://push.service.example/push/abc"


@pytest.mark.django_db
def test_the_tests_setting_still_allows_a_local_push_service(
    client, alice, vapid, settings, monkeypatch
):
    """WEBPUSH_ALLOW_LOCALHOST (the end-to-end push test's setting): a local name passes."""
    _resolving(monkeypatch, {"push.test.example": ["127.0.0.1"]})
    settings.WEBPUSH_ALLOW_LOCALHOST = True
    assert subscribe(client, alice, _document("push.test.example")).status_code == 201
    assert PushSubscription.objects.count() == 1


def test_no_push_goes_to_a_name_that_now_resolves_inside(vapid, settings, monkeypatch):
    """Stored while it pointed out, rebound since: `send` looks again and sends nothing
    (PushGone: the device is forgotten like one its push service no longer knows)."""
    import pywebpush

    settings.WEBPUSH_ALLOW_LOCALHOST = False
    _resolving(monkeypatch, {"push.rebound.example": ["169.254.169.254"]})
    sent = []
    monkeypatch.setattr(pywebpush, "webpush", lambda **kwargs: sent.append(kwargs))
    document = _document("push.rebound.example")
    subscription = webpush.Subscription(
        document["endpoint"], document["keys"]["p256dh"], document["keys"]["auth"]
    )
    with pytest.raises(webpush.PushGone):
        webpush.send(subscription=subscription, data=b"{}")
    assert sent == []
    # The same endpoint resolving out again is handed to pywebpush.
    _resolving(monkeypatch, {"push.rebound.example": [PUBLIC]})

    class Answer:
        status_code = 201

    monkeypatch.setattr(pywebpush, "webpush", lambda **kwargs: sent.append(kwargs) or Answer())
    assert webpush.send(subscription=subscription, data=b"{}") == 201
    assert len(sent) == 1
