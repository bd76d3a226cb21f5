"""A web worker sets Python's garbage-collector thresholds from GC_THRESHOLDS when it
loads the ASGI application (web/asgi.py; docs/operations.md, "Garbage collection")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ASK = "import gc, web.asgi; print(*gc.get_threshold())"


def thresholds_of_a_worker(setting: str | None) -> str:
    env = {key: value for key, value in os.environ.items() if key != "GC_THRESHOLDS"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    if setting is not None:
        env["GC_THRESHOLDS"] = setting
    answer = subprocess.run(
        [sys.executable, "-c", ASK], env=env, capture_output=True, text=True, timeout=120
    )
    assert answer.returncode == 0, answer.stderr
    return answer.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("setting", "expected"),
    [(None, "20000 20 20"), ("5000,15,30", "5000 15 30"), ("", "700 10 10")],
)
def test_the_asgi_application_sets_the_gc_thresholds(setting, expected):
    assert thresholds_of_a_worker(setting) == expected
