"""Print a new VAPID key pair for Web Push, as the two settings to set (docs/operations.md).

    .venv/bin/python manage.py vapid_keys

Keep the private key secret, like SECRET_KEY. Changing the pair later makes every stored
subscription useless (browsers subscribed with the old public key): players turn push on
again on the settings page.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """(public, private): the uncompressed P-256 point and the 32-byte secret, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (WEBPUSH_VAPID_PUBLIC_KEY and _PRIVATE_KEY)."

    def handle(self, *args, **options) -> None:
        public, private = new_key_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
