"""AI levels on seats: the ids the services accept, the seat labels, and the data
migration that renamed the stored bot names to level ids."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services
from games.errors import CannotCreate
from games.models import Seat

BEFORE = ("games", "0004_clocks_and_rematch")
AFTER = ("games", "0005_ai_level_ids")


@pytest.mark.parametrize(
    ("level", "label"), [("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")]
)
def test_a_table_against_each_offered_level(alice, level, label):
    with services.automation_paused():
        match = services.match_create(
            creator=alice, game_slug="haymaker", opponent="ai", ai_level=level
        )
    seat = match.seats.get(index=1)
    assert seat.is_ai and seat.ai_level == level and seat.label == f"AI · {label}"


@pytest.mark.parametrize("level", ["random", "greedy", "ismcts", "oracle", "", "Hard"])
def test_other_names_are_refused_with_a_message(alice, level):
    with pytest.raises(CannotCreate, match="Choose one of the AI levels on offer"):
        services.match_create(creator=alice, game_slug="haymaker", opponent="ai", ai_level=level)
    match = services.match_create(creator=alice, game_slug="haymaker", opponent="open")
    with pytest.raises(CannotCreate, match="Choose one of the AI levels on offer"):
        services.match_fill_with_ai(match_id=match.pk, user=alice, ai_level=level)


def test_the_tutor_is_labelled_as_before(alice):
    match = services.tutorial_start(user=alice, game_slug="grimhand")
    assert match.seats.get(index=1).label == "Tutor"


def _migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def _migrate_to_latest() -> None:
    """Every app's newest migration: the schema every later test expects (migrating games
    to AFTER alone would leave its later migrations, and other apps' that depend on them,
    unapplied)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_stored_levels_and_back(make_match, alice, bob):
    match = make_match(alice, bob)
    stored = ["easy", "normal", "hard", "tutorial", "", "oracle"]
    for index, level in enumerate(stored, start=2):
        Seat.objects.create(match=match, index=index, kind=Seat.Kind.AI, ai_level=level)

    def levels() -> list[str]:
        return list(match.seats.order_by("index").values_list("ai_level", flat=True))

    humans = ["", ""]
    try:
        _migrate(BEFORE)
        assert levels() == humans + ["random", "greedy", "ismcts", "tutorial", "", "oracle"]
        _migrate(AFTER)
        assert levels() == humans + stored
    finally:
        _migrate_to_latest()
