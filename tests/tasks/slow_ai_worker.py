"""A Celery worker whose AI thinks slowly once, so a test can kill it in the middle of a move.

Run as `python -m tests.tasks.slow_ai_worker <celery worker arguments>`. The first time
the AI chooses a move, it writes the id of its process to the file SLOW_AI_MARK (the test
waits for it, then kills that process) and sleeps SLOW_AI_SECONDS; once the file exists,
the AI thinks at its usual speed (a redelivered task then completes). Everything else is
the real worker: the real task, broker, acknowledgement and database. Test-only: nothing
in the project knows of it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django


def slow(choose):  # noqa: ANN001, ANN201
    def thinking(match, seat):  # noqa: ANN001, ANN202
        mark = Path(os.environ["SLOW_AI_MARK"])
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            time.sleep(float(os.environ.get("SLOW_AI_SECONDS", "60")))
        return choose(match, seat)

    return thinking


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from celery.__main__ import main as celery_main

    from games.services import automation

    automation._automatic_choice = slow(automation._automatic_choice)
    sys.argv = ["celery", *sys.argv[1:]]
    celery_main()


if __name__ == "__main__":
    main()
