"""GET /metrics: closed to the public, and showing what an operator needs (move latency,
push lag, queue depth, pool use, open sockets, errors by kind) from every process.

Most tests make real requests through the test client and read the endpoint the way
Prometheus does; values are compared before and after, since other tests count too. The
live test runs the production shape: uvicorn with 2 workers and a real Celery worker
sharing one PROMETHEUS_MULTIPROC_DIR, on a throwaway redis-server as channel layer,
cache and broker.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from config.metrics import SocketMetrics
from config.overload import ConcurrencyLimit
from games import services
from games.routing import websocket_urlpatterns
from tests.conftest import requires_postgres
from tests.live import live_celery_worker, manage
from tests.operations import faulty
from tests.realtime.live_redis import REDIS_SERVER, production_server, throwaway_redis

TOKEN = "scrape-me-" + uuid.uuid4().hex
BEARER = {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}
THREE_EACH = {"deal": {"decks": [[[50, 60], [9990, 9980]], [[30, 120], [9970, 9960]]], "first": 0}}
WAIT = 30.0  # seconds: a bound on every wait (a slow shared machine), never a timing tested

# A throwaway redis-server of the test's own; in CI with Redis (CI_STRICT and REDIS_URL, as
# tests/realtime/live_redis.py), a missing redis-server is a failure, not a skip.
needs_redis_server = pytest.mark.skipif(
    REDIS_SERVER is None and not (os.environ.get("CI_STRICT") and os.environ.get("REDIS_URL")),
    reason="needs redis-server installed (a throwaway Redis of the test's own)",
)


Samples = dict[tuple[str, frozenset], float]


def parse(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def own(name: str, **labels: str) -> float:
    """A value of this process's registry, without a request."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def scrape(client, settings):
    """Read /metrics as Prometheus does (with the token)."""
    settings.METRICS_TOKEN = TOKEN

    def read() -> Samples:
        response = client.get("/metrics", **BEARER)
        assert response.status_code == 200, response.content[:500]
        assert response["Content-Type"].startswith("text/plain")
        return parse(response.content.decode())

    return read


# --- closed to the public --------------------------------------------------------------------


def test_closed_until_a_token_or_a_network_is_set(settings):
    client = Client(enforce_csrf_checks=True)  # as a browser, or a stranger, meets it
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_NETWORKS = "", []
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", **BEARER).status_code == 404
    assert client.post("/metrics", **BEARER).status_code == 404  # not even a 405


