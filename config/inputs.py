"""The one input layer: every value a user sends is read here before a view uses it.

Path values are read by the converters registered here (`<id:...>`, `<name:...>`,
`<date:...>`); query values, form fields and JSON bodies by the functions below; and
`InputGuard`, a middleware, refuses any address, query, form or cookie that holds a
control character before a view (ours, the admin's or allauth's) sees it.

The contract (docs/security.md, "Input"):

- Numbers are ASCII digits only (`str.isdigit()` accepts "²", `int()` refuses it), at most
  as many as the range needs, and range-checked: ids fit PostgreSQL's bigint, a ply what
  `Move.ply` stores. A JSON number must be a whole number where one is asked for: 1e999
  (inf), 1.5 and true are not.
- Text has a bounded length and holds no control character (NUL, which PostgreSQL cannot
  store, and the others of C0 and C1 except tab and line breaks) and no lone surrogate.
- JSON is bounded in size before it is parsed, and in depth before it is parsed (so no
  RecursionError), and every string, key and number in it follows the rules above.
- Bad input raises `BadInput`, and only that. It is Django's `BadRequest`, so wherever it
  escapes a view the site answers 400 with its own error page and the message; views that
  answer with a board fragment (HTMX) catch it and show the message there. Views read
  their input before they call a service, so a refused request writes nothing.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Collection, Iterable
from typing import Any

from channels.layers import BaseChannelLayer
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, RawPostDataException
from django.urls import register_converter

BIGINT_MAX = 2**63 - 1  # PostgreSQL's bigint: every primary key
INTEGER_MAX = 2**31 - 1  # PostgreSQL's integer: Match.ply, Move.ply
ID_DIGITS = 18  # an id of 18 digits always fits a bigint; no row will ever need 19
TEXT_MAX = 200  # a short value (a code, a slug, a name) unless a caller says otherwise
LIST_MAX = 100  # values of one repeated field (`?cards=...&cards=...`)
JSON_MAX_LENGTH = 16_384  # characters of a JSON body or field, unless a caller says otherwise
JSON_MAX_DEPTH = 32  # nesting of JSON arrays and objects, unless a caller says otherwise

# Control characters (C0 but tab, line feed and carriage return; DEL; C1) and lone
# surrogates, which no encoder can write out.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_JSON_STRING = re.compile(r'"(?:[^"\\]+|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


class BadInput(BadRequest):
    """A value that cannot be read. Answered 400 with `message`, a sentence for a person."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- numbers ---------------------------------------------------------------------------------


def whole_number(raw: object, *, what: str, minimum: int = 0, maximum: int = BIGINT_MAX) -> int:
    """`raw` (a string of ASCII digits, with a "-" only if `minimum` is negative, or a JSON
    integer) as an int within [minimum, maximum]."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise BadInput(f"{what} must be a whole number, such as {min(max(minimum, 3), maximum)}.")
    if isinstance(raw, str):
        digits = raw[1:] if raw.startswith("-") and minimum < 0 else raw
        if not (digits.isascii() and digits.isdigit()):
            raise BadInput(
                f"{what} must be a whole number written with the digits 0 to 9, "
                f"such as {min(max(minimum, 3), maximum)}."
            )
        if len(digits) > len(str(max(abs(minimum), abs(maximum)))):
            raise BadInput(_out_of_range(what, minimum, maximum))
        raw = int(raw)
    if not minimum <= raw <= maximum:
        raise BadInput(_out_of_range(what, minimum, maximum))
    return raw


def optional_whole_number(
    raw: object, *, what: str, minimum: int = 0, maximum: int = BIGINT_MAX
) -> int | None:
    """As `whole_number`, but absent or empty is None."""
    if raw is None or raw == "":
        return None
    return whole_number(raw, what=what, minimum=minimum, maximum=maximum)


def record_id(raw: object, *, what: str) -> int:
    """The id of a row: a whole number from 1 that fits a bigint."""
    return whole_number(raw, what=what, minimum=1, maximum=BIGINT_MAX)


def ply(raw: object, *, what: str = "The move number") -> int:
    """A move number (the number of moves made before it), as `Move.ply` stores it."""
    return whole_number(raw, what=what, minimum=0, maximum=INTEGER_MAX)


def _out_of_range(what: str, minimum: int, maximum: int) -> str:
    return f"{what} must be a whole number from {minimum:,} to {maximum:,}."


# --- text ------------------------------------------------------------------------------------


def text(raw: object, *, what: str, max_length: int = TEXT_MAX, default: str = "") -> str:
    """A string of at most `max_length` characters, with no control character; absent is
    `default`."""
    if raw is None:
        return default
    if not isinstance(raw, str):
        raise BadInput(f"{what} must be text.")
    if len(raw) > max_length:
        raise BadInput(f"{what} is too long: at most {max_length:,} characters.")
    if FORBIDDEN.search(raw):
        raise BadInput(f"{what} holds a control character; type it again.")
    return raw


def optional_text(raw: object, *, what: str, max_length: int = TEXT_MAX) -> str | None:
    """As `text`, but absent or empty is None (a retry key, an optional slug)."""
    value = text(raw, what=what, max_length=max_length)
    return value or None


def channel_hint(raw: object) -> str:
    """A page's socket, as the page names it in a request header (`X-Board-Socket`): a
    hint that only spares that page a push, so anything but a channel name is no hint
    (""), never an error. A channel name is what Channels' own rule accepts."""
    if (
        isinstance(raw, str)
        and len(raw) < BaseChannelLayer.MAX_NAME_LENGTH
        and BaseChannelLayer.channel_name_regex.fullmatch(raw)
    ):
        return raw
    return ""


