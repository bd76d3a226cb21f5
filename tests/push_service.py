"""A push service of our own on localhost, for the Web Push tests: no outside service.

`PushService` accepts what pywebpush posts (an encrypted aes128gcm body, VAPID
`Authorization`), keeps each request, and answers the status the test sets (201 by
default; 404 or 410 to say a subscription is gone). `Browser` is the other end: a real
P-256 key pair and auth secret, as a browser makes when it subscribes, that decrypts what
arrived with http_ece and checks the VAPID signature against the server's public key.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_key_pair() -> tuple[str, str]:
    """(public, private) as the settings take them (what `manage.py vapid_keys` prints)."""
    from inbox.management.commands.vapid_keys import new_key_pair

    return new_key_pair()


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushService:
    url: str = ""
    status: int = 201
    statuses: dict[str, int] = field(default_factory=dict)  # path -> status, per device
    received: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)

    def endpoint(self, name: str) -> str:
        return f"{self.url}/push/{name}"


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            service.received.append(Received(self.path, headers, body))
            service.arrived.set()
            self.send_response(service.statuses.get(self.path, service.status))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Browser:
    """A subscribing browser's keys: what `PushManager.subscribe` makes."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self) -> dict[str, Any]:
        """`PushSubscription.toJSON()`."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_claims(request: Received, *, public_key: str) -> dict[str, Any]:
    """The VAPID JWT's claims, after checking its ES256 signature with `public_key`."""
    scheme, _, value = request.headers["authorization"].partition(" ")
    assert scheme == "vapid", scheme
    parts = dict(part.strip().split("=", 1) for part in value.split(","))
    assert parts["k"] == public_key
    header, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    verifier.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64url(claims))
