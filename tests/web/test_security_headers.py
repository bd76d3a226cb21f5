"""Security headers: the Content-Security-Policy on every page, no inline script anywhere
(the pages of all five games walked as each seat, a bystander and a stranger), HTTPS by
default with DEBUG=0 (HSTS, the redirect, secure cookies) but not for the health checks,
and `manage.py check --deploy` with production settings: 0 warnings (docs/security.md).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services
from games.engine import registry
from games.engine.banira.default_deck import DEFAULT_DECK
from games.models import Match

REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [REPO_ROOT / "templates", *REPO_ROOT.glob("*/templates")]


# --- what counts as inline script ---------------------------------------------------------


class InlineScriptFinder(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would block, or what this policy
    forbids: <script> without src, on* handler attributes, javascript: URLs, <style>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src") and not _is_data_block(names):
            self.found.append(f"<script> without src: {attrs}")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...> handler")
            if name.startswith("hx-on") or _is_htmx_eval(name, value or ""):
                self.found.append(f"<{tag} {name}=...> (htmx eval)")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")


def _is_htmx_eval(name: str, value: str) -> bool:
    """htmx runs these through eval (refused: `allowEval` is off and the policy has no
    'unsafe-eval'): a trigger's event filter `click[ctrlKey]`, `js:` values."""
    if name in ("hx-trigger", "data-hx-trigger"):
        return "[" in value
    if name in ("hx-vals", "hx-vars", "hx-headers", "data-hx-vals"):
        return value.strip().lower().startswith(("js:", "javascript:")) or name == "hx-vars"
    return False


def _is_data_block(attrs: dict[str, str | None]) -> bool:
    """A JSON data block (`json_script`) is not run by the browser."""
    return (attrs.get("type") or "").lower() in {"application/json", "application/ld+json"}


def inline_script_in(html: str) -> list[str]:
    finder = InlineScriptFinder()
    finder.feed(html)
    return finder.found


def test_the_finder_finds_what_it_must():
    """The checker itself: each kind of inline script is caught, the allowed forms are not."""
    assert inline_script_in('<script>alert(1)</script><select onchange="x()">') == [
        "<script> without src: []",
        "<select onchange=...> handler",
    ]
    assert inline_script_in('<a href=" JavaScript:go()">x</a><style>a{}</style>')
    assert inline_script_in('<div hx-on:click="x()"></div>')
    assert inline_script_in("<div hx-trigger=\"every 9s, keyup[key=='Enter'] from:body\">")
    assert inline_script_in("<div hx-vals='js:{a: go()}'></div>")
    assert not inline_script_in(
        '<script src="/static/a.js" defer></script><span style="--i: 1" data-on="x">'
        '<div hx-trigger="every 30s, page-visible from:document" hx-vals=\'{"a": 1}\'>'
        '<script type="application/json" id="d">{}</script>'
    )


def test_no_template_holds_inline_script():
    """Every template, rendered or not (emails excepted: no browser runs their scripts,
    and mail clients need their inline styles)."""
    offenders = {}
    for directory in TEMPLATE_DIRS:
        for template in directory.rglob("*.html"):
            if "email" in template.parts:
                continue
            found = inline_script_in(template.read_text())
            if found:
                offenders[str(template.relative_to(REPO_ROOT))] = found
    assert not offenders


# --- the pages, walked ---------------------------------------------------------------------


def _assert_clean(response, url: str) -> None:
    assert response.status_code < 500, url
    policy = response.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy, url
    if response.get("Content-Type", "").startswith("text/html"):
        found = inline_script_in(response.content.decode())
        assert not found, (url, found)


def _play_random_moves(match: Match, users_by_seat: dict[int, object], moves: int, rng) -> None:
    game = registry.get(match.game)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or not match.seats_to_act:
            return
        seat = match.seats_to_act[0]
        state = selectors.match_position(match=match).state
        move = rng.choice(game.legal_moves(state, seat))
        with services.automation_paused():
            services.move_submit(
                match_id=match.pk, user=users_by_seat[seat], ply=match.ply, move=move
            )


