"""Services and games.effects send tasks by name (config.celery_app.task_send), so that no
module below the tasks imports them. A name that no task is registered under would only
fail when its moment came: this reads every name sent from the source and checks it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from config.celery_app import app, task_send

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "banira", "config", "games", "inbox", "progression", "ratings")


def _names_sent() -> set[tuple[str, str]]:
    """(file, task name) for every task_send("<name>", ...) call in the apps' code."""
    sent = set()
    for package in APPS:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "task_send"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    sent.add((str(path.relative_to(ROOT)), node.args[0].value))
    return sent


def test_every_task_sent_by_name_is_a_registered_task() -> None:
    sent = _names_sent()
    assert {name for _, name in sent} >= {
        "games.tasks.advance_automatic_seats",
        "inbox.tasks.email_notification",
        "progression.tasks.match_result_process",
    }
    app.loader.import_default_modules()
    unknown = sorted((path, name) for path, name in sent if name not in app.tasks)
    assert unknown == []


@pytest.mark.django_db
def test_a_task_sent_by_name_runs_as_its_delay_would() -> None:
    # Eager without a broker (the SQLite run): the task runs here and answers its result.
    if not app.conf.task_always_eager:
        pytest.skip("a broker is configured: the task would go to a worker")
    result = task_send("games.tasks.advance_automatic_seats", 987654)  # no such match
    assert result.get() == 0


def test_an_unknown_name_is_an_error_not_a_silent_drop() -> None:
    with pytest.raises(KeyError):
        task_send("games.tasks.no_such_task", 1)


FIRST_SENDS_AT_ONCE = """
import sys, threading
import django
django.setup()
from config.celery_app import task_named
names = sys.argv[1:]
barrier = threading.Barrier(len(names))
errors = []
def find(name):
    barrier.wait()
    try:
        task_named(name)
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=find, args=(name,)) for name in names]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(errors), errors[:1])
"""


def test_a_fresh_process_finds_every_task_when_threads_first_send_at_once() -> None:
    """A new web process's first sends come from requests running side by side (what
    follows a move runs beside the next request): each finds its task. Without the lock in
    `task_named`, 5 to 7 of 8 threads raised NotRegistered here."""
    import os
    import subprocess
    import sys

    names = sorted({name for _, name in _names_sent()})[:4] * 2
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for _ in range(3):
        found = subprocess.run(
            [sys.executable, "-c", FIRST_SENDS_AT_ONCE, *names],
            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert found.returncode == 0, found.stderr[-2000:]
        assert found.stdout.strip().splitlines()[-1] == "0 []", found.stdout
