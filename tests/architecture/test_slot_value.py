"""`games.engine.core.SlotValue`: a state's equality, hash and `replace` from its slots."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.engine.core import SlotValue
from games.engine.grimhand.arcana.state import ArcanaState
from games.engine.grimhand.state import GrimhandState, Setup


class Pair(SlotValue):
    __slots__ = ("left", "right")

    def __init__(self, left: int, right: int) -> None:
        self.left = left
        self.right = right


class OtherPair(SlotValue):
    __slots__ = ("left", "right")

    def __init__(self, left: int, right: int) -> None:
        self.left = left
        self.right = right


def test_equal_when_every_slot_is_and_of_one_class_only() -> None:
    assert Pair(1, 2) == Pair(1, 2) and hash(Pair(1, 2)) == hash(Pair(1, 2))
    assert Pair(1, 2) != Pair(2, 1)
    assert Pair(1, 2) != OtherPair(1, 2) and OtherPair(1, 2) != Pair(1, 2)
    assert len({Pair(1, 2), Pair(1, 2), Pair(1, 3)}) == 2


def test_replace_copies_and_changes_the_named_fields() -> None:
    pair = Pair(1, 2)
    moved = pair.replace(right=5)
    assert (moved.left, moved.right) == (1, 5) and (pair.left, pair.right) == (1, 2)
    with pytest.raises(TypeError):
        pair.replace(middle=3)


def test_a_value_of_one_slot_is_refused() -> None:
    with pytest.raises(TypeError, match="two slots or more"):

        class Single(SlotValue):
            __slots__ = ("only",)


@pytest.mark.parametrize(
    "options, kind", [({}, GrimhandState), ({"variant": "arcana"}, ArcanaState)]
)
def test_grimhand_states_are_slot_values(options: dict[str, str], kind: type) -> None:
    state = registry.get("grimhand").new(2, bytes(16), options)
    assert type(state) is kind and isinstance(state, SlotValue)
    assert state == state.replace() and hash(state) == hash(state.replace())
    assert state != state.replace(ply=state.ply + 1)
    if isinstance(state, GrimhandState):
        assert isinstance(state.setup, Setup) and state.setup == state.setup.replace()
