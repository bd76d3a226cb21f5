"""The apps above `games` reach it by registration, never by an import from below.

`games` imports no other app (the "app-floors" import contract in pyproject.toml;
docs/architecture.md, "Between apps"). What those apps do at a change, or add to a board, a
table, a seat's name or quick pairing, each registers from its AppConfig.ready:
- ratings, progression and Arcana at a result, and the inbox at a turn's end, in the slots
  `games.effects.HOOKS` names in their order;
- progression's level bar after a finished board (`games.rendering`) and its looks loaded
  with a board's players (`games.selectors`); accounts' profile there too, and its name rule
  (`games.names`);
- ratings' "can this table be rated" (`games.selectors.lobby`) and a player's rating
  (`games.services.pairing`);
- Arcana's decks at a table (`games.decks`);
- community's chat lines' reach (`games.notifications`).
Arcana registers its collection with `progression.services.players` the same way.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from accounts.names import display_name
from arcana import pve, tables
from arcana import services as arcana_services
from community import pushes
from games import decks, effects, names, notifications, rendering
from games.errors import DeckRefused, MatchError
from games.selectors import lobby
from games.selectors import matches as selector_matches
from games.services import pairing
from inbox import services as inbox_services
from progression import fragments
from progression.selectors import SEAT_LOOKS
from progression.services import matches as progression_matches
from progression.services import players
from ratings import selectors as ratings_selectors
from ratings import services as ratings_services
from ratings import systems


def test_every_slot_of_a_change_is_filled_when_django_starts_in_the_order_effects_names() -> None:
    assert effects.hooks("match_finished") == ["ratings.rate", "progression.credit", "arcana.pve"]
    assert effects._hooks["match_finished"] == {
        "ratings.rate": ratings_services.match_finished_rate,
        "progression.credit": progression_matches.match_result_record,
        "arcana.pve": pve.fight_result_record,
    }
    assert effects.hooks("turn_ended") == ["inbox.turn_notices"]
    assert effects._hooks["turn_ended"]["inbox.turn_notices"] is inbox_services.turn_ended
    for step, slots in effects.HOOKS.items():
        assert effects.hooks(step) == list(slots), f"an empty slot at {step}"


def test_what_the_apps_add_to_boards_tables_names_and_pairing_is_registered() -> None:
    assert rendering._after_result == {"progression.level_bar": fragments.level_bar_oob_html}
    assert set(selector_matches.PLAYER_DETAILS) == {"profile", *SEAT_LOOKS}
    assert names._name_of is display_name
    assert lobby._rateable is systems.rates
    assert pairing._rating is ratings_selectors.rating_value
    assert decks._source is tables.DECKS
    assert players._collection_grants["arcana"] is arcana_services.collection_grant
    assert notifications._reach_checks["chat"] is pushes.line_reaches
    # A line nobody registered a check for reaches nobody.
    assert notifications.reaches(user=SimpleNamespace(pk=1), event={"reach": "other"}) is False


def test_a_result_runs_its_slots_in_the_order_effects_names_whatever_the_registration_order(
    monkeypatch,
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(effects, "_hooks", {step: {} for step in effects.HOOK_STEPS})
    effects.hook_register("match_finished", "arcana.pve", lambda *, match: calls.append("pve"))
    effects.hook_register(
        "match_finished", "ratings.rate", lambda *, match: calls.append("first rate")
    )
    effects.hook_register(
        "match_finished", "progression.credit", lambda *, match: calls.append("credit")
    )
    effects.hook_register("match_finished", "ratings.rate", lambda *, match: calls.append("rate"))
    monkeypatch.setattr(effects, "_after_commit", lambda step: calls.append("after commit"))

    effects.match_finished(match=SimpleNamespace(pk=7))

    assert calls == ["rate", "credit", "pve", "after commit"]  # a name again replaces its hook


def test_a_slot_left_empty_is_skipped(monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(effects, "_hooks", {step: {} for step in effects.HOOK_STEPS})
    effects.hook_register("match_finished", "arcana.pve", lambda *, match: calls.append("pve"))
    monkeypatch.setattr(effects, "_after_commit", lambda step: None)

    effects.match_finished(match=SimpleNamespace(pk=7))

    assert calls == ["pve"]
    assert effects.hooks("match_finished") == ["arcana.pve"]


def test_a_hook_at_a_step_or_in_a_slot_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="No step 'match_started'"):
        effects.hook_register("match_started", "x", lambda **kwargs: None)
    with pytest.raises(ValueError, match="No slot 'badges' at 'match_finished'"):
        effects.hook_register("match_finished", "badges", lambda **kwargs: None)


def test_a_rating_that_fails_is_logged_and_the_result_goes_on(monkeypatch, caplog) -> None:
    def broken(*, match_id):
        raise RuntimeError("the rating system is down")

    monkeypatch.setattr(ratings_services, "match_rate", broken)
    ratings_services.match_finished_rate(match=SimpleNamespace(pk=7))  # does not raise
    assert "Rating match 7 failed" in caplog.text


def test_without_the_apps_games_falls_back_to_its_own_defaults(monkeypatch) -> None:
    user = get_user_model()(username="plain")
    monkeypatch.setattr(names, "_name_of", None)
    monkeypatch.setattr(lobby, "_rateable", None)
    monkeypatch.setattr(pairing, "_rating", None)
    monkeypatch.setattr(decks, "_source", None)
    assert names.player_name(user) == "plain"
    assert lobby._is_rateable(game="dogblade", seats=2) is False
    assert pairing.rating_of(user=user, game_slug="dogblade") == pairing.START_RATING
    assert decks.choices(user=user) == []
    assert decks.match_options(user=user, deck_id=None, is_rated=True) is None
    assert decks.join_options(user=user, match_id=1, deck_id=3) is None


def test_an_arcana_refusal_reaches_the_table_as_a_deck_refused_with_its_status(
    monkeypatch,
) -> None:
    from arcana.errors import NotOwned

    def not_yours(**kwargs):
        raise NotOwned("That deck is not yours.")

    refusing = tables._refusals_as_deck_refused(not_yours)
    with pytest.raises(DeckRefused) as refused:
        refusing(user=None, deck_id=4, is_rated=False)
    assert isinstance(refused.value, MatchError)
    assert (refused.value.message, refused.value.status) == ("That deck is not yours.", 403)


def test_a_grant_of_arcana_without_a_collection_is_refused_loudly(monkeypatch) -> None:
    monkeypatch.setattr(players, "_collection_grants", {})
    grant = players.Grant()
    grant.add_arcana(5, None, source="Quest")
    with pytest.raises(RuntimeError, match="No Arcana collection"):
        players._arcana_apply(SimpleNamespace(user=None), grant)  # type: ignore[arg-type]