def _walk_match(client, match: Match, viewers: list, url_tail: list[str]) -> None:
    for viewer in viewers:
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        for tail in url_tail:
            url = f"/matches/{match.pk}/{tail}"
            _assert_clean(client.get(url), url)
            if tail.startswith("board"):
                htmx = client.get(url, headers={"HX-Request": "true", "HX-Target": "board"})
                _assert_clean(htmx, url + " (htmx)")


GAMES = {
    "dogblade": 2,
    "grimhand": 2,
    "haymaker": 2,
    "shield": 3,
    "banira": 1,
}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_board_is_free_of_inline_script_at_every_step(client, make_user, slug):
    """A match of each game played with random legal moves: the page, the board (plain and
    htmx) and the history as every seat, a bystander and a stranger, at several plies;
    then the finished match, its history and export."""
    rng = random.Random(f"csp-{slug}")
    players = [make_user() for _ in range(GAMES[slug])]
    bystander = make_user()
    others = [services.SeatSpec(kind="player", username=user.username) for user in players[1:]]
    options = {"deck": DEFAULT_DECK} if slug == "banira" else None
    with services.automation_paused():
        match = services.match_create(
            creator=players[0], game_slug=slug, others=others, options=options
        )
        for user in players[1:]:
            services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    seats = {seat.index: seat.user for seat in match.seats.all()}
    viewers = [*players, bystander, None]
    for _ in range(3):
        _walk_match(client, match, viewers, ["", "board/", "history/"])
        _play_random_moves(match, seats, moves=4, rng=rng)

    for player in players:  # Shield plays on without one who resigns: all but one do
        match.refresh_from_db()
        if match.status == Match.Status.ACTIVE:
            with services.automation_paused():
                services.match_resign(match_id=match.pk, user=player)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    _walk_match(client, match, viewers, ["", "board/", "history/", "history/?as=revealed"])


def test_the_site_pages_are_free_of_inline_script(client, make_user, alice, bob, make_match):
    """The pages around the games, as a stranger, a player, and staff in the admin."""
    match = make_match(alice, bob)
    pages = [
        "/",
        "/play/",
        "/tables/",
        "/verify/",
        "/leaderboards/",
        "/banira/",
        "/players/alice/",
        "/games/dogblade/rules/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/no-such-page/",
        f"/matches/{match.pk}/",
    ]
    for url in pages:
        _assert_clean(client.get(url), url)
    client.force_login(alice)
    for url in [
        *pages,
        "/matches/",
        "/profile/",
        "/progress/",
        "/progress/season/",
        "/progress/collection/",
        "/progress/achievements/",
        "/notifications/",
        "/notifications/settings/",
        "/accounts/password/change/",
        "/accounts/email/",
    ]:
        _assert_clean(client.get(url), url)
    _assert_clean(client.post("/verify/", {"export": "{not json"}), "/verify/ (POST)")
    staff = get_user_model().objects.create_superuser("boss", "boss@example.com", "x" * 12)
    client.force_login(staff)
    for url in ["/admin/", "/admin/games/match/", f"/admin/games/match/{match.pk}/change/"]:
        _assert_clean(client.get(url), url)


@pytest.mark.parametrize("url", ["/players/a%00b/", "/play/?game=grim%01hand"])
def test_a_request_refused_for_its_input_carries_the_policy_too(client, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "script-src" in response.get("Content-Security-Policy", "")


def test_the_policy_allows_no_inline_or_eval_script_and_no_framing(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src-elem"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in directives["default-src"] + directives["connect-src"]


# --- HTTPS ----------------------------------------------------------------------------------


def test_plain_http_is_redirected_but_not_the_health_checks_nor_metrics(settings, client):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000

    response = client.get("/play/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/play/"
    for url in ("/healthz/live", "/healthz"):
        assert client.get(url).status_code in (200, 503), url  # answered, never redirected
    assert client.get("/metrics").status_code != 301  # closed here (404), but not redirected
    assert client.get("/healthz/live/x").status_code == 301  # only those paths
    secure = client.get("/", secure=True)
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"].startswith("max-age=31536000")


def _production_settings(**env_overrides: str) -> dict:
    """Settings as a production process would see them, read in a fresh interpreter."""
    names = [
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_REDIRECT_EXEMPT",
    ]
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {names!r}}}))"
    )
    env = _production_env(**env_overrides)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _production_env(**overrides: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SECURE_", "CSP_")) and key != "DEBUG"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="cardhall.example",
    )
    env.update(overrides)
    return env


