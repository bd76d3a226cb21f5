"""accounts sits above games (docs/architecture.md, "accounts above games"): games imports
nothing of accounts but `accounts.names`, so no vacation (or anything else of an account)
is written from games. Read from the source with `ast`, so it needs no import linter."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
ALLOWED = {"accounts.names"}


def _imports_of_accounts(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return {module for module in modules if module.split(".")[0] == "accounts"}


def test_games_imports_only_the_names_of_accounts() -> None:
    arrows = {
        f"{path.relative_to(GAMES.parent)} -> {module}"
        for path in GAMES.rglob("*.py")
        for module in _imports_of_accounts(path)
        if module not in ALLOWED
    }
    assert not arrows, sorted(arrows)
    assert _imports_of_accounts(GAMES / "models.py") == {"accounts.names"}  # the scan works
