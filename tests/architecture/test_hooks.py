"""The apps above `games` and `progression` reach them through hooks, not imports.

Arcana registers its PvE fight record with `games.effects` and its collection with
`progression.services.players` (arcana.apps), so neither imports arcana: the import circle
`games.effects -> arcana.pve -> games.services` is gone, and the "arcana-on-top" contract
in pyproject.toml keeps it gone (docs/architecture.md, "Rules the tools enforce").
Community's chat lines go over the match socket, filtered by the check it registers with
`games.notifications`, so the match socket imports nothing of community.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arcana import pve
from arcana import services as arcana_services
from community import pushes
from games import effects, notifications
from inbox import services as inbox_services
from progression import services as progression_services
from progression.services import players
from ratings import services as ratings_services


def test_arcana_and_the_inbox_register_their_hooks_when_django_starts() -> None:
    assert effects.hooks("match_finished") == ["arcana.pve"]
    assert effects._hooks["match_finished"]["arcana.pve"] is pve.fight_result_record
    assert effects.hooks("turn_ended") == ["inbox"]
    assert effects._hooks["turn_ended"]["inbox"] is inbox_services.turn_ended
    assert players._collection_grants["arcana"] is arcana_services.collection_grant


def test_community_registers_who_its_chat_lines_reach() -> None:
    assert notifications._reach_checks["chat"] is pushes.line_reaches
    # A line nobody registered a check for reaches nobody.
    assert notifications.reaches(user=SimpleNamespace(pk=1), event={"reach": "other"}) is False


def test_a_result_runs_ratings_then_progression_then_the_hooks_in_order(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(ratings_services, "match_rate", lambda *, match_id: calls.append("rate"))
    monkeypatch.setattr(
        progression_services, "match_result_record", lambda *, match: calls.append("credit")
    )
    monkeypatch.setattr(effects, "_hooks", {step: {} for step in effects.HOOK_STEPS})
    effects.hook_register("match_finished", "first", lambda *, match: calls.append("first"))
    effects.hook_register("match_finished", "second", lambda *, match: calls.append("second"))
    effects.hook_register("match_finished", "first", lambda *, match: calls.append("again"))
    monkeypatch.setattr(effects, "_after_commit", lambda step: calls.append("after commit"))

    effects.match_finished(match=SimpleNamespace(pk=7))

    assert calls == ["rate", "credit", "again", "second", "after commit"]


def test_a_hook_at_a_step_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="No step 'match_started'"):
        effects.hook_register("match_started", "x", lambda **kwargs: None)


def test_a_grant_of_arcana_without_a_collection_is_refused_loudly(monkeypatch) -> None:
    monkeypatch.setattr(players, "_collection_grants", {})
    grant = players.Grant()
    grant.add_arcana(5, None, source="Quest")
    with pytest.raises(RuntimeError, match="No Arcana collection"):
        players._arcana_apply(SimpleNamespace(user=None), grant)  # type: ignore[arg-type]