def texts(
    raw: Iterable[object], *, what: str, max_items: int = LIST_MAX, max_length: int = TEXT_MAX
) -> list[str]:
    """The values of a repeated field (`QueryDict.getlist`), each as `text`."""
    values = list(raw)
    if len(values) > max_items:
        raise BadInput(f"Too many {what}: at most {max_items}.")
    return [text(value, what=f"Each of the {what}", max_length=max_length) for value in values]


def one_of(raw: object, choices: Collection[str], *, what: str, default: str = "") -> str:
    """One of `choices` (absent or empty: `default`)."""
    if raw is None or raw == "":
        return default
    if raw not in choices:
        shown = str(raw)[:20] if isinstance(raw, str) else "that"
        raise BadInput(f"“{_printable(shown)}” is not a choice for {what}.")
    return str(raw)


def filter_choice(raw: object, choices: Collection[str], *, default: str = "") -> str:
    """A list page's filter: one of `choices`, and anything else (an old link, a typo) the
    unfiltered list, `default`, as a filter is a wish, not an order."""
    return str(raw) if raw in choices else default


def flag(raw: object) -> bool:
    """A checkbox: ticked is "on" (what browsers send), "1" or "true"."""
    return raw in ("on", "1", "true")


def date(raw: object, *, what: str) -> datetime.date:
    """A date written YYYY-MM-DD."""
    value = text(raw, what=what, max_length=10)
    if not DateConverter.pattern.fullmatch(value):
        raise BadInput(f"{what} is written as a date, such as 2025-06-02.")
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{what} is no date of the calendar: {value}.") from None


def _printable(value: str) -> str:
    return FORBIDDEN.sub("?", value)


# --- JSON ------------------------------------------------------------------------------------


def json_document(
    raw: str | bytes,
    *,
    what: str,
    max_length: int = JSON_MAX_LENGTH,
    max_depth: int = JSON_MAX_DEPTH,
) -> Any:
    """Parse `raw` as JSON: bounded in size and depth before parsing, every value checked
    (`json_value`) after."""
    if len(raw) > max_length:
        raise BadInput(f"{what} is too large: at most {max_length:,} characters.")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(f"{what} is not valid UTF-8 text.") from None
    _check_depth(raw, what=what, max_depth=max_depth)
    try:
        document = json.loads(
            raw,
            parse_int=_json_int(what),
            parse_float=_json_float(what),
            parse_constant=_json_constant(what),
        )
    except ValueError:  # json.JSONDecodeError
        raise BadInput(f"{what} could not be read: it is not valid JSON.") from None
    return json_value(document, what=what, max_depth=max_depth)


def json_body(
    request: HttpRequest,
    *,
    what: str = "The request",
    max_length: int = JSON_MAX_LENGTH,
    max_depth: int = JSON_MAX_DEPTH,
) -> Any:
    """The request's body as a JSON document (`json_document`); an empty body is null."""
    length = whole_number(request.META.get("CONTENT_LENGTH") or "0", what="The request's length")
    if length > max_length:
        raise BadInput(f"{what} is too large: at most {max_length:,} characters.")
    try:
        body = request.body
    except RawPostDataException:  # sent as a multipart form, already read as one
        raise BadInput(f"{what} must be sent as JSON, not as a form.") from None
    return json_document(body or b"null", what=what, max_length=max_length, max_depth=max_depth)