def test_with_debug_off_https_is_on_unless_turned_off():
    production = _production_settings()
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production["SESSION_COOKIE_SECURE"] and production["CSRF_COOKIE_SECURE"]
    assert production["SECURE_PROXY_SSL_HEADER"] is None

    plain = _production_settings(SECURE_HTTPS="0")
    assert plain["SECURE_SSL_REDIRECT"] is False
    assert plain["SECURE_HSTS_SECONDS"] == 0
    assert not plain["SESSION_COOKIE_SECURE"] and not plain["CSRF_COOKIE_SECURE"]

    proxied = _production_settings(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
    assert proxied["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]

    assert _production_settings(DEBUG="1")["SECURE_SSL_REDIRECT"] is False


def _check_deploy(**env_overrides: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=_production_env(**env_overrides),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_with_production_settings_has_no_warning():
    result = _check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues (0 silenced)" in result.stdout


def test_check_deploy_warns_when_https_is_turned_off():
    """The check above can fail: turning HTTPS off is exactly what it warns about."""
    result = _check_deploy(SECURE_HTTPS="0")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stderr + result.stdout


# --- violation reports ----------------------------------------------------------------------

CHROME_REPORT = {
    "csp-report": {
        "document-uri": "https://cardhall.example/matches/7/",
        "referrer": "",
        "violated-directive": "script-src-elem",
        "effective-directive": "script-src-elem",
        "original-policy": "default-src 'self'; report-uri /csp-report",
        "disposition": "enforce",
        "blocked-uri": "inline",
        "line-number": 14,
        "source-file": "https://cardhall.example/matches/7/",
        "status-code": 200,
        "script-sample": "",
    }
}


def _report(client, body, content_type="application/csp-report"):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post("/csp-report", data, content_type=content_type)


def test_the_policy_sends_reports_to_the_site(client):
    assert "report-uri /csp-report" in client.get("/")["Content-Security-Policy"]


@pytest.mark.django_db
def test_a_violation_report_is_logged(client, caplog):
    response = _report(client, CHROME_REPORT)  # no CSRF token: browsers send none
    assert response.status_code == 204
    assert "csp violation: script-src-elem blocked inline on" in caplog.text
    assert "/matches/7/" in caplog.text


@pytest.mark.django_db
def test_reports_caused_by_browser_extensions_are_dropped(client, caplog):
    extension = {"csp-report": {**CHROME_REPORT["csp-report"]}}
    extension["csp-report"]["source-file"] = "chrome-extension://abcdef/inject.js"
    assert _report(client, extension).status_code == 204
    assert "csp violation" not in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        "",
        "{not json",
        "[1, 2]",
        '{"csp-report": "inline"}',
        "[" * 5_000 + "]" * 5_000,
        json.dumps({"csp-report": {"blocked-uri": "x" * 20_000}}),
        '{"csp-report": {"blocked-uri": "\\u0000"}}',
        b"\xff\xfe",
    ],
)
def test_an_unreadable_report_is_a_400_and_logs_nothing(client, caplog, body):
    response = _report(client, body)
    assert response.status_code == 400
    assert response.content  # a sentence, not an empty error
    assert "csp violation" not in caplog.text


@pytest.mark.django_db
def test_reports_are_posted_only(client):
    assert client.get("/csp-report").status_code == 405
