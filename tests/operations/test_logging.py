"""Structured logs: every line of a request (and of the tasks it causes) carries its
request id, taken from a well-formed X-Request-ID or made anew, and echoed back.

The lines are written through the handler, formatter and filter that LOGGING configures
(`config.logs.logging_config`), to a buffer. The live test of tests/operations/
test_metrics.py follows an id from a move POST on uvicorn to its task in a real Celery
worker; here are the parts in one process.
"""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from celery import Celery
from django_guid.context import guid

from config.logs import RequestIdFilter, logging_config

HEX_ID = re.compile(r"[0-9a-f]{32}")
REPO_ROOT = Path(__file__).resolve().parents[2]


def _handler(fmt: str, stream: io.StringIO) -> logging.Handler:
    """The console handler LOGGING configures for `fmt`, writing to `stream`."""
    config = logging_config(fmt=fmt, level="INFO")
    configurator = logging.config.DictConfigurator(config)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(configurator.configure_formatter(dict(config["formatters"][fmt])))
    handler.addFilter(configurator.configure_filter(dict(config["filters"]["request_id"])))
    return handler


@pytest.fixture
def json_lines():
    """Every line logged while the test runs, as the production handler writes it."""
    stream = io.StringIO()
    handler = _handler("json", stream)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)


# --- the request id ----------------------------------------------------------------------


def test_a_well_formed_request_id_is_kept_and_echoed(client, db):
    given = uuid.uuid4().hex
    assert client.get("/", HTTP_X_REQUEST_ID=given)["X-Request-ID"] == given
    dashed = str(uuid.uuid4())
    assert client.get("/", HTTP_X_REQUEST_ID=dashed)["X-Request-ID"] == dashed


@pytest.mark.parametrize(
    "sent",
    ["", "not-a-request-id", "1234", "x" * 5000, "'; DROP TABLE games_match; --", "<script>"],
)
def test_a_missing_or_malformed_request_id_is_replaced(client, db, sent):
    headers = {"HTTP_X_REQUEST_ID": sent} if sent else {}
    echoed = client.get("/", **headers)["X-Request-ID"]
    assert HEX_ID.fullmatch(echoed) and echoed != sent


def test_each_request_gets_its_own_id(client, db):
    ids = {client.get("/healthz/live")["X-Request-ID"] for _ in range(5)}
    assert len(ids) == 5 and all(HEX_ID.fullmatch(request_id) for request_id in ids)


# --- every line carries it -----------------------------------------------------------------


@pytest.mark.urls("tests.operations.faulty")
def test_every_line_of_a_request_carries_its_id(client, db, json_lines):
    given = uuid.uuid4().hex
    response = client.get("/faulty/chatty/", HTTP_X_REQUEST_ID=given)
    assert response.status_code == 200
    missing = client.get("/no-such-page/", HTTP_X_REQUEST_ID=given)
    assert missing.status_code == 404

    lines = json_lines()
    by_message = {line["message"]: line for line in lines}
    assert {"a line from the view", "a line from the task", "Not Found: /no-such-page/"} <= set(
        by_message
    )
    # Eager Celery runs the task inside the request: its lines keep the request's id and
    # name the task.
    assert by_message["a line from the task"]["task"] == "tests.operations.faulty.says_something"
    assert all(line["request_id"] == given for line in lines), lines
    for line in lines:  # one JSON object a line, with the fields a log pipeline indexes
        assert {"time", "level", "logger", "message", "request_id"} <= set(line)


def test_a_line_outside_a_request_says_so(json_lines):
    logging.getLogger("cardhall.test").warning("no request here")
    (line,) = json_lines()
    assert line["request_id"] == "-" and line["level"] == "WARNING"
    assert line["logger"] == "cardhall.test" and "task" not in line


def test_an_exception_is_one_json_line_with_its_traceback(json_lines):
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("cardhall.test").exception("it failed")
    (line,) = json_lines()
    assert line["message"] == "it failed" and "ValueError: boom" in line["exc_info"]


def test_development_lines_are_readable():
    stream = io.StringIO()
    handler = _handler("text", stream)
    token = guid.set("0123456789abcdef0123456789abcdef")
    try:
        record = logging.LogRecord("games.views", logging.INFO, __file__, 1, "moved", (), None)
        handler.handle(record)
    finally:
        guid.reset(token)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO \[0123456789abcdef0123456789abcdef\] "
        r"games\.views: moved\n",
        stream.getvalue(),
    )


def test_an_unknown_log_format_is_refused():
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logging_config(fmt="xml", level="INFO")


@pytest.mark.parametrize(("debug", "expected"), [("0", "json"), ("1", "text")])
def test_json_in_production_readable_in_development(debug, expected):
    code = "from django.conf import settings; print(settings.LOG_FORMAT)"
    env = {key: value for key, value in os.environ.items() if key != "LOG_FORMAT"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=env | {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": debug},
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


# --- the id travels with the tasks a request enqueues ----------------------------------------


@pytest.fixture
def broker():
    """A Celery app of its own on kombu's in-memory broker: tasks are really published."""
    app = Celery("request-id-probe", broker="memory://", set_as_current=False)
    app.conf.task_default_queue = f"probe-{uuid.uuid4().hex}"

    @app.task(name="probe.noop")
    def noop() -> None:
        """Never run: the test reads its message."""

    def published_headers() -> dict:
        with app.connection_for_read() as connection:
            queue = connection.SimpleQueue(app.conf.task_default_queue)
            message = queue.get(timeout=5)
            message.ack()
            queue.close()
            return message.headers

    yield noop, published_headers


def test_a_task_enqueued_in_a_request_carries_its_id(broker):
    noop, published_headers = broker
    token = guid.set("feedfacefeedfacefeedfacefeedface")
    try:
        noop.delay()
    finally:
        guid.reset(token)
    assert published_headers()["request_id"] == "feedfacefeedfacefeedfacefeedface"


def test_a_task_enqueued_outside_a_request_carries_none(broker):
    noop, published_headers = broker
    noop.delay()  # as beat enqueues: the worker will make an id for it
    assert "request_id" not in published_headers()


def test_the_filter_adds_the_task_only_inside_one():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "m", (), None)
    assert RequestIdFilter().filter(record)
    assert record.request_id == "-" and not hasattr(record, "task")
