"""Registers High Card for a test, engine and board, and takes both away after."""

import pytest

from games import boards
from games.engine import registry
from tests.highcard.board import BOARD
from tests.highcard.engine import HighCard


@pytest.fixture
def highcard(monkeypatch):
    monkeypatch.setitem(registry._GAMES, HighCard.slug, HighCard())
    unregister = boards.register(BOARD)
    yield HighCard.slug
    unregister()
