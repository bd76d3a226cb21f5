"""The keyed chance source: every random decision of a match comes from here.

Invariants:
- The stream is HMAC-SHA256(seed, label || counter), so the same seed, label and counter
  always give the same bytes, on every Python version and platform.
- Draws are unbiased (rejection sampling), and `shuffle` is a plain Fisher-Yates over them.
- Python's `random` is never used: its output is predictable from a few draws and its
  `shuffle`/`randrange` algorithms are not a stable contract between versions.
- The seed and the counter are server secrets: they live in engine state and never appear
  in any `view`.
- Pure: imports the standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_BLOCK = 32  # bytes per HMAC-SHA256 block


class Chance:
    """A deterministic stream of random numbers keyed by a secret seed.

    `counter` counts the HMAC blocks consumed, so a game that draws during play can store
    `(label, counter)` in its state and resume the exact stream after a replay.
    """

    __slots__ = ("_seed", "_label", "counter", "_buffer")

    def __init__(self, seed: bytes, label: str = "", counter: int = 0) -> None:
        if not isinstance(seed, bytes | bytearray) or len(seed) < 16:
            raise ValueError("a chance seed must be at least 16 bytes")
        self._seed = bytes(seed)
        self._label = label.encode()
        self.counter = counter
        self._buffer = b""

    def _block(self) -> bytes:
        message = self._label + b"\x00" + self.counter.to_bytes(8, "big")
        self.counter += 1
        return hmac.new(self._seed, message, hashlib.sha256).digest()

    def _bits(self, count: int) -> int:
        """An integer of `count` uniformly random bits."""
        needed = (count + 7) // 8
        while len(self._buffer) < needed:
            self._buffer += self._block()
        chunk, self._buffer = self._buffer[:needed], self._buffer[needed:]
        return int.from_bytes(chunk, "big") >> (needed * 8 - count)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        while True:
            value = self._bits(bits)
            if value < n:
                return value

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with `items` in a uniformly random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.randbelow(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
