"""Rate limits on every write (config/ratelimit.py): per user and per IP, a 429 a person can
read, htmx's notice, `Retry-After`, the URLconf covered without decorators, defaults a fast
player never meets, and failing open when the cache does not answer.

The suite runs with the limits off (tests/conftest.py); every test here turns them on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, path

from config import ratelimit
from games.models import Move
from tests.conftest import EXAMPLE_DEAL
from tests.realtime.live_redis import REDIS_SERVER, needs_redis, throwaway_redis
from web.urls import urlpatterns as site_urlpatterns

ATTACK = json.dumps({"type": "attack"})


@pytest.fixture
def limits(settings, ratelimit_clock):
    """Limits on, every group at a generous rate; a test lowers the one it looks at. The
    limits' clock stands still, so no test's requests straddle a window's end."""
    settings.RATELIMIT_ENABLE = True
    settings.RATE_LIMITS = {
        group: {"user": "1000/m", "ip": "1000/m"} for group in settings.RATE_LIMITS
    }
    return settings.RATE_LIMITS


@pytest.fixture
def match(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)  # seat 0, alice, moves first


def post_move(client, match, *, ply, htmx=False):
    headers = {"HX-Request": "true", "HX-Target": "board"} if htmx else {}
    return client.post(f"/matches/{match.pk}/move/", {"ply": ply, "move": ATTACK}, headers=headers)


def test_a_move_over_the_user_limit_is_a_readable_429_and_writes_nothing(
    client, limits, match, alice
):
    limits["move"]["user"] = "2/m"
    client.force_login(alice)
    for _ in range(2):  # stale moves count too: every POST does
        assert post_move(client, match, ply=99).status_code == 409

    response = post_move(client, match, ply=match.ply)

    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    page = response.content.decode()
    assert "Too many attempts" in page and "faster than the hall allows" in page
    assert '<main id="main">' in page  # the site's own layout, not a bare error
    assert not Move.objects.filter(match=match).exists()


def test_htmx_gets_a_notice_swapped_into_the_page_not_over_the_board(client, limits, match, alice):
    limits["move"]["user"] = "1/m"
    client.force_login(alice)
    post_move(client, match, ply=99, htmx=True)

    response = post_move(client, match, ply=match.ply, htmx=True)

    assert response.status_code == 429
    assert response["HX-Retarget"] == "#site-notices"
    assert response["HX-Reswap"] == "innerHTML"
    fragment = response.content.decode()
    assert 'data-testid="rate-limited"' in fragment and "<html" not in fragment
    assert f'data-retry-after="{response["Retry-After"]}"' in fragment
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'id="site-notices"' in page  # every page has the place the notice goes


def test_a_json_client_gets_json(client, limits, match, alice):
    limits["move"]["user"] = "1/m"
    client.force_login(alice)
    post_move(client, match, ply=99)

    response = client.post(
        f"/matches/{match.pk}/move/",
        {"ply": match.ply, "move": ATTACK},
        headers={"Accept": "application/json"},
    )

    assert response.status_code == 429
    assert response.json()["retry_after"] == int(response["Retry-After"])
    assert "Wait" in response.json()["error"]


def test_the_ip_limit_is_shared_by_everyone_behind_one_address(
    client, limits, match, alice, bob, make_user
):
    limits["move"]["ip"] = "3/m"
    for user in (alice, bob, make_user()):
        client.force_login(user)
        assert post_move(client, match, ply=99).status_code != 429

    client.force_login(bob)
    assert post_move(client, match, ply=99).status_code == 429
    # Another address is not affected.
    response = client.post(
        f"/matches/{match.pk}/move/", {"ply": 99, "move": ATTACK}, REMOTE_ADDR="203.0.113.9"
    )
    assert response.status_code == 409


def test_groups_are_counted_apart_and_reads_are_not_counted(client, limits, match, alice):
    limits["move"]["user"] = "1/m"
    client.force_login(alice)
    assert post_move(client, match, ply=99).status_code == 409
    for _ in range(5):
        assert client.get(f"/matches/{match.pk}/board/").status_code == 200
        assert client.get(match.get_absolute_url()).status_code == 200
    # A pause is in "write", not "move": the move limit does not hold it back.
    assert client.post(f"/matches/{match.pk}/pause/").status_code != 429
    assert post_move(client, match, ply=99).status_code == 429


