"""The starter set, decks (ownership, then the engine's rules), upgrades, match options."""

from __future__ import annotations

import pytest

from arcana import selectors, services
from arcana.engine import DECK_RULES, check_deck
from arcana.errors import DeckRefused, NotEnoughShards, NotFound, NotOwned
from arcana.models import ArcanaCard, ArcanaDeck, CardGrant, Collector, OwnedCard
from tests.arcana.conftest import AGGRESSIVE, DEFENSIVE, give

pytestmark = pytest.mark.django_db


def test_a_new_player_gets_a_starter_set_that_makes_one_legal_deck(alice) -> None:
    services.starter_ensure(user=alice)
    services.starter_ensure(user=alice)  # once only
    owned = selectors.owned_copies(user=alice)
    assert sum(owned.values()) == DECK_RULES.size
    deck = ArcanaDeck.objects.get(owner=alice)
    assert deck.name == "Starter" and sorted(deck.card_ids) == sorted(DEFENSIVE)
    assert check_deck(deck.card_ids, selectors.pool_engine()) == []
    assert services.deck_problems_for(user=alice, card_ids=deck.card_ids) == []
    assert CardGrant.objects.filter(user=alice, source="Starter set").count() == DECK_RULES.size


def test_a_deck_of_cards_i_do_not_own_is_refused_and_nothing_written(starter) -> None:
    with pytest.raises(DeckRefused) as refused:
        services.deck_save(user=starter, name="Rush", card_ids=AGGRESSIVE)
    assert "You don't own “Berserker Blade”." in refused.value.problems
    assert not ArcanaDeck.objects.filter(name="Rush").exists()


def test_the_engines_rules_come_in_its_own_words(starter) -> None:
    give(starter, *set(AGGRESSIVE))
    with pytest.raises(DeckRefused) as refused:
        services.deck_save(user=starter, name="Short", card_ids=AGGRESSIVE[:5])
    pool = selectors.pool_engine()
    assert refused.value.problems == check_deck(AGGRESSIVE[:5], pool)
    three = ["berserker_blade"] * 3 + AGGRESSIVE[3:]
    with pytest.raises(DeckRefused) as refused:
        services.deck_save(user=starter, name="Three", card_ids=three)
    assert "You own 2 copies of “Berserker Blade”, not 3." in refused.value.problems


def test_unknown_and_disabled_cards_are_named(starter) -> None:
    ArcanaCard.objects.filter(card_id="iron_wall").update(is_enabled=False)
    problems = services.deck_problems_for(user=starter, card_ids=[*DEFENSIVE, "no_such"])
    assert "There is no card “no_such”." in problems
    assert "“Iron Wall” is not in the current card pool." in problems


def test_a_legal_deck_is_saved_renamed_and_deleted(starter) -> None:
    give(starter, *set(AGGRESSIVE))
    deck = services.deck_save(user=starter, name="  Rush  ", card_ids=AGGRESSIVE)
    assert deck.name == "Rush" and deck.card_ids == AGGRESSIVE
    services.deck_save(user=starter, name="Rush 2", card_ids=AGGRESSIVE, deck_id=deck.pk)
    assert ArcanaDeck.objects.get(pk=deck.pk).name == "Rush 2"
    with pytest.raises(DeckRefused, match="already have a deck called"):
        services.deck_save(user=starter, name="Starter", card_ids=AGGRESSIVE)
    services.deck_delete(user=starter, deck_id=deck.pk)
    with pytest.raises(NotFound):
        services.deck_delete(user=starter, deck_id=deck.pk)


def test_another_players_deck_cannot_be_edited(starter, bob) -> None:
    deck = ArcanaDeck.objects.get(owner=starter)
    services.starter_ensure(user=bob)
    with pytest.raises(NotFound):
        services.deck_save(user=bob, name="Mine", card_ids=DEFENSIVE, deck_id=deck.pk)
    assert ArcanaDeck.objects.get(pk=deck.pk).name == "Starter"


def test_an_upgrade_spends_shards_and_stops_at_level_three(starter) -> None:
    with pytest.raises(NotEnoughShards, match="costs 40 shards; you have 0"):
        services.card_upgrade(user=starter, card_id="iron_wall")
    Collector.objects.filter(user=starter).update(shards=200)
    assert services.card_upgrade(user=starter, card_id="iron_wall").level == 2
    assert services.card_upgrade(user=starter, card_id="iron_wall").level == 3
    assert selectors.shards_of(user=starter) == 200 - 40 - 120
    with pytest.raises(Exception, match="already at level 3"):
        services.card_upgrade(user=starter, card_id="iron_wall")
    assert OwnedCard.objects.get(user=starter, card__card_id="iron_wall").level == 3


def test_an_upgrade_of_a_card_i_do_not_own_is_refused(starter) -> None:
    Collector.objects.filter(user=starter).update(shards=500)
    with pytest.raises(NotOwned, match="Berserker Blade"):
        services.card_upgrade(user=starter, card_id="berserker_blade")
    with pytest.raises(NotOwned):
        services.card_upgrade(user=starter, card_id="no_such_card")
    assert selectors.shards_of(user=starter) == 500


def test_a_card_beyond_the_copy_limit_becomes_shards(starter) -> None:
    iron_wall = ArcanaCard.objects.get(card_id="iron_wall")  # the starter holds 2 already
    lines = services.collection_grant(user=starter, cards=[(iron_wall, "Quest: x")])
    assert lines == [f"Iron Wall again: +{services.DUPLICATE_SHARDS} shards instead"]
    assert OwnedCard.objects.get(user=starter, card=iron_wall).copies == 2
    assert selectors.shards_of(user=starter) == services.DUPLICATE_SHARDS


def test_match_options_copy_the_pool_my_deck_and_my_levels(starter) -> None:
    deck = ArcanaDeck.objects.get(owner=starter)
    OwnedCard.objects.filter(user=starter, card__card_id="iron_wall").update(level=3)
    unrated = services.match_options(user=starter, deck_id=deck.pk, is_rated=False)
    assert unrated["variant"] == "arcana"
    assert unrated["pool"] == selectors.pool_cards()
    assert len(unrated["pool"]) == ArcanaCard.objects.count()
    assert unrated["decks"] == [deck.card_ids, None]
    assert unrated["levels"][0]["iron_wall"] == 3 and unrated["levels"][1] == {}
    rated = services.match_options(user=starter, deck_id=deck.pk, is_rated=True)
    assert set(rated["levels"][0].values()) == {1}  # rated play: normalized levels
    house = services.match_options(user=starter, is_rated=False)
    assert house["decks"] == [None, None] and house["levels"] == [{}, {}]


def test_match_options_refuse_a_deck_that_is_not_mine_or_no_longer_legal(starter, bob) -> None:
    deck = ArcanaDeck.objects.get(owner=starter)
    with pytest.raises(NotFound):
        services.match_options(user=bob, deck_id=deck.pk, is_rated=False)
    ArcanaCard.objects.filter(card_id="iron_wall").update(is_enabled=False)
    with pytest.raises(DeckRefused, match="cannot be played"):
        services.match_options(user=starter, deck_id=deck.pk, is_rated=False)
