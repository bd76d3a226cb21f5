"""The engine and the bots are pure Python: they import and play with Django absent."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

# Runs in a fresh interpreter: any import of a web-stack package fails loudly.
PROBE = textwrap.dedent(
    """
    import importlib
    import pkgutil
    import sys

    BLOCKED = ("django", "channels", "channels_redis", "celery", "kombu", "redis")

    class BlockWebStack:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"the engine must not import {name}")
            return None

    sys.meta_path.insert(0, BlockWebStack())

    import games.ai
    import games.engine
    from games.ai.play import play_match
    from games.engine import registry

    for package in (games.engine, games.ai):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)

    for game in registry.all():
        bots = [games.ai.get_bot("random") for _ in range(game.min_seats)]
        state, plies, moves = play_match(game, bytes(range(32)), bots)
        assert game.outcome(state) is not None, game.slug
        print(game.slug, plies)
    loaded = sorted(name for name in sys.modules if name.split(".")[0] in BLOCKED)
    assert not loaded, loaded
    """
)


def test_engine_and_bots_run_without_the_web_stack() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert "dogblade" in result.stdout