def test_the_card_preview_is_counted_though_it_is_a_get(client, limits, alice, bob):
    from games import services

    limits["preview"]["user"] = "2/m"
    match = services.match_create(
        creator=alice, game_slug="haymaker", opponent="player", invitee_username=bob.username
    )
    services.match_join(match_id=match.pk, user=bob)
    client.force_login(alice)
    url = f"/matches/{match.pk}/preview/"
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]


def test_csp_reports_are_counted_apart_from_the_players_writes(client, limits, match, alice):
    """A browser that reports a lot (an extension at work) never uses up its player's
    budget for moves."""
    limits["report"]["user"] = "1/m"
    limits["move"]["user"] = "1/m"
    client.force_login(alice)
    report = json.dumps({"csp-report": {"blocked-uri": "inline"}})
    statuses = [
        client.post("/csp-report", report, content_type="application/csp-report").status_code
        for _ in range(2)
    ]
    assert statuses == [204, 429]
    assert post_move(client, match, ply=99).status_code == 409


def test_anonymous_writes_count_per_ip(client, limits):
    limits["verify"]["ip"] = "2/m"
    statuses = [client.post("/verify/", {"export": "{not json"}).status_code for _ in range(3)]
    assert 429 not in statuses[:2] and statuses[2] == 429


# --- every write endpoint, without anyone listing it ---------------------------------------


def _new_write_endpoint(request):
    return HttpResponse("written", status=201)


urlpatterns = [
    path("brand-new/endpoint/", _new_write_endpoint, name="brand_new"),
    *site_urlpatterns,
]


