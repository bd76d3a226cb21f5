"""Fuzz every URL pattern and every socket route: nothing answers 5xx, no exception escapes.

The patterns are not listed here: they come from the URLconf itself (`get_resolver()`,
walked recursively, the admin's and allauth's included) and from `web.routing`, so a
new endpoint is fuzzed the day it is added. Each pattern gets junk path values (ids that
are no ids, "²", 5,000 digits, NUL, any Unicode), junk query values, junk form fields
(urlencoded and multipart, with a file at times) and junk JSON bodies (nested 50,000 deep,
1e999, NaN, huge integers, NUL and control characters, Unicode digits, long strings), by
GET and by POST, as an anonymous visitor, a seated player of real running matches (each
game), a bystander, and for the admin a staff user, each with a real CSRF token
(`Client(enforce_csrf_checks=True)`). Real ids and values are mixed in, so junk also
reaches the code behind the lookups (a junk move on a match at its real ply).

Each request runs in a savepoint rolled back afterwards, with the caches cleared, so every
example meets the same running matches. Hypothesis is derandomized (the same examples on
every run, no example database): `FUZZ_EXAMPLES` per pattern of this project, after a fixed
sweep of the known kinds of junk (`known_junk`), and fewer for the admin's and allauth's.
Runs on SQLite and on PostgreSQL (NUL only ever failed there).

Time: 4,374 requests, about 75 s of CPU on SQLite (`FUZZ_EXAMPLES = 6`); docs/security.md.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django import forms
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern, _route_to_regex
from django.utils.regex_helper import normalize
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rendering, replay, services
from games.models import Match
from tests.conftest import EXAMPLE_DEAL
from web.routing import websocket_router, websocket_urlpatterns

FUZZ_EXAMPLES = 6  # per pattern of this project; each example: every role, GET and POST
THIRD_PARTY_EXAMPLES = 1  # per pattern of the admin and allauth
SOCKET_EXAMPLES = 40
REPO = Path(__file__).resolve().parents[2]
APPS = ("accounts", "arcana", "banira", "config", "games", "inbox", "progression", "ratings", "web")
DEEP = 50_000

# --- the URLconf, walked ---------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    regex: str  # the whole path's regex, without the leading "/"
    template: str  # normalize(regex): "matches/%(match_id)s/"
    params: tuple[str, ...]
    callback: object

    @property
    def is_ours(self) -> bool:
        module = _module_of(self.callback)
        return module.split(".")[0] in APPS and not self.regex.startswith("admin/")

    @property
    def is_admin(self) -> bool:
        return self.regex.startswith("admin/")

    def group_regex(self, name: str) -> str:
        """The regex of the named group `name` (balanced parentheses)."""
        start = self.regex.index(f"(?P<{name}>") + len(f"(?P<{name}>")
        depth, index = 1, start
        while depth:
            char = self.regex[index]
            if char == "\\":
                index += 2
                continue
            depth += {"(": 1, ")": -1}.get(char, 0)
            index += 1
        return self.regex[start : index - 1]


def _part(pattern: object, *, is_endpoint: bool) -> str:
    if isinstance(pattern, RoutePattern):
        return _route_to_regex(str(pattern._route), is_endpoint)[0].lstrip("^")
    assert isinstance(pattern, RegexPattern), pattern
    return pattern._regex.lstrip("^")


def _walk(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry, prefix + _part(entry.pattern, is_endpoint=False))
        else:
            yield prefix + _part(entry.pattern, is_endpoint=True), entry


def http_endpoints() -> list[Endpoint]:
    endpoints = []
    for regex, pattern in _walk(get_resolver()):
        template, params = normalize(regex)[0]
        endpoints.append(Endpoint(regex, template, tuple(params), pattern.callback))
    return endpoints


def _module_of(callback: object) -> str:
    view = getattr(callback, "view_class", None) or inspect.unwrap(callback)
    return getattr(view, "__module__", "") or ""


ENDPOINTS = http_endpoints()


# --- what users send: names discovered in the code, junk values ------------------------------

# Fields the admin and allauth read (their forms and changelists).
THIRD_PARTY_FIELDS = (
    "q", "o", "p", "e", "all", "_changelist_filters", "_popup", "_to_field", "action",
    "_selected_action", "select_across", "index", "post", "_save", "next", "login",
    "password", "password1", "password2", "oldpassword", "email", "username", "remember",
    "code", "key", "action_send", "action_remove", "action_primary",
)  # fmt: skip
# In views: `request.POST.get("ply")`, `body.get("move")`, `post["action"]`, `"slot" in post`.
READ = re.compile(
    r"""(?:\.get(?:list)?\(|(?:GET|POST|FILES|post)\[)\s*["']([A-Za-z_][\w-]{0,39})["']"""
    r"""|["']([A-Za-z_][\w-]{0,39})["']\s+(?:not\s+)?in\s+(?:request\.)?(?:POST|GET|post)\b"""
)


@functools.cache
def field_names() -> tuple[str, ...]:
    """Every query or form field name this project's views read, and its forms' fields,
    found in the code, so a new field is fuzzed too."""
    names: set[str] = set()
    for app in APPS:
        for path in (REPO / app).rglob("*views.py"):
            for found in READ.findall(path.read_text()):
                names.update(name for name in found if name)
    for form_class in _subclasses(forms.BaseForm):
        if form_class.__module__.split(".")[0] in APPS:
            names.update(form_class().fields)
    return tuple(sorted(names | set(THIRD_PARTY_FIELDS)))


def fields_read_by(callback: object) -> tuple[str, ...]:
    """The fields one view of this project reads, in its code or through a form."""
    code, form = _fields_read_by(callback)
    return tuple(sorted(set(code) | set(form)))


@functools.cache
def _fields_read_by(callback: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(fields one view of this project reads in its own code and in the code of the
    module's functions it calls (`_move_input`, then `_card_slot_move`, ...), fields of
    the forms that code names)."""
    view = inspect.unwrap(callback)
    module = inspect.getmodule(view)
    if module is None or module.__name__.split(".")[0] not in APPS:
        return (), ()
    helpers = {
        name: function
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
    }
    names: set[str] = set()
    form_names: set[str] = set()
    seen, todo = set(), [view]
    while todo:
        function = todo.pop()
        source = inspect.getsource(function)
        for found in READ.findall(source):
            names.update(name for name in found if name)
        for name, helper in helpers.items():
            if helper not in seen and re.search(rf"\b{name}\(", source):
                seen.add(helper)
                todo.append(helper)
        for name, value in vars(module).items():
            is_form = isinstance(value, type) and issubclass(value, forms.BaseForm)
            if is_form and re.search(rf"\b{name}\b", source):
                form_names.update(value().fields)
    return tuple(sorted(names - form_names)), tuple(sorted(form_names))


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


JUNK_TEXT = (
    "", " ", "-1", "0", "1", "00", "²", "₁", "١٢", "１２", "9" * 5000, "99999999999999999999",
    "9223372036854775808", "1e999", "-1e999", "1.5", "NaN", "Infinity", "true", "null",
    "\x00", "a\x00b", "\x1b[2J", "\x7f", "\u202e", "\x85", "x" * 10_000, "../../etc/passwd",
    "<script>alert(1)</script>", "%", "%00", "'; DROP TABLE games_match; --", "🂡🂱", "\n",
    "[" * 1000 + "]" * 1000, "{" * 500, '{"type": "attack"}', '{"type": "attack", "ply": 0}',
    "[1, 2]", "dogblade", "revealed", "spectator", "on", "end", "start", "free", "premium",
    "2025-06-02", "2025-02-30", "UTC", "Europe/Paris", "random", "attack", "pass", "7H",
)  # fmt: skip
DEEP_JSON = "[" * DEEP + "]" * DEEP
JUNK_JSON_BODIES = (
    DEEP_JSON,
    '{"ply": ' + DEEP_JSON + ', "move": {"type": "attack"}}',
    '{"ply": 0, "move": ' + DEEP_JSON + "}",
    '{"ply": 1e999, "move": {"type": "attack"}}',
    '{"ply": -1e999, "move": {"type": "attack"}}',
    '{"ply": NaN, "move": {"type": "attack"}}',
    '{"ply": 0, "move": {"type": "attack"}, "move_id": "a\\u0000b"}',
    '{"ply": 0, "move": {"type": "attack\\u0000"}}',
    '{"ply": 0, "move": {"type": "attack", "x": "\\ud800"}}',
    '{"ply": 0, "move": {"type": "play", "card": 1e999, "slot": [[[]]]}}',
    '{"ply": ' + "9" * 5000 + "}",
    '{"ply": "²", "move": {"type": "attack"}}',
    "{oops",
    "",
    "null",
    "[]",
    '"' + "x" * 100_000 + '"',
)

texts = st.one_of(
    st.sampled_from(JUNK_TEXT),
    st.text(max_size=24),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.from_regex(r"[0-9]{1,4}", fullmatch=True),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(("type", "card", "cards", "slot", "ply", "x")), inner)
    ),
    max_leaves=12,
)


@dataclass
class World:
    """Real objects to aim at: running matches of every game, and their ids."""

    match_ids: list[str]
    values: dict[str, list[str]]  # path parameter -> real values


@st.composite
def path_value(draw: st.DrawFn, endpoint: Endpoint, name: str, world: World) -> str:
    real = world.values.get(name, [])
    shaped = st.from_regex(endpoint.group_regex(name), fullmatch=True).filter(
        lambda value: "/" not in value
    )
    choices = [texts, shaped] + ([st.sampled_from(real)] * 2 if real else [])
    return draw(st.one_of(*choices))


@st.composite
def requests(draw: st.DrawFn, endpoint: Endpoint, world: World) -> dict:
    """One request: its path, query, and body (none, a form, a multipart form, JSON, bytes)."""
    values = {name: draw(path_value(endpoint, name, world)) for name in endpoint.params}
    path = "/" + endpoint.template % {name: quote(value, safe="") for name, value in values.items()}
    own = fields_read_by(endpoint.callback)
    names = st.one_of(
        *([st.sampled_from(own)] * 3 if own else []),
        st.sampled_from(field_names()),
        st.text(min_size=1, max_size=8),
    )
    real = st.sampled_from(world.match_ids + ["0", "1", str(draw(st.integers(0, 3)))])
    pairs = draw(st.lists(st.tuples(names, texts | real), max_size=6))
    query = draw(st.lists(st.tuples(names, texts), max_size=4))
    body = draw(st.sampled_from(("form", "multipart", "json", "json-junk", "bytes")))
    request = {"path": path, "query": query, "body": body, "pairs": pairs}
    request["htmx"] = draw(st.booleans())  # the board fragment's branches too
    if body == "json":
        document = draw(st.dictionaries(names, json_values | texts, max_size=5))
        if draw(st.booleans()):
            document.update(ply=draw(st.integers(0, 3)), move=draw(json_values))
        request["json"] = json.dumps(document)
    elif body == "json-junk":
        request["json"] = draw(st.sampled_from(JUNK_JSON_BODIES))
    elif body == "bytes":
        request["bytes"] = draw(st.binary(max_size=64))
    elif body == "multipart" and draw(st.booleans()):
        request["file"] = draw(st.binary(max_size=64) | st.sampled_from((DEEP_JSON.encode(),)))
    return request


# --- the fixtures: real players, real matches, real sessions and CSRF tokens -----------------


@pytest.fixture
def world(alice, bob, make_user, make_match) -> World:
    from arcana import services as arcana
    from arcana.default_pool import load_default_pool
    from arcana.models import ArcanaCard
    from banira.services import weekly_rollover
    from inbox.models import Notification
    from progression import services as progression

    # The data migration's pool; a transactional test before this one may have flushed it.
    load_default_pool(ArcanaCard)
    make_user("carol")  # the bystander
    dave = make_user("dave")
    dogblade = make_match(alice, bob, options=EXAMPLE_DEAL)
    others = [
        services.match_create(
            creator=alice,
            game_slug=game,
            others=[services.SeatSpec("player", username=user.username) for user in users],
        )
        for game, users in (
            ("haymaker", [bob]),
            ("grimhand", [bob]),
            ("shield", [bob, dave]),
            ("banira", []),
        )
    ]
    for match in others:
        for seat in match.seats.exclude(user=alice):
            services.match_join(match_id=match.pk, user=seat.user)
    arcana.starter_ensure(user=alice)
    deck = alice.arcana_decks.get()
    others.append(
        services.match_create(  # Grimhand Arcana with alice's deck, bob on the house's
            creator=alice,
            game_slug="grimhand",
            others=[services.SeatSpec("player", username=bob.username)],
            options=arcana.match_options(user=alice, deck_id=deck.pk, is_rated=True),
        )
    )
    services.match_join(match_id=others[-1].pk, user=bob)
    waiting = services.match_create(
        creator=bob, game_slug="dogblade", others=[services.SeatSpec("open")]
    )
    ids = [str(match.pk) for match in (dogblade, *others, waiting)]
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 6
    notification = Notification.objects.create(
        user=alice, kind="turn", text="Your turn", url="/", key="fuzz"
    )
    quests = progression.quests_today(user=alice)
    challenge = weekly_rollover()
    values = {
        "match_id": ids,
        "notification_id": [str(notification.pk)],
        "quest_id": [str(quest.pk) for quest in quests],
        "deck_id": [str(deck.pk)],
        "username": ["alice", "carol"],
        "week": [challenge.week_start.isoformat()] if challenge else [],
        "slug": ["dogblade", "haymaker", "banira", "shield", "grimhand"],
        "game": ["dogblade", "shield", "banira"],
        "object_id": ids + [str(alice.pk), "1"],
    }
    return World(match_ids=ids, values=values)


def _client(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    page = client.get("/verify/")  # a form: the real CSRF cookie
    assert page.status_code == 200
    return client


@pytest.fixture
def clients(world, alice, make_user) -> dict[str, Client]:
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    return {
        "anonymous": _client(),
        "seated": _client(alice),
        "bystander": _client(get_user_model().objects.get(username="carol")),
        "staff": _client(staff),
    }


def roles_for(endpoint: Endpoint) -> tuple[str, ...]:
    if endpoint.is_admin:
        return ("anonymous", "staff")
    return ("anonymous", "seated", "bystander")


def send(client: Client, method: str, request: dict):
    """The request, with the client's real CSRF token in the form and the header."""
    token = client.cookies["csrftoken"].value
    path = request["path"]
    if request["query"]:
        path += "?" + urlencode(request["query"], quote_via=quote)
    htmx = {"HTTP_HX_REQUEST": "true"} if request.get("htmx") else {}
    if method == "GET":
        return client.get(path, **htmx)
    headers = {"HTTP_X_CSRFTOKEN": token, **htmx}
    body = request["body"]
    if body in ("json", "json-junk"):
        return client.post(path, request["json"], content_type="application/json", **headers)
    if body == "bytes":
        return client.post(path, request["bytes"], content_type="text/plain", **headers)
    pairs = [*request["pairs"], ("csrfmiddlewaretoken", token)]
    if body == "form":
        encoded = urlencode(pairs, quote_via=quote)
        return client.post(
            path, encoded, content_type="application/x-www-form-urlencoded", **headers
        )
    data: dict[str, object] = {}
    for name, value in pairs:
        data.setdefault(name, []).append(value)  # type: ignore[union-attr]
    if "file" in request:
        data["file"] = SimpleUploadedFile("export.json", request["file"])
    return client.post(path, data, **headers)


def answer_of(client: Client, method: str, request: dict, *, sessions: dict) -> int:
    """Send in a savepoint rolled back afterwards, caches cleared: nothing one example
    does (a resignation, a move) changes what the next one meets."""
    client.cookies.update(sessions)  # a logout in an earlier example signed this client out
    try:
        with transaction.atomic():
            response = send(client, method, request)
            transaction.set_rollback(True)
    finally:
        cache.clear()
        replay.memo_clear()
        rendering.memo_clear()
    return response.status_code


# --- the tests -------------------------------------------------------------------------------


def _id(endpoint: Endpoint) -> str:
    return endpoint.template or "home"


def fuzz_endpoint(endpoint, world, clients, sessions, *, examples: int) -> None:
    """`examples` requests drawn by Hypothesis, each sent by every role, by GET and POST."""
    roles = roles_for(endpoint)

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(request=requests(endpoint, world))
    def fuzz(request):
        for role in roles:
            for method in ("GET", "POST"):
                status = answer_of(clients[role], method, request, sessions=sessions[role])
                assert status < 500, (endpoint.template, role, method, request["path"][:200])

    fuzz()


def sweep_known_junk(endpoint, world, clients, sessions) -> None:
    """Every request of `known_junk`, by the methods the view takes."""
    methods = {"GET", "POST"}
    for method in ("GET", "POST"):  # a method the view refuses (405) is not swept
        probe = real_request(endpoint, world)
        if answer_of(clients["seated"], method, probe, sessions=sessions["seated"]) == 405:
            methods.discard(method)
    for roles, method, request in known_junk(endpoint, world):
        if method not in methods:
            continue
        for role in roles:
            status = answer_of(clients[role], method, request, sessions=sessions[role])
            assert status < 500, (role, method, request["path"][:200], status)


# The known kinds of junk, sent to every pattern of this project whatever Hypothesis draws.
PATH_JUNK = ("-1", "0", "²", "١٢", "9" * 5000, "99999999999999999999", "x" * 300, "\x00")
FIELD_JUNK = (
    "²", "-1", "1e999", "NaN", "9" * 5000, "[" * 5000 + "]" * 5000, "\x00", "a\x1fb", "x" * 5000,
)  # fmt: skip


def known_junk(endpoint: Endpoint, world: World) -> Iterator[tuple[tuple[str, ...], str, dict]]:
    """(roles, method, request) of the deterministic sweep: each path value junk in turn
    (the others real), each junk JSON body, and each field the view reads junk in turn
    (the others "0", so the junk one is reached), in the query and in a multipart form; a
    form's fields all junk at once (a Django form reads each field on its own)."""
    every = roles_for(endpoint)
    request = functools.partial(real_request, endpoint, world)

    for name in endpoint.params:
        for junk in PATH_JUNK:
            for method in ("GET", "POST"):
                yield every, method, request({name: junk})
    for index, body in enumerate(JUNK_JSON_BODIES):
        yield ("seated",), "POST", request(body="json-junk", json=body, htmx=index % 2 == 0)
    fields, form_fields = _fields_read_by(endpoint.callback)
    for field in fields:
        for junk in FIELD_JUNK:
            pairs = [(other, "0") for other in fields if other != field] + [(field, junk)]
            yield ("seated",), "GET", request(query=pairs)
            yield ("seated",), "POST", request(pairs=pairs)
            yield ("seated",), "POST", request(pairs=pairs, htmx=True)
    for junk in FIELD_JUNK if form_fields else ():
        pairs = [(field, junk) for field in form_fields]
        yield ("seated",), "GET", request(query=pairs)
        yield ("seated",), "POST", request(pairs=pairs)


def real_request(endpoint: Endpoint, world: World, values=None, **extra) -> dict:
    """A request to `endpoint` with real path values (an existing match, ...), except
    `values`."""
    real = {name: (world.values.get(name) or ["1"])[0] for name in endpoint.params}
    path_values = {**real, **(values or {})}
    path = "/" + endpoint.template % {k: quote(v, safe="") for k, v in path_values.items()}
    return {"path": path, "query": [], "pairs": [], "body": "multipart", **extra}


OURS = [endpoint for endpoint in ENDPOINTS if endpoint.is_ours]
THEIRS = [endpoint for endpoint in ENDPOINTS if not endpoint.is_ours]


@pytest.mark.parametrize("endpoint", OURS, ids=_id)
def test_this_projects_pattern_never_answers_5xx(endpoint, world, clients):
    sessions = {role: _cookies(client) for role, client in clients.items()}
    sweep_known_junk(endpoint, world, clients, sessions)
    fuzz_endpoint(endpoint, world, clients, sessions, examples=FUZZ_EXAMPLES)


@pytest.mark.parametrize("package", ["admin", "allauth"])
def test_the_admin_and_allauth_never_answer_5xx(package, world, clients):
    """Their patterns, fewer examples each (one test, so one set of fixtures for all)."""
    sessions = {role: _cookies(client) for role, client in clients.items()}
    endpoints = [endpoint for endpoint in THEIRS if endpoint.is_admin == (package == "admin")]
    assert endpoints
    for endpoint in endpoints:
        fuzz_endpoint(endpoint, world, clients, sessions, examples=THIRD_PARTY_EXAMPLES)


def _cookies(client: Client):
    from http.cookies import SimpleCookie

    kept = SimpleCookie()
    for name, morsel in client.cookies.items():
        kept[name] = morsel.value
    return kept


def test_the_walk_finds_every_kind_of_endpoint():
    """The fuzz covers what the URLconf holds: this project's pages, the admin, allauth."""
    templates = {endpoint.template for endpoint in ENDPOINTS}
    assert {"matches/%(match_id)s/move/", "verify/", "players/%(username)s/"} <= templates
    assert any(template.startswith("admin/") for template in templates)
    assert "accounts/login/" in templates
    assert len(ENDPOINTS) > 200
    assert {"ply", "move", "move_id", "as", "cards", "deck_list", "days"} <= set(field_names())


# --- sockets ---------------------------------------------------------------------------------


def _socket_templates() -> list[tuple[str, tuple[str, ...], dict[str, str]]]:
    routes = []
    for route in websocket_urlpatterns:
        regex = _part(route.pattern, is_endpoint=True)
        template, params = normalize(regex)[0]
        endpoint = Endpoint(regex, template, tuple(params), route.callback)
        routes.append((template, tuple(params), {p: endpoint.group_regex(p) for p in params}))
    return routes


@st.composite
def socket_paths(draw: st.DrawFn, world: World) -> str:
    template, params, regexes = draw(st.sampled_from(_socket_templates()))
    values = {}
    for name in params:
        real = world.values.get(name, [])
        shaped = st.from_regex(regexes[name], fullmatch=True)
        values[name] = draw(st.one_of(texts, shaped, *([st.sampled_from(real)] if real else [])))
    if draw(st.integers(0, 5)) == 0:
        return "/" + draw(st.sampled_from(("ws/", "ws/nothing/", "", "ws/matches/")))
    return "/" + template % {name: quote(value, safe="") for name, value in values.items()}


@pytest.mark.django_db(transaction=True)  # consumers read the database from their thread
def test_no_socket_handshake_fails(world, alice, bob):
    """Each route, with real and junk ids, as each role: accepted, or refused with a close
    code (4404: no such route or match; 4401: not signed in), never an exception."""
    roles = [AnonymousUser(), alice, bob]

    async def handshake(path: str, user) -> tuple[bool, int | None]:
        communicator = WebsocketCommunicator(websocket_router, path)
        communicator.scope["user"] = user
        is_connected, code = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return is_connected, code

    @settings(
        max_examples=SOCKET_EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(path=socket_paths(world))
    def fuzz(path):
        for user in roles:
            is_connected, code = async_to_sync(handshake)(path, user)
            assert is_connected or code in (4401, 4404), (path[:100], user, code)

    fuzz()
