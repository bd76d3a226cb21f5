"""The apps above `games` and `progression` reach them through hooks, not imports.

Arcana registers its PvE fight record with `games.effects` and its collection with
`progression.services.players` (arcana.apps), so neither imports arcana: the import circle
`games.effects -> arcana.pve -> games.services` is gone, and the "arcana-on-top" contract
in pyproject.toml keeps it gone (docs/architecture.md, "Rules the tools enforce").
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arcana import pve
from arcana import services as arcana_services
from games import effects
from progression import services as progression_services
from progression.services import players
from ratings import services as ratings_services


def test_arcana_registers_its_hooks_when_django_starts() -> None:
    assert effects.match_finished_hooks() == ["arcana.pve"]
    assert effects._match_finished_hooks["arcana.pve"] is pve.fight_result_record
    assert players._collection_grants["arcana"] is arcana_services.collection_grant


def test_a_result_runs_ratings_then_progression_then_the_hooks_in_order(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(ratings_services, "match_rate", lambda *, match_id: calls.append("rate"))
    monkeypatch.setattr(
        progression_services, "match_result_record", lambda *, match: calls.append("credit")
    )
    monkeypatch.setattr(effects, "_match_finished_hooks", {})
    effects.match_finished_hook_register("first", lambda *, match: calls.append("first"))
    effects.match_finished_hook_register("second", lambda *, match: calls.append("second"))
    effects.match_finished_hook_register("first", lambda *, match: calls.append("first again"))
    monkeypatch.setattr(effects, "_after_commit", lambda step: calls.append("after commit"))

    effects.match_finished(match=SimpleNamespace(pk=7))

    assert calls == ["rate", "credit", "first again", "second", "after commit"]


def test_a_grant_of_arcana_without_a_collection_is_refused_loudly(monkeypatch) -> None:
    monkeypatch.setattr(players, "_collection_grants", {})
    grant = players.Grant()
    grant.add_arcana(5, None, source="Quest")
    with pytest.raises(RuntimeError, match="No Arcana collection"):
        players._arcana_apply(SimpleNamespace(user=None), grant)  # type: ignore[arg-type]