@override_settings(ROOT_URLCONF=__name__)
def test_a_new_write_endpoint_is_limited_without_a_decorator(client, limits):
    limits["write"]["ip"] = "2/m"
    statuses = [client.post("/brand-new/endpoint/").status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    for method in ("put", "patch", "delete"):
        assert getattr(client, method)("/brand-new/endpoint/").status_code == 429
    assert client.get("/brand-new/endpoint/").status_code == 201  # reads are not counted


def _every_view_name(resolver: URLResolver, prefix: str = "") -> list[str]:
    names = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            names += _every_view_name(entry, namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            names.append(prefix + entry.name)
    return names


def test_every_url_of_the_site_is_counted_for_every_unsafe_method():
    """Walks the URLconf: whatever its URL, a POST/PUT/PATCH/DELETE has a group."""
    rf = RequestFactory()
    names = _every_view_name(get_resolver())
    assert len(names) > 50  # the walk found the site
    for name in names:
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            request = rf.generic(method, "/")
            request.resolver_match = mock.Mock(view_name=name)
            assert ratelimit.group_of(request) is not None, (name, method)
    assert not set(ratelimit.GROUPS) - set(names), "GROUPS names a URL that does not exist"


# --- the defaults ---------------------------------------------------------------------------


def _player_request(user_pk: int = 1):
    request = RequestFactory().post("/matches/1/move/")
    request.user = mock.Mock(is_authenticated=True, pk=user_pk)
    return request


def _moves_limited(*, per_second: float, seconds: int, start: float = 1_800_000_000.0) -> int:
    """Posts `per_second` moves for `seconds` (on a simulated clock) through the default
    move limits; how many were refused."""
    refused = 0
    request = _player_request()
    with mock.patch("django_ratelimit.core.time.time") as clock:
        for step in range(int(seconds * per_second)):
            clock.return_value = start + step / per_second
            refused += ratelimit.seconds_to_wait(request, ratelimit.MOVE) is not None
    return refused


@pytest.mark.parametrize("start_offset", [0.0, 17.0, 59.5])
def test_a_fast_player_never_meets_the_default_move_limit(settings, start_offset):
    """A move every second for five minutes, wherever the minute windows fall; and a
    burst of 100 moves in a minute (a bot, not a person) is still let through."""
    settings.RATELIMIT_ENABLE = True
    assert settings.RATE_LIMITS["move"]["user"] == "120/m", "defaults changed: re-check"
    start = 1_800_000_000 + start_offset
    assert _moves_limited(per_second=1, seconds=300, start=start) == 0
    assert _moves_limited(per_second=100 / 60, seconds=60, start=start + 600) == 0


def test_the_default_move_limit_holds_a_script_back(settings):
    settings.RATELIMIT_ENABLE = True
    assert _moves_limited(per_second=5, seconds=120) >= 240  # 600 posted, 120 a minute pass


@needs_redis
def test_on_redis_both_counters_of_a_write_count_in_one_round_trip_as_get_usage_counts(
    limits, ratelimit_clock
):
    """The site's Redis cache counts a write's two counters (user, IP) in one pipeline, in
    django-ratelimit's own windows and keys: `get_usage` reads the same counts, and the
    limit and its Retry-After are the same. With Redis gone, writes go through."""
    from django_ratelimit.core import get_usage

    limits["move"] = {"user": "3/m", "ip": "5/m"}
    request = _player_request(user_pk=7)
    request.META["REMOTE_ADDR"] = "203.0.113.9"
    with throwaway_redis() as redis_server:
        caches = {
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "limits": {"BACKEND": "config.cache.SharedRedisCache", "LOCATION": redis_server.url},
        }
        with override_settings(CACHES=caches, RATELIMIT_USE_CACHE="limits"):
            from django.core.cache import caches as django_caches

            assert hasattr(django_caches["limits"], "count_in_windows")
            waits = [ratelimit.seconds_to_wait(request, ratelimit.MOVE) for _ in range(4)]
            assert waits[:3] == [None, None, None]
            assert waits[3] is not None and 1 <= waits[3] <= 60

            def counted(per: str, rate: str, value: str) -> int:
                usage = get_usage(request, group=f"move:{per}", key=lambda _g, _r: value, rate=rate)
                return usage["count"]

            assert counted("user", "3/m", "u7") == 4
            assert counted("ip", "5/m", "203.0.113.9") == 4
            import redis

            pipelines = mock.patch.object(
                redis.client.Pipeline, "execute", autospec=True,
                side_effect=redis.client.Pipeline.execute,
            )  # fmt: skip
            alone = mock.patch.object(
                redis.Redis, "execute_command", autospec=True,
                side_effect=redis.Redis.execute_command,
            )  # fmt: skip
            with pipelines as pipeline_runs, alone as single_commands:
                ratelimit.seconds_to_wait(request, ratelimit.MOVE)
            assert pipeline_runs.call_count == 1 and single_commands.call_count == 0

            redis_server.stop()  # the production cache fails soft: the write goes through
            assert ratelimit.seconds_to_wait(request, ratelimit.MOVE) is None


# --- the cache down -------------------------------------------------------------------------


@needs_redis
def test_limits_fail_open_when_redis_is_down_and_come_back_with_it(
    client, limits, match, alice, caplog, monkeypatch
):
    """The limits' Redis (a throwaway redis-server) is stopped: requests go through, a
    warning is logged, nothing answers 500; started again on the same port, the limits
    hold again once the pause after the failure is over."""
    monkeypatch.setattr(ratelimit, "RETRY_PAUSE_SECONDS", 0.5)
    limits["move"]["user"] = "2/m"
    client.raise_request_exception = False
    client.force_login(alice)
    with throwaway_redis() as redis_server:
        caches = {
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "limits": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": redis_server.url,
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            },
        }
        with override_settings(CACHES=caches, RATELIMIT_USE_CACHE="limits"):
            statuses = [post_move(client, match, ply=99).status_code for _ in range(3)]
            assert statuses == [409, 409, 429]

            redis_server.stop()
            statuses = [post_move(client, match, ply=99).status_code for _ in range(5)]
            assert statuses == [409] * 5  # let through, none refused, no 500
            assert "rate limits skipped" in caplog.text

            with restarted_redis(redis_server.port):
                time.sleep(0.6)  # the pause after the failure is over
                statuses = [post_move(client, match, ply=99).status_code for _ in range(3)]
    assert statuses == [409, 409, 429]  # a fresh Redis: counting starts again


@contextmanager
def restarted_redis(port: int):
    """redis-server again on `port` (no persistence), stopped on the way out."""
    import redis

    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis(port=port, socket_timeout=1) as probe:
                    probe.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline and process.poll() is None, "no redis"
                time.sleep(0.05)
        yield
    finally:
        process.kill()
        process.wait(timeout=10)


def test_a_request_without_an_address_is_counted_per_user_only(limits):
    limits["move"]["user"] = "1/m"
    request = _player_request(user_pk=7)
    request.META["REMOTE_ADDR"] = ""
    assert ratelimit.client_ip(request) == ""
    assert ratelimit.seconds_to_wait(request, ratelimit.MOVE) is None
    assert ratelimit.seconds_to_wait(request, ratelimit.MOVE) is not None
    anonymous = RequestFactory().post("/verify/", REMOTE_ADDR="")
    anonymous.user = AnonymousUser()
    assert ratelimit.seconds_to_wait(anonymous, ratelimit.VERIFY) is None


def test_ipv6_addresses_are_counted_by_their_64(limits):
    limits["verify"]["ip"] = "1/m"
    first = RequestFactory().post("/verify/", REMOTE_ADDR="2001:db8:1:2::1")
    second = RequestFactory().post("/verify/", REMOTE_ADDR="2001:db8:1:2:ffff::9")
    for request in (first, second):
        request.user = AnonymousUser()
    assert ratelimit.client_ip(first) == "2001:db8:1:2::"
    assert ratelimit.seconds_to_wait(first, ratelimit.VERIFY) is None
    assert ratelimit.seconds_to_wait(second, ratelimit.VERIFY) is not None


# --- the admin login --------------------------------------------------------------------


@pytest.fixture
def staff(make_user):
    user = make_user("boss", password="Admin-Lantern-4821")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def test_the_admin_logs_in_through_the_site_login(client, staff):
    response = client.get("/admin/", follow=True)
    assert response.redirect_chain[-1][0] == "/accounts/login/?next=%2Fadmin%2F"

    response = client.post(
        response.redirect_chain[-1][0],
        {"login": "boss", "password": "Admin-Lantern-4821"},
        follow=True,
    )
    assert response.status_code == 200
    assert response.request["PATH_INFO"] == "/admin/"
    assert "Site administration" in response.content.decode()


def test_a_player_who_is_not_staff_is_refused_by_the_admin(client, alice):
    client.force_login(alice)
    assert client.get("/admin/login/").status_code == 403


def test_repeated_admin_login_failures_lock_the_account_with_a_readable_page(client, staff):
    """allauth's limits are on in the suite (ACCOUNT_RATE_LIMITS): after five failures the
    right password is refused too, with a message a person can read."""
    login_page = client.get("/admin/login/?next=/admin/", follow=True).redirect_chain[-1][0]
    for _ in range(5):
        response = client.post(login_page, {"login": "boss", "password": "guess"})
        assert response.status_code == 200

    response = client.post(login_page, {"login": "boss", "password": "Admin-Lantern-4821"})

    assert response.status_code == 200
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still not in


@pytest.mark.django_db
def test_allauth_429s_use_the_same_readable_page_with_retry_after(client):
    for attempt in range(30):
        client.post("/accounts/login/", {"login": f"nobody{attempt}", "password": "x"})

    response = client.post("/accounts/login/", {"login": "nobody", "password": "x"})

    assert response.status_code == 429
    assert response["Retry-After"] == "60"
    assert "Too many attempts" in response.content.decode()


def test_turning_the_limits_off_turns_allauths_off_too():
    """RATELIMIT_ENABLE=0 (the live test servers) is every limit, allauth's included: one
    browser-test session signs up more than 20 accounts a minute from 127.0.0.1."""
    code = "from django.conf import settings; print(repr(settings.ACCOUNT_RATE_LIMITS))"
    root = Path(__file__).resolve().parents[2]
    shown = {}
    for value in ("0", "1"):
        env = os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings", "RATELIMIT_ENABLE": value}
        result = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        shown[value] = result.stdout.strip()
    assert shown["0"] == "False" and "'signup': '20/m/ip'" in shown["1"]
