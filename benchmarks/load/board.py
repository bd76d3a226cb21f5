"""Reading a board fragment the way a browser would (pure: the standard library only).

Dog Blade has one legal move at a time; the board of the seat to act carries it as a form
(`games/dogblade/board.jinja`): hidden `ply` and `move_id`, the CSRF token, and a
submit button `name="move"` whose value is the move's JSON. `parse_move_form` finds that
form, so the generator posts exactly what the button would.

The generator shares the server's two cores, so reading a board must cost little: only the
board's `<form>` elements go through the parser (forms do not nest, and a board has no
script that writes one), and each board is read once (a pair asks for the form of both
seats' boards at every step). Reading the whole 10-20 KB board with `HTMLParser` took about
2 ms, three times a move: most of the generator's CPU (docs/benchmarks.md, thirteenth pass).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass(frozen=True)
class MoveForm:
    action: str  # the form's hx-post (else action) URL
    fields: tuple[tuple[str, str], ...]  # hidden inputs + the pressed button, in page order

    def data(self) -> dict[str, str]:
        return dict(self.fields)

    @property
    def ply(self) -> int | None:
        value = self.data().get("ply")
        return int(value) if value and value.isdigit() else None

    @property
    def move(self) -> dict | None:
        value = self.data().get("move")
        return json.loads(value) if value else None


class _FormReader(HTMLParser):
    """Collects each <form class="move-form">: its URL, hidden inputs, first move button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[MoveForm] = []
        self._action: str | None = None
        self._fields: list[tuple[str, str]] = []
        self._has_button = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form" and "move-form" in attributes.get("class", "").split():
            self._action = attributes.get("hx-post") or attributes.get("action") or ""
            self._fields, self._has_button = [], False
        elif self._action is None:
            return
        elif tag == "input" and attributes.get("type", "text") == "hidden":
            self._fields.append((attributes.get("name", ""), attributes.get("value", "")))
        elif tag == "button" and self._is_live_button(attributes):
            self._fields.append((attributes["name"], attributes.get("value", "")))
            self._has_button = True

    def _is_live_button(self, attributes: dict[str, str]) -> bool:
        """The first named, enabled submit button of the form: the one a tap sends."""
        return (
            bool(attributes.get("name"))
            and not self._has_button
            and attributes.get("type", "submit") == "submit"
            and "disabled" not in attributes
        )

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._action is not None:
            if self._has_button:
                self.forms.append(MoveForm(self._action, tuple(self._fields)))
            self._action = None


_FORM = re.compile(r"<form\b.*?</form\s*>", re.IGNORECASE | re.DOTALL)


@functools.lru_cache(maxsize=1024)
def parse_move_form(html: str) -> MoveForm | None:
    """The board's first move form with a live submit button, or None (not my turn)."""
    reader = _FormReader()
    for form in _FORM.finditer(html):
        reader.feed(form.group())
        if reader.forms:
            break
    reader.close()
    return reader.forms[0] if reader.forms else None


_DATA_PLY = re.compile(r'data-ply="(\d+)"')
_JSON_PLY = re.compile(r'"ply"\s*:\s*(\d+)')
_QUERY_PLY = re.compile(r"[?&;]ply=(\d+)")
_STATUS = re.compile(r'data-status="([a-z]+)"')
_SOCKET = re.compile(r'id="board-sync"[^>]*data-socket="([^"]+)"')


def board_ply(html: str) -> int | None:
    """The ply a board (or a pushed board, or a push hint) says it shows; None if it
    names none (e.g. the bare re-fetch fragment sent on connect)."""
    for pattern in (_DATA_PLY, _JSON_PLY, _QUERY_PLY):
        found = pattern.search(html)
        if found:
            return int(found.group(1))
    return None


def board_status(html: str) -> str | None:
    """The match status the board shows ("active", "finished", ...), if it says."""
    found = _STATUS.search(html)
    return found.group(1) if found else None


def socket_name(hello: str) -> str:
    """The name a match socket gives itself in its hello (`#board-sync`'s data-socket),
    which a page sends with its moves; "" if it names none."""
    found = _SOCKET.search(hello)
    return found.group(1) if found else ""
