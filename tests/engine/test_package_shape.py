"""Every engine package has the same shape (docs/architecture.md, "One game, one package").

`lint-imports` checks how the modules of a game package import each other (the
"game-package-shape" contract in pyproject.toml); these tests check what it cannot: that
the game object lives in the package's `__init__`, that the contracts cover every game,
and that each module's docstring says what it may import.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from games.engine import registry
from games.engine.core import Game

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHAPE = {"state", "options", "rules", "view"}
PURE_DATA = {"cards", "default_deck"}  # optional: card vocabularies and deck lists
VARIANTS = {"arcana"}  # optional: a mode of the game, a package of its own (Grimhand Arcana)
ENGINE_GAMES = [game for game in registry.all() if type(game).__module__.startswith("games.")]


def _contract(contract_id: str) -> dict[str, Any]:
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(contract for contract in contracts if contract["id"] == contract_id)


@pytest.mark.parametrize("game", ENGINE_GAMES, ids=lambda game: game.slug)
def test_the_game_object_is_the_package_init(game: Game) -> None:
    package = f"games.engine.{game.slug}"
    assert type(game).__module__ == package
    path = importlib.import_module(package).__path__
    modules = {info.name for info in pkgutil.iter_modules(path)}
    assert not SHAPE - modules, f"{package} lacks {sorted(SHAPE - modules)}"
    extra = modules - SHAPE - PURE_DATA - VARIANTS
    assert not extra, f"{package} has modules outside the shape: {sorted(extra)}"


def test_the_shape_contract_covers_every_game_package() -> None:
    """A game's package is named once in pyproject.toml, in "engine-games" (exhaustive: an
    unlisted package under games.engine breaks it); "game-package-shape" takes every child
    of games.engine as a container, so it needs no line of its own."""
    contract = _contract("game-package-shape")
    assert contract["exhaustive"] is True
    assert contract["containers"] == ["games.engine.*"]
    engine_games = _contract("engine-games")
    assert engine_games["exhaustive"] is True
    assert engine_games["layers"][1].split(" | ") == sorted(game.slug for game in ENGINE_GAMES)


@pytest.mark.parametrize(
    "path",
    sorted((PROJECT_ROOT / "games" / "engine").rglob("*.py")),
    ids=lambda path: str(path.relative_to(PROJECT_ROOT)),
)
def test_every_engine_module_states_what_it_may_import(path: Path) -> None:
    docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
    assert "Pure: imports" in docstring, f"{path} needs a docstring with its invariants"