def test_only_reads_once_let_in(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_NETWORKS = TOKEN, []
    assert client.post("/metrics").status_code == 403
    assert client.post("/metrics", **BEARER).status_code == 405
    assert client.head("/metrics", **BEARER).status_code == 200


def test_a_bearer_token_opens_it(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_NETWORKS = TOKEN, []
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION=TOKEN).status_code == 403  # no scheme
    response = client.get("/metrics", **BEARER)
    assert response.status_code == 200
    assert b"cardhall_http_responses_total" in response.content
    assert "no-store" in response["Cache-Control"]


def test_an_allow_list_of_networks_opens_it(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_NETWORKS = "", ["10.0.0.0/8", "::1/128"]
    assert client.get("/metrics").status_code == 404  # the test client is 127.0.0.1
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.5").status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::ffff:10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="::1").status_code == 200


def test_with_both_both_are_needed(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_NETWORKS = TOKEN, ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1", **BEARER).status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3", **BEARER).status_code == 200


def test_scrapes_over_plain_http_are_not_redirected(client, settings):
    settings.METRICS_TOKEN, settings.SECURE_SSL_REDIRECT = TOKEN, True  # as with DEBUG=0
    assert client.get("/metrics", **BEARER).status_code == 200
    assert client.get("/tables/").status_code == 301  # every page else goes to HTTPS


def test_a_bad_network_in_the_environment_stops_the_settings():
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; settings.METRICS_TOKEN"],
        env=os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings",
                          "METRICS_ALLOWED_NETWORKS": "10.0.0.0/8,not-a-network"},
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert "METRICS_ALLOWED_NETWORKS" in result.stderr and "not-a-network" in result.stderr


# --- what it shows -----------------------------------------------------------------------


def test_a_move_post_and_move_submit_are_timed(client, scrape, alice, bob, make_match):
    match = make_match(alice, bob, THREE_EACH)
    client.force_login(alice)
    url = f"/matches/{match.pk}/move/"
    move = {"ply": 0, "move": {"type": "attack"}, "move_id": uuid.uuid4().hex}
    before = scrape()

    played = client.post(url, move, content_type="application/json")
    stale = client.post(url, move | {"move_id": uuid.uuid4().hex}, content_type="application/json")
    junk = client.post(url, b"{not json", content_type="application/json")

    after = scrape()
    assert played.status_code in (200, 302), played.content[:500]
    assert stale.status_code == 409 and junk.status_code == 400

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("cardhall_move_request_seconds_count") == 3
    assert grew("cardhall_move_request_seconds_sum") > 0
    assert grew("cardhall_move_submit_seconds_count", outcome="committed") == 1
    assert grew("cardhall_move_submit_seconds_count", outcome="refused") == 1  # stale
    assert grew("cardhall_move_submit_seconds_count", outcome="failed") == 0
    assert grew("cardhall_http_responses_total", status="409") == 1
    assert grew("cardhall_errors_total", kind="bad_request") == 1
    assert grew("cardhall_errors_total", kind="server_error") == 0
    # The histogram's buckets are cumulative, and the largest holds every move.
    assert grew("cardhall_move_request_seconds_bucket", le="+Inf") == 3


@pytest.mark.urls("tests.operations.faulty")
def test_errors_are_counted_by_kind(client, scrape, db):
    client.raise_request_exception = False
    before = scrape()
    assert client.get("/faulty/crash/").status_code == 500
    assert client.get("/faulty/database-gone/").status_code == 503
    assert client.get("/faulty/status/429/").status_code == 429
    assert client.get("/faulty/status/400/").status_code == 400
    assert client.get("/faulty/status/502/").status_code == 502
    assert client.get("/faulty/status/404/").status_code == 404
    assert client.get("/healthz").status_code == 200  # probes are not counted
    after = scrape()

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("cardhall_errors_total", kind="server_error") == 2  # the 500 and the 502
    assert grew("cardhall_errors_total", kind="overloaded") == 1
    assert grew("cardhall_errors_total", kind="rate_limited") == 1
    assert grew("cardhall_errors_total", kind="bad_request") == 1
    assert grew("cardhall_http_responses_total", status="404") == 1
    assert grew("cardhall_http_responses_total", status="200") == 0  # /healthz, /metrics


@pytest.mark.asyncio
async def test_the_concurrency_cap_counts_its_503s():
    async def held(scope, receive, send):
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def call() -> None:
        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(message):
            statuses.append(message.get("status"))

        await app({"type": "http", "path": "/tables/", "headers": []}, receive, send)

    release, statuses = asyncio.Event(), []
    app = ConcurrencyLimit(held, limit=1, queue_seconds=0.05)
    before = own("cardhall_errors_total", kind="overloaded")
    first = asyncio.create_task(call())
    await asyncio.sleep(0.01)
    await call()  # finds the only slot taken: refused before Django
    release.set()
    await asyncio.wait_for(first, WAIT)
    assert 503 in statuses and 200 in statuses
    assert own("cardhall_errors_total", kind="overloaded") == before + 1


def test_tasks_are_timed_and_their_failures_counted(scrape, db):
    before = scrape()
    faulty.says_something.delay()
    # As a worker runs it: the failure is recorded, not raised. (Eager Celery raises it
    # into the request instead, which counts as a server error.)
    assert faulty.fails_on_purpose.apply(throw=False).failed()
    after = scrape()
    failing = "tests.operations.faulty.fails_on_purpose"
    fine = "tests.operations.faulty.says_something"
    assert value(after, "cardhall_errors_total", kind="task_failed") == (
        value(before, "cardhall_errors_total", kind="task_failed") + 1
    )
    assert value(after, "cardhall_task_seconds_count", task=fine) == (
        value(before, "cardhall_task_seconds_count", task=fine) + 1
    )
    assert value(after, "cardhall_task_seconds_count", task=failing) == (
        value(before, "cardhall_task_seconds_count", task=failing) + 1
    )


def test_dependencies_are_reported_up(scrape, db):
    samples = scrape()
    assert value(samples, "cardhall_dependency_up", dependency="database") == 1
    assert value(samples, "cardhall_dependency_up", dependency="channel_layer") == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_open_sockets_and_push_lag(alice, bob, make_match):
    """Real match sockets through SocketMetrics: counted while open; a move's pushes to
    them are timed."""
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    app = SocketMetrics(URLRouter(websocket_urlpatterns))
    before_open = own("cardhall_open_sockets", route="match")
    before_pushes = own("cardhall_push_lag_seconds_count")

    sockets = []
    for user in (alice, bob, AnonymousUser()):
        socket = WebsocketCommunicator(app, f"/ws/matches/{match.pk}/")
        socket.scope["user"] = user
        assert (await socket.connect(timeout=5))[0]
        await socket.receive_from(timeout=5)  # the hello
        sockets.append(socket)
    assert own("cardhall_open_sockets", route="match") == before_open + 3

    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )
    for socket in sockets:
        assert 'data-ply="1"' in await socket.receive_from(timeout=5)
    assert own("cardhall_push_lag_seconds_count") == before_pushes + 3  # 2 seats, spectators

    refused = WebsocketCommunicator(app, "/ws/matches/999999999/")
    refused.scope["user"] = alice
    assert not (await refused.connect(timeout=5))[0]  # never accepted: never counted
    assert own("cardhall_open_sockets", route="match") == before_open + 3
    for socket in sockets:
        await socket.disconnect()
    assert own("cardhall_open_sockets", route="match") == before_open


