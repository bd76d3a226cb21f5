"""Web Push: reading a browser's subscription, the payload, and one signed, encrypted send.

Nothing here touches the database: `inbox.services` stores subscriptions and decides what
is pushed (the same decision as email, one more channel), and calls `send` per device.

- A subscription is what the browser's `PushSubscription.toJSON()` gives: an endpoint (an
  https URL of the browser's push service) and two keys, `p256dh` (the browser's P-256
  public key, 65 bytes uncompressed) and `auth` (a 16-byte secret), both base64url.
  `subscription_read` checks every part and says what is wrong, in a sentence.
- The payload is encrypted for that browser (aes128gcm, RFC 8291) and signed with the
  site's VAPID key (RFC 8292) by pywebpush. It holds only the match id, the game's name and
  the notification's short text: never a card, a hand or a seed (docs/notifications.md).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import re
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

ENDPOINT_MAX = 1000  # PushSubscription.endpoint's max_length
TEXT_MAX = 120  # characters of a notification's text in a push
TTL_SECONDS = 24 * 60 * 60  # a push service keeps an undelivered push this long
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
GONE = frozenset({404, 410})  # the push service forgot the subscription: delete it
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class BadSubscription(ValueError):
    """A subscription that cannot be used, with a sentence a player can read."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class PushGone(Exception):
    """The push service answered 404 or 410: the subscription is no more."""


class PushFailed(Exception):
    """Any other failure to hand a push over (an error status, no answer)."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def is_configured() -> bool:
    """Push is on only with both VAPID keys set (the settings page says when it is off)."""
    return bool(settings.WEBPUSH_VAPID_PUBLIC_KEY and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The applicationServerKey the browser subscribes with (base64url, uncompressed)."""
    return settings.WEBPUSH_VAPID_PUBLIC_KEY if is_configured() else ""


def _b64url(raw: object, *, what: str) -> bytes:
    if not isinstance(raw, str) or not raw or len(raw) > 200:
        raise BadSubscription(f"The subscription's {what} key is missing or not text.")
    if not BASE64URL.fullmatch(raw):
        raise BadSubscription(f"The subscription's {what} key is not base64url.")
    try:
        return base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"The subscription's {what} key is not base64url.") from None


def _endpoint(raw: object) -> str:
    if not isinstance(raw, str) or not raw:
        raise BadSubscription("The subscription has no endpoint: give the push service's URL.")
    if len(raw) > ENDPOINT_MAX:
        raise BadSubscription(f"The endpoint is too long: at most {ENDPOINT_MAX} characters.")
    if any(char.isspace() or not char.isprintable() for char in raw):
        raise BadSubscription("The endpoint holds spaces or control characters.")
    try:
        parts = urlsplit(raw)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 - raises ValueError on a port out of range
    except ValueError:
        raise BadSubscription("The endpoint is not a URL.") from None
    if not host or parts.username or parts.password:
        raise BadSubscription("The endpoint must be a URL with a host and no user name.")
    local = host in LOCAL_NAMES or host.endswith(".localhost")
    if local or _is_private_address(host) or resolves_inside(host):
        if not settings.WEBPUSH_ALLOW_LOCALHOST:
            raise BadSubscription(
                "The endpoint must be a push service on the internet: its host is a "
                "private, loopback or link-local address, or a name for one."
            )
        if parts.scheme not in ("https", "http"):
            raise BadSubscription("The endpoint must be an https URL.")
    elif parts.scheme != "https":
        raise BadSubscription("The endpoint must be an https URL.")
    return raw


def _is_private_address(host: str) -> bool:
    """An IP literal the server itself or its network would answer (never a push service)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return not address.is_global


def resolves_inside(host: str) -> bool:
    """The host name resolves to an address that is not on the internet (private,
    loopback, link-local, reserved: `ipaddress`'s `is_global` false), so a push to it would
    reach the server's own network. A name that does not resolve (now) is not refused
    here: nothing can be reached through it, and `send` looks again before every push."""
    try:
        found = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        return False
    for _family, _type, _proto, _name, address in found:
        try:
            if not ipaddress.ip_address(str(address[0]).split("%")[0]).is_global:
                return True
        except ValueError:
            return True
    return False


def subscription_read(document: Any) -> Subscription:
    """The browser's subscription (`PushSubscription.toJSON()`, parsed), checked."""
    if not isinstance(document, dict):
        raise BadSubscription("Send the subscription as a JSON object with an endpoint and keys.")
    endpoint = _endpoint(document.get("endpoint"))
    keys = document.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("The subscription has no keys: give p256dh and auth.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    point = _b64url(p256dh, what="p256dh")
    if len(point) != 65 or point[0] != 4:
        raise BadSubscription("The p256dh key must be an uncompressed P-256 point (65 bytes).")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("The p256dh key is not a point of the P-256 curve.") from None
    if len(_b64url(auth, what="auth")) != 16:
        raise BadSubscription("The auth key must be 16 bytes.")
    return Subscription(endpoint=endpoint, p256dh=str(p256dh), auth=str(auth))


def payload(*, match_id: int | None, game: str, text: str) -> bytes:
    """What a push carries: the match, the game's name and a short text; nothing else."""
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1] + "…"
    document = {"match": match_id, "game": game, "text": text}
    return json.dumps(document, ensure_ascii=False).encode()


def send(*, subscription: Subscription, data: bytes, urgency: str = "normal") -> int:
    """Encrypt `data` for the subscription and hand it to its push service, signed with
    the VAPID key. Returns the service's status; raises PushGone on 404/410, PushFailed
    on any other failure."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    # A name may point inside since it was stored (or be rebound): never push there; the
    # device is forgotten like one its push service no longer knows.
    host = urlsplit(subscription.endpoint).hostname or ""
    if not settings.WEBPUSH_ALLOW_LOCALHOST and (
        _is_private_address(host) or resolves_inside(host)
    ):
        raise PushGone("the endpoint resolves to an address off the internet")
    try:
        response = webpush(
            subscription_info=subscription.info(),
            data=data,
            vapid_private_key=Vapid.from_string(settings.WEBPUSH_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
            ttl=TTL_SECONDS,
            headers={"Urgency": urgency},
            timeout=settings.WEBPUSH_TIMEOUT,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            raise PushGone(str(status)) from None
        raise PushFailed(f"the push service answered {status or 'nothing'}") from None
    except Exception as error:  # noqa: BLE001 - a connection refused, a timeout, a bad URL
        raise PushFailed(type(error).__name__) from None
    return int(response.status_code)