def json_value(value: Any, *, what: str, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """`value`, a parsed JSON value, checked without recursion: nested at most `max_depth`
    deep, strings and keys as `text` allows (any length), integers within a bigint and
    floats finite. A value built in Python (not parsed) is checked just the same."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= max_depth:
                raise BadInput(_too_deep(what, max_depth))
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
            if isinstance(item, dict):
                stack.extend((key, depth + 1) for key in item)
        elif isinstance(item, str):
            text(item, what=f"Text in {_lower(what)}", max_length=len(item))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not -BIGINT_MAX - 1 <= item <= BIGINT_MAX:
                raise BadInput(f"A number in {_lower(what)} is too large.")
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise BadInput(f"A number in {_lower(what)} is too large.")
        else:
            raise BadInput(f"{what} holds something JSON cannot.")
    return value


def _check_depth(raw: str, *, what: str, max_depth: int) -> None:
    """Refuse JSON nested deeper than `max_depth` without parsing it (brackets inside
    strings do not count)."""
    depth = 0
    for bracket in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', raw)):
        if bracket.group() in "[{":
            depth += 1
            if depth > max_depth:
                raise BadInput(_too_deep(what, max_depth))
        else:
            depth -= 1


def _too_deep(what: str, max_depth: int) -> str:
    return f"{what} is nested too deep: at most {max_depth} levels of arrays and objects."


def _lower(what: str) -> str:
    return what[:1].lower() + what[1:]


def _json_int(what: str) -> Callable[[str], int]:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > len(str(BIGINT_MAX)):
            raise BadInput(f"A number in {_lower(what)} is too large.")
        return int(digits)

    return parse


def _json_float(what: str) -> Callable[[str], float]:
    def parse(written: str) -> float:
        number = float(written)
        if number in (float("inf"), float("-inf")):
            raise BadInput(f"A number in {_lower(what)} is too large.")
        return number

    return parse


def _json_constant(what: str) -> Callable[[str], Any]:
    def parse(name: str) -> Any:
        raise BadInput(f"{what} is not valid JSON: {name} is not a number.")

    return parse


# --- path values -----------------------------------------------------------------------------


class IdConverter:
    """`<id:match_id>`: 1 to 18 ASCII digits (`<int:...>` takes any number of digits, and a
    huge one overflows the database's bigint). Anything else is no match: a 404."""

    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


class NameConverter:
    """`<name:username>`: a name of 1 to 150 characters, no slash, no control character."""

    regex = "[^/\x00-\x1f\x7f-\x9f]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class DateConverter:
    """`<date:week>`: a date written YYYY-MM-DD that is in the calendar (else a 404)."""

    regex = "[0-9]{4}-[0-9]{2}-[0-9]{2}"
    pattern = re.compile(regex)

    def to_python(self, value: str) -> datetime.date:
        return datetime.date.fromisoformat(value)  # ValueError: no match

    def to_url(self, value: datetime.date | str) -> str:
        return value.isoformat() if isinstance(value, datetime.date) else value


register_converter(IdConverter, "id")
register_converter(NameConverter, "name")
register_converter(DateConverter, "date")


# --- every request ---------------------------------------------------------------------------


class InputGuard:
    """Refuse (400) a request whose path, query or urlencoded form holds a control
    character, before any view reads it (ours, the admin's, allauth's): PostgreSQL cannot
    store NUL, and no address or field of this site needs one. A cookie holding one is
    dropped, as if never sent (a 400 would lock its browser out until the cookie expires);
    so this runs before the session is read. Multipart forms are left to the views' own
    reading (their files may hold anything); so are bodies too large for Django to read as
    a form, which the view answers itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        _check_request(request)
        return self.get_response(request)


def _check_request(request: HttpRequest) -> None:
    if FORBIDDEN.search(request.path_info):
        raise BadInput("That address holds a control character.")
    _check_values(request.GET.lists(), "The address")
    for name, value in list(request.COOKIES.items()):
        if FORBIDDEN.search(name) or FORBIDDEN.search(value):
            del request.COOKIES[name]
    if request.method == "POST" and _is_small_urlencoded_form(request):
        _check_values(request.POST.lists(), "The form")


def _check_values(pairs: Iterable[tuple[str, list[str]]], where: str) -> None:
    for name, values in pairs:
        if FORBIDDEN.search(name) or any(FORBIDDEN.search(value) for value in values):
            raise BadInput(f"{where} holds a control character; type it again.")


def _is_small_urlencoded_form(request: HttpRequest) -> bool:
    from django.conf import settings

    if request.content_type != "application/x-www-form-urlencoded":
        return False
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is None or length <= limit