@needs_redis_server
def test_queue_depth_is_read_from_the_redis_broker(scrape, settings, db):
    with throwaway_redis() as server:
        broker_url = f"redis://127.0.0.1:{server.port}/2"
        settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER = broker_url, False
        broker = redis.Redis.from_url(broker_url)
        broker.lpush("celery", "a", "b", "c")
        broker.lpush("celery\x06\x163", "d")  # kombu's key for priority 3 of the same queue
        broker.hset("unacked", "tag", "e")

        samples = scrape()
        assert value(samples, "cardhall_celery_queue_length", queue="celery") == 4
        assert value(samples, "cardhall_celery_unacked_tasks") == 1
        assert value(samples, "cardhall_dependency_up", dependency="broker") == 1

        server.kill()
        started = time.monotonic()
        samples = scrape()  # the broker is gone: the scrape still answers, and says so
        assert time.monotonic() - started < 5
        assert value(samples, "cardhall_dependency_up", dependency="broker") == 0
        assert ("cardhall_celery_queue_length", frozenset({("queue", "celery")})) not in samples


@requires_postgres
def test_the_connection_pool_is_sampled(scrape, db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # the pool is open and has served
    metrics.PoolSampler().sample()
    samples = scrape()
    pool = connection.settings_dict["OPTIONS"]["pool"]
    assert value(samples, "cardhall_db_pool_connections", state="max") == pool["max_size"]
    assert value(samples, "cardhall_db_pool_connections", state="open") >= 1
    assert value(samples, "cardhall_db_pool_requests_total", result="served") >= 1


def test_dead_processes_are_forgotten(tmp_path, monkeypatch):
    """A killed worker's live gauges (open sockets, pool) go at the next scrape; counters
    stay, as Prometheus expects of them."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # its pid is now free
    for name in (f"gauge_livesum_{child.pid}.db", f"counter_{child.pid}.db"):
        (tmp_path / name).write_bytes(b"")
    alive = tmp_path / f"gauge_livesum_{os.getpid()}.db"
    alive.write_bytes(b"")
    monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
    metrics.forget_dead_processes()
    assert not (tmp_path / f"gauge_livesum_{child.pid}.db").exists()
    assert (tmp_path / f"counter_{child.pid}.db").exists() and alive.exists()


# --- the production shape: 2 uvicorn workers and a Celery worker ---------------------------

SEED_DUEL = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from accounts.services import profile_ensure
from games import replay, services
from games.engine import registry

def session_for(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key

users = []
for name in ("ops_ann", "ops_ben"):
    user = get_user_model().objects.create_user(username=name, password="correct horse battery")
    profile_ensure(user=user)
    users.append(user)
match = services.match_create(
    creator=users[0], game_slug="dogblade", opponent="player", invitee_username="ops_ben"
)
services.match_join(match_id=match.pk, user=users[1])
match.refresh_from_db()
seat = match.seats_to_act[0]
state = replay.match_position(match=match).state
with open(OUT, "w") as out:
    json.dump({
        "match": match.pk,
        "ply": match.ply,
        "sessions": [session_for(user) for user in users],
        "mover": seat,
        "move": registry.get("dogblade").legal_moves(state, seat)[0],
    }, out)
"""


def _http(url: str, *, data: bytes | None = None, headers: dict | None = None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _scrape_live(server_url: str) -> Samples:
    status, _, body = _http(f"{server_url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, body[:500]
    return parse(body.decode())


def _wait_for(what: str, condition, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(0.2)
    return result


def _answering_404(directory: Path, tmp: Path) -> list[int]:
    """The processes that answered a 404, each read from its own counter file alone."""
    answering = []
    for path in directory.glob("counter_*.db"):
        alone = tmp / path.stem
        alone.mkdir(parents=True)
        shutil.copy(path, alone / path.name)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(alone))
        samples = {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in registry.collect()
            for sample in family.samples
        }
        if value(samples, "cardhall_http_responses_total", status="404") > 0:
            answering.append(int(path.stem.split("_")[1]))
    return answering


@needs_redis_server
@pytest.mark.worker
def test_the_production_shape_reports_every_process(tmp_path):
    """2 uvicorn workers and a Celery worker write to one PROMETHEUS_MULTIPROC_DIR; any
    scrape adds them all up. A move's request id travels to its tasks and their lines."""
    prometheus_dir = tmp_path / "prometheus"
    prometheus_dir.mkdir()
    with throwaway_redis() as redis_server:
        broker_url = f"redis://127.0.0.1:{redis_server.port}/2"
        with production_server(
            tmp_path,
            redis_url=redis_server.url,
            PROMETHEUS_MULTIPROC_DIR=str(prometheus_dir),
            METRICS_TOKEN=TOKEN,
            CELERY_BROKER_URL=broker_url,  # no worker yet: tasks wait in the queue
            LOG_FORMAT="json",
        ) as server:
            _both_workers_are_counted(server, prometheus_dir, tmp_path / "alone")
            request_id, waiting = _a_move_with_sockets_open(server, tmp_path, broker_url)
            with live_celery_worker(server.env, tmp_path / "worker.log") as worker:
                _the_worker_is_counted_and_logs_the_request_id(server, worker, request_id, waiting)
            assert any(
                line.get("request_id") == request_id
                and line["logger"] == "uvicorn.access"
                and "/move/" in line["message"]
                for line in _json_lines(server.log_path)
            ), "the move's access line lacks its request id"
            # The worker is gone, its live gauge with it; its counters stay.
            assert value(_scrape_live(server.url), "cardhall_celery_workers") == 0


def _both_workers_are_counted(server, prometheus_dir: Path, tmp: Path) -> None:
    sent, answering = 0, []
    while len(answering) < 2 and sent < 400:
        for _ in range(20):
            _http(f"{server.url}/no-such-page/")  # a new connection each
        sent += 20
        answering = _answering_404(prometheus_dir, tmp / str(sent))
    assert len(answering) == 2, f"one worker answered all {sent} requests"
    for _ in range(3):  # whichever worker answers the scrape, it reports both
        samples = _scrape_live(server.url)
        assert value(samples, "cardhall_http_responses_total", status="404") == sent


def _a_move_with_sockets_open(server, tmp_path: Path, broker_url: str) -> tuple[str, float]:
    """The mover and a spectator watch, the other seat is away (so its "your turn" is a
    task); a move is posted with a request id. Returns the id and how many tasks then wait
    in the queue."""
    from tests.realtime.live_redis import open_sockets

    out = tmp_path / "duel.json"
    manage(server.env, "shell", "-c", SEED_DUEL.replace("OUT", repr(str(out))))
    duel = json.loads(out.read_text())
    match_id, sessions = duel["match"], duel["sessions"]
    request_id = uuid.uuid4().hex
    mover = sessions[duel["mover"]]
    with open_sockets(server.url, [[match_id, mover], [match_id, None]]):
        before = _scrape_live(server.url)  # the seed's own pushes are counted too
        assert value(before, "cardhall_open_sockets", route="match") == 2
        csrf = uuid.uuid4().hex
        status, headers, body = _http(
            f"{server.url}/matches/{match_id}/move/",
            data=json.dumps({"ply": duel["ply"], "move": duel["move"]}).encode(),
            headers={
                "Content-Type": "application/json",
                "Cookie": f"sessionid={mover}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "X-Request-ID": request_id,
            },
        )
        assert status in (200, 302), body[:1000]
        assert headers["x-request-id"] == request_id

        # What follows the move (its pushes, its tasks) goes out just after its answer
        # (config.after_response): the tasks it enqueued carry its request id.
        def carried() -> list[str | None]:
            queued = redis.Redis.from_url(broker_url).lrange("celery", 0, -1)
            return [json.loads(message)["headers"].get("request_id") for message in queued]

        _wait_for("the move's tasks", lambda: request_id in carried())
        samples = _scrape_live(server.url)
        assert value(samples, "cardhall_move_request_seconds_count") == 1
        assert value(samples, "cardhall_move_submit_seconds_count", outcome="committed") == 1
        # At least the two boards watched (the mover's, the spectators'); all three when the
        # presence read timed out on this busy machine (then everyone is pushed to). The
        # pushes go out before the tasks.
        pushes = value(samples, "cardhall_push_lag_seconds_count") - value(
            before, "cardhall_push_lag_seconds_count"
        )
        assert pushes in (2, 3)
        waiting = value(samples, "cardhall_celery_queue_length", queue="celery")
        assert waiting >= 1
    _wait_for(
        "the sockets to close",
        lambda: not value(_scrape_live(server.url), "cardhall_open_sockets", route="match"),
    )
    return request_id, waiting


def _the_worker_is_counted_and_logs_the_request_id(server, worker, request_id, waiting) -> None:
    def tasks_run() -> float:
        samples = _scrape_live(server.url)
        return sum(v for (name, _), v in samples.items() if name == "cardhall_task_seconds_count")

    # Counted in the worker, read through a web process.
    _wait_for("the worker to run the waiting tasks", lambda: tasks_run() >= waiting)
    samples = _scrape_live(server.url)
    assert value(samples, "cardhall_celery_workers") == 1
    assert value(samples, "cardhall_celery_queue_length", queue="celery") == 0
    task_lines = _wait_for(
        "the worker's lines of the move's tasks",
        lambda: [
            line
            for line in _json_lines(worker.log_path)
            if line.get("request_id") == request_id and line.get("task")
        ],
    )
    assert any("succeeded" in line["message"] for line in task_lines), task_lines


def _json_lines(path: Path) -> list[dict]:
    """The log's JSON lines: every line a Django process writes (uvicorn's supervisor and
    Celery's banner, which run before Django's logging, are not JSON)."""
    lines = []
    for text in path.read_text(errors="replace").splitlines():
        if text.startswith("{"):
            lines.append(json.loads(text))
    return lines
