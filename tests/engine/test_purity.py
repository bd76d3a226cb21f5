"""The engine and the bots are pure Python: they import and play with Django absent, and
they import nothing but the standard library and themselves.

`lint-imports` (pyproject.toml, "engine-pure" and "ai-pure") forbids Django, Channels,
Celery and the rest of the project by name; the static test here allows the standard
library only, so any other package (a new dependency) is caught too.
"""

from __future__ import annotations

import ast
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


# What each pure package may import besides the standard library.
OWN_IMPORTS = {"engine": ("games.engine",), "ai": ("games.engine", "games.ai")}


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    imported = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            imported += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.append((node.lineno, node.module))
    return imported


def _is_allowed(module: str, own: tuple[str, ...]) -> bool:
    if module.split(".")[0] in sys.stdlib_module_names:
        return True
    return any(module == name or module.startswith(name + ".") for name in own)


def test_engine_and_bots_import_the_standard_library_and_themselves_only() -> None:
    offending = [
        f"{path.relative_to(PROJECT_ROOT)}:{line} imports {module}"
        for package, own in OWN_IMPORTS.items()
        for path in sorted((PROJECT_ROOT / "games" / package).rglob("*.py"))
        for line, module in _imported_modules(path)
        if not _is_allowed(module, own)
    ]
    assert not offending, "\n".join(offending)
