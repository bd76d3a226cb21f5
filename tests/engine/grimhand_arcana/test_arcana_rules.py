"""Grimhand Arcana rules from fixed deals: every card, every status, energy, combo, the
hand limit, bad moves and bad options (docs/rules/grimhand.md, part "Arcana")."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import registry
from games.engine.core import Chance, IllegalMove, InvalidOptions
from games.engine.grimhand.arcana.cards import (
    ARCHETYPE_DECKS,
    DEFAULT_POOL,
    EFFECTS,
    POOL_BY_ID,
    check_deck,
    validate_card,
)
from games.engine.grimhand.arcana.state import ArcanaState, fatigue
from games.engine.grimhand.arcana.statuses import STATUSES

GAME = registry.get("grimhand")
SEED = bytes(range(32))
PLAIN = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12] * 2  # no 7, no 13


def deal(options: dict[str, Any] | None = None, **parts: Any) -> ArcanaState:
    d: dict[str, Any] = {"attack": PLAIN, "defense": PLAIN, "first": 0}
    d.update(parts)
    state = GAME.new(2, SEED, {"variant": "arcana", "event": "none", **(options or {}), "deal": d})
    assert isinstance(state, ArcanaState)
    return state


def hands(a0=(), d0=(), a1=(), d1=()) -> list[dict[str, list[int]]]:
    return [{"attack": list(a0), "defense": list(d0)}, {"attack": list(a1), "defense": list(d1)}]


def play(state: ArcanaState, seat: int, move: dict[str, Any]) -> tuple[ArcanaState, list]:
    after, events = GAME.apply(state, seat, move)
    assert isinstance(after, ArcanaState)
    return after, events


def types(events: list) -> list[str]:
    return [event.type for event in events]


def statuses(state: ArcanaState, seat: int) -> dict[str, tuple[int, int]]:
    return {key: (turns, amount) for key, turns, amount in state.statuses[seat]}


# --- The cards as data ----------------------------------------------------------------------


def test_the_pool_holds_the_reviews_cards_and_each_validates() -> None:
    names = {card.name for card in DEFAULT_POOL}
    review = {
        "Berserker Blade", "Piercing Strike", "Chain Slash", "Iron Wall", "Counter Shield",
        "Mist Barrier", "Double Shamrock", "Fate Twist", "Fortune Surge", "Blood Pact",
        "Cursed Steel", "Doom Token", "Scrying Orb", "Swap Hands", "Purge", "Bleeding Edge",
        "Guardian Rune", "Hex of Weakness", "Hex", "Blessing", "Mirror Shield", "Gamble",
    }  # fmt: skip
    assert names == review
    for card in DEFAULT_POOL:
        assert validate_card(card.to_json()) == card
        assert card.effect in EFFECTS and card.slot in EFFECTS[card.effect].slots
        assert 0 <= card.cost <= 3


@pytest.mark.parametrize(
    "change, message",
    [
        ({"effect": "nope"}, "unknown effect"),
        ({"params": {"multiplier": 9}}, "from 2 to 3"),
        ({"params": {"colour": 1}}, "no parameter"),
        ({"slot": "spell"}, "goes on a attack card"),
        ({"cost": 4}, "energy cost"),
        ({"id": "Bad Id"}, "slug"),
        ({"rarity": "mythic"}, "rarity"),
        ({"value": 0}, "at least 1"),
    ],
)
def test_a_bad_card_definition_is_refused_readably(change: dict, message: str) -> None:
    data = {**POOL_BY_ID["berserker_blade"].to_json(), **change}
    with pytest.raises(InvalidOptions, match=message):
        validate_card(data)


def test_levels_raise_a_value_or_a_tier() -> None:
    blade = POOL_BY_ID["berserker_blade"]
    assert blade.at_level(1) == blade
    assert blade.at_level(3).value == blade.value + 2
    hex_card = POOL_BY_ID["hex"].at_level(2)
    assert hex_card.param("amount") == POOL_BY_ID["hex"].param("amount") + 1
    assert "-3" in hex_card.text
    assert POOL_BY_ID["swap_hands"].at_level(3).cost == POOL_BY_ID["swap_hands"].cost - 1
    with pytest.raises(InvalidOptions):
        blade.at_level(4)


def test_deck_rules_speak_plainly() -> None:
    for deck in ARCHETYPE_DECKS.values():
        assert check_deck(deck, POOL_BY_ID) == []
    problems = check_deck(["hex"] * 3 + ["swap_hands", "double_shamrock", "nope"], POOL_BY_ID)
    assert "A deck holds exactly 12 cards; this one has 6." in problems
    assert "At most 2 copies of Hex; this deck has 3." in problems
    assert "At most 1 legendary card; this deck has 2." in problems
    assert "“nope” is not a card of this pool." in problems


# --- Options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        ({"variant": "arcana", "colour": 1}, "no option “colour”"),
        ({"variant": "arcana", "boss": "dragon"}, "no boss 'dragon'"),
        ({"variant": "arcana", "event": "eclipse"}, "no match event"),
        ({"variant": "arcana", "pool": [{"id": "x"}]}, "name of card"),
        ({"variant": "arcana", "decks": [["hex"] * 12, None]}, "At most 2 copies of Hex"),
        ({"variant": "arcana", "decks": [["nope"], None]}, "not a card of this pool"),
        ({"variant": "arcana", "levels": [{"hex": 5}, {}]}, "from 1 to 3"),
        ({"variant": "arcana", "hp": 5}, "Starting HP"),
        ({"variant": "chess"}, "no variant"),
        ({"copies": 4, "variant": "arcana"}, "no option “copies”"),
    ],
)
def test_bad_options_are_refused_readably(options: dict, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new(2, SEED, options)


def test_classic_stays_the_default_and_refuses_unknown_names() -> None:
    assert GAME.new(2, SEED, {"variant": "classic"}) == GAME.new(2, SEED, {})
    with pytest.raises(InvalidOptions):
        GAME.new(2, SEED, {"variant": "classic", "pool": []})


def test_a_boss_sits_in_seat_one_with_its_hp_deck_and_twist() -> None:
    state = GAME.new(2, SEED, {"variant": "arcana", "boss": "bone_warden"})
    assert state.hp[1] == 65 and state.lucky[1] == 0
    assert sorted(state.setup.decks[1]) == sorted(
        ARCHETYPE_DECKS["defensive"][:0] + state.setup.decks[1]
    )
    view = GAME.view(state, 0)
    assert view["boss"]["name"] == "The Bone Warden"


def test_events_are_drawn_from_the_seed() -> None:
    keys = {GAME.new(2, bytes([i]) * 32, {"variant": "arcana"}).setup.event.key for i in range(40)}
    assert len(keys) >= 4
    assert (
        GAME.new(2, SEED, {"variant": "arcana", "event": "blood_moon"}).setup.event.attack_bonus
        == 2
    )


# --- Turn, energy, combo, hand limit ---------------------------------------------------------


def test_energy_is_one_two_then_three_and_unspent_energy_is_lost() -> None:
    state = GAME.new(2, SEED, {"variant": "arcana", "event": "none"})
    first = state.turn
    seen = []
    for _ in range(8):
        seen.append((state.turn, state.energy[state.turn], state.energy[1 - state.turn]))
        state, _ = play(
            state,
            state.turn,
            {"type": "draw", "deck": "arcana"}
            if len(state.abilities[state.turn]) < 5 and not state.drew_arcana[state.turn]
            else {"type": "draw", "deck": "defense"},
        )
        if state.winner is not None:
            break
    mine = [e for seat, e, _ in seen if seat == first]
    assert mine[:3] == [1, 2, 3]
    assert all(other == 0 for _, _, other in seen)


def test_a_play_costs_energy_and_keeps_the_turn() -> None:
    state = deal(abilities=[["blessing", "hex"], []], hp=[30, 40], energy=[2, 3])
    state, events = play(state, 0, {"type": "play", "card": "blessing"})
    assert state.turn == 0 and state.energy[0] == 0 and state.hp[0] == 34
    assert state.ability_discards[0] == ("blessing",)
    assert "card_played" in types(events)
    with pytest.raises(IllegalMove, match="costs 1 energy; you have 0"):
        GAME.apply(state, 0, {"type": "play", "card": "hex"})


def test_bad_plays_get_readable_messages() -> None:
    state = deal(
        abilities=[["purge", "scrying_orb", "double_shamrock"], []],
        lucky=["attack", False],
        hands=hands(a0=[5]),
    )
    with pytest.raises(IllegalMove, match="do not hold"):
        GAME.apply(state, 0, {"type": "play", "card": "hex"})
    with pytest.raises(IllegalMove, match="no 9 in your attack hand"):
        GAME.apply(state, 0, {"type": "play", "card": "purge", "deck": "attack", "value": 9})
    with pytest.raises(IllegalMove, match="attack or defense"):
        GAME.apply(state, 0, {"type": "play", "card": "scrying_orb", "deck": "arcana"})
    with pytest.raises(IllegalMove, match="Lucky slot is full"):
        GAME.apply(state, 0, {"type": "play", "card": "double_shamrock"})
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 1, {"type": "draw", "deck": "attack"})
    with pytest.raises(IllegalMove, match="nothing to choose"):
        GAME.apply(state, 0, {"type": "choose", "card": "hex"})
    with pytest.raises(IllegalMove, match="takes no"):
        GAME.apply(state, 0, {"type": "play", "card": "scrying_orb", "deck": "attack", "x": 1})
    for move in GAME.legal_moves(state, 0):
        assert GAME.is_legal(state, 0, move)


def test_two_swords_in_a_row_give_the_combo_bonus() -> None:
    state = deal(attack=[5, 6, 1, 1, 1], energy=[3, 3])
    state, _ = play(state, 0, {"type": "draw", "deck": "attack"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, _ = play(state, 0, {"type": "draw", "deck": "attack"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, events = play(state, 0, {"type": "attack"})
    attack = next(e for e in events if e.type == "attack").data
    assert attack["combo"] is True and attack["attack_total"] == 5 + 6 + 2
    assert state.streak[0] == 0


def test_a_draw_over_the_hand_limit_discards_the_lowest_card() -> None:
    state = deal(attack=[9, 1, 1], hands=hands(a0=[2, 3, 4, 5, 6, 8, 10]))
    state, events = play(state, 0, {"type": "draw", "deck": "attack"})
    assert state.hands[0][0] == (3, 4, 5, 6, 8, 9, 10)
    assert state.discards[0] == (2,) and state.hp[0] == 40
    assert any(e.type == "card_discarded" and e.data["reason"] == "hand_limit" for e in events)


def test_the_arcana_draw_is_safe_and_refused_with_a_full_hand() -> None:
    state = deal(ability_decks=[["hex", "purge"], []], abilities=[["gamble"] * 5, []])
    with pytest.raises(IllegalMove, match="ability hand is full"):
        GAME.apply(state, 0, {"type": "draw", "deck": "arcana"})
    state = deal(ability_decks=[["hex", "purge"], []])
    state, events = play(state, 0, {"type": "draw", "deck": "arcana"})
    assert state.abilities[0] == ("hex",) and state.turn == 1
    private = [e for e in events if e.type == "ability_to_hand"]
    assert private[0].visible_to == (0,)


def test_no_two_arcana_draws_in_a_row() -> None:
    state = deal(ability_decks=[["hex", "purge", "gamble"], ["iron_wall", "blessing"]])
    state, _ = play(state, 0, {"type": "draw", "deck": "arcana"})
    assert state.drew_arcana == (True, False)
    state, _ = play(state, 1, {"type": "draw", "deck": "arcana"})
    assert {"type": "draw", "deck": "arcana"} not in GAME.legal_moves(state, 0)
    assert {"type": "draw", "deck": "attack"} in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="arcana deck last turn"):
        GAME.apply(state, 0, {"type": "draw", "deck": "arcana"})
    state, _ = play(state, 0, {"type": "play", "card": "hex"})  # a play is no main action
    assert not GAME.is_legal(state, 0, {"type": "draw", "deck": "arcana"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    assert state.drew_arcana == (False, True)
    assert not GAME.is_legal(state, 1, {"type": "draw", "deck": "arcana"})
    state, _ = play(state, 1, {"type": "draw", "deck": "attack"})
    state, _ = play(state, 0, {"type": "draw", "deck": "arcana"})  # allowed again
    assert state.abilities[0] == ("purge",) and state.drew_arcana == (True, False)
    assert GAME.view(state, 1)["players"][0]["drew_arcana"] is True  # public


def test_edition_1_lets_a_seat_draw_arcana_twice_in_a_row() -> None:
    state = deal({"edition": 1}, ability_decks=[["hex", "purge", "gamble"], ["iron_wall"]])
    assert state.setup.options["edition"] == 1
    state, _ = play(state, 0, {"type": "draw", "deck": "arcana"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    assert GAME.is_legal(state, 0, {"type": "draw", "deck": "arcana"})
    assert GAME.view(state, 1)["players"][0]["drew_arcana"] is False  # nothing barred
    state, _ = play(state, 0, {"type": "draw", "deck": "arcana"})
    assert state.abilities[0] == ("hex", "purge")


def test_a_new_match_plays_the_current_edition_and_an_unknown_one_is_refused() -> None:
    assert deal().setup.options["edition"] == 3
    assert GAME.view(deal(), 0)["options"]["edition"] == 3
    for bad in (0, 4, "2", True, None):
        with pytest.raises(InvalidOptions, match="rules edition"):
            deal({"edition": bad})


def test_an_attack_after_an_arcana_draw_frees_the_next_one() -> None:
    state = deal(ability_decks=[["hex", "purge"], []], hands=hands(a0=[5], d1=[9]))
    state, _ = play(state, 0, {"type": "draw", "deck": "arcana"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, _ = play(state, 0, {"type": "attack"})
    assert state.drew_arcana == (False, False)
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    assert GAME.is_legal(state, 0, {"type": "draw", "deck": "arcana"})


def test_a_death_card_still_kills_and_a_lucky_seven_still_saves() -> None:
    state = deal(attack=[13, 1], defense=[7, 13, 1], first=0)
    after, events = play(state, 0, {"type": "draw", "deck": "attack"})
    assert after.winner == 1 and after.reason == "death_card"
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    assert state.lucky[0] == 1
    state, _ = play(state, 1, {"type": "draw", "deck": "attack"})
    assert state.winner == 0


# --- Each card -------------------------------------------------------------------------------


def attack_data(events: list) -> dict[str, Any]:
    return dict(next(e for e in events if e.type == "attack").data)


def test_berserker_blade_doubles_when_the_attack_falls_short() -> None:
    state = deal(abilities=[["berserker_blade"], []], hands=hands(a0=[2], d1=[12]))
    state, _ = play(state, 0, {"type": "play", "card": "berserker_blade"})
    assert state.lines[0][0] == ("berserker_blade",)
    state, events = play(state, 0, {"type": "attack"})
    data = attack_data(events)
    assert data["attack_total"] == 2 + 7 * 2 and data["damage"] == 4
    assert state.ability_discards[0] == ("berserker_blade",) and state.lines[0][0] == ()


def test_piercing_strike_exposes_the_defense() -> None:
    state = deal(abilities=[["piercing_strike"], []], hands=hands(a0=[6], d1=[10]))
    state, _ = play(state, 0, {"type": "play", "card": "piercing_strike"})
    assert statuses(state, 1)["expose"] == (2, 50)
    state, events = play(state, 0, {"type": "attack"})
    data = attack_data(events)
    assert data["defense_total"] == 5 and data["damage"] == 11 - 5
    assert "expose" not in statuses(state, 1)


def test_chain_slash_adds_one_per_other_attack_card() -> None:
    state = deal(abilities=[["chain_slash"], []], hands=hands(a0=[1, 2, 3]))
    state, _ = play(state, 0, {"type": "play", "card": "chain_slash"})
    state, events = play(state, 0, {"type": "attack"})
    assert attack_data(events)["attack_total"] == 1 + 2 + 3 + 4 + 3


def test_cursed_steel_hurts_its_owner_on_a_blocked_attack() -> None:
    state = deal(abilities=[["cursed_steel"], []], hands=hands(d1=[12]))
    state, _ = play(state, 0, {"type": "play", "card": "cursed_steel"})
    state, events = play(state, 0, {"type": "attack"})
    assert attack_data(events)["damage"] == 0 and state.hp == (37, 40)


def test_bleeding_edge_bleeds_for_two_of_the_targets_turns() -> None:
    state = deal(abilities=[["bleeding_edge"], []])
    state, _ = play(state, 0, {"type": "play", "card": "bleeding_edge"})
    state, events = play(state, 0, {"type": "attack"})
    # 5 damage, then Bleed 2 ticks at once: the target's turn starts.
    assert state.hp[1] == 40 - 5 - 2 and statuses(state, 1)["bleed"] == (1, 2)
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    assert state.hp[1] == 40 - 5 - 4 and "bleed" not in statuses(state, 1)


def test_iron_wall_blocks_then_fortifies() -> None:
    state = deal(abilities=[[], ["iron_wall"]], first=1, hands=hands(a0=[12, 12]))
    state, _ = play(state, 1, {"type": "play", "card": "iron_wall"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, events = play(state, 0, {"type": "attack"})
    assert attack_data(events)["defense_total"] == 8 + 1
    assert statuses(state, 1)["fortify"] == (1, 4)  # added with 2, ticked at its turn start


def test_counter_shield_strikes_back_on_a_full_block() -> None:
    state = deal(abilities=[[], ["counter_shield"]], first=1, hands=hands(a0=[3]))
    state, _ = play(state, 1, {"type": "play", "card": "counter_shield"})
    state, _ = (
        play(state, 1, {"type": "draw", "deck": "arcana"})
        if state.ability_decks[1]
        else play(state, 1, {"type": "draw", "deck": "attack"})
    )
    state, events = play(state, 0, {"type": "attack"})
    assert attack_data(events)["damage"] == 0 and state.hp[0] == 38


def test_mist_barrier_lowers_the_next_attack_card_drawn() -> None:
    state = deal(abilities=[["mist_barrier"], []], attack=[9, 1, 1, 1])
    state, _ = play(state, 0, {"type": "play", "card": "mist_barrier"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    state, _ = play(state, 1, {"type": "draw", "deck": "attack"})
    assert state.hands[1][0] == (9,) and state.mods[1][0] == -2
    assert "mist" not in statuses(state, 1)


def test_guardian_rune_raises_the_next_defense_card() -> None:
    state = deal(abilities=[["guardian_rune"], []], defense=[6, 1, 1])
    state, _ = play(state, 0, {"type": "play", "card": "guardian_rune"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    assert state.mods[0][1] == 3 and state.lines[0][1] == ("guardian_rune",)


def test_double_shamrock_is_a_lucky_card_and_heals() -> None:
    state = deal(abilities=[["double_shamrock"], []], hp=[30, 40], attack=[13, 1, 1])
    state, _ = play(state, 0, {"type": "play", "card": "double_shamrock"})
    assert state.lucky[0] == "double_shamrock" and state.hp[0] == 33
    state, events = play(state, 0, {"type": "draw", "deck": "attack"})
    assert state.winner is None and "lucky_saved" in types(events)
    assert state.ability_discards[0] == ("double_shamrock",)


def test_fate_twist_swaps_the_tops_but_a_death_card_stays() -> None:
    state = deal(abilities=[["fate_twist", "fate_twist"], []], attack=[1, 2], defense=[9, 8])
    after, events = play(state, 0, {"type": "play", "card": "fate_twist"})
    assert after.decks == ((9, 2), (1, 8))
    assert [e.data for e in events if e.type == "fate_twist"] == [{"seat": 0}]
    state = deal(abilities=[["fate_twist"], []], attack=[13, 2], defense=[9, 8])
    after, _ = play(state, 0, {"type": "play", "card": "fate_twist"})
    assert after.decks == state.decks


def test_fortune_surge_draws_two_then_discards_a_chosen_one() -> None:
    state = deal(abilities=[["fortune_surge"], []], ability_decks=[["hex", "purge", "gamble"], []])
    state, _ = play(state, 0, {"type": "play", "card": "fortune_surge"})
    assert state.abilities[0] == ("hex", "purge") and GAME.to_act(state) == (0,)
    assert GAME.legal_moves(state, 0) == [
        {"type": "choose", "card": "hex"},
        {"type": "choose", "card": "purge"},
    ]
    with pytest.raises(IllegalMove, match="Make your choice first"):
        GAME.apply(state, 0, {"type": "draw", "deck": "attack"})
    state, _ = play(state, 0, {"type": "choose", "card": "purge"})
    assert state.abilities[0] == ("hex",)
    assert state.ability_discards[0] == ("fortune_surge", "purge")


def test_blood_pact_costs_hp_now_and_adds_to_the_next_attack() -> None:
    state = deal(abilities=[["blood_pact"], []], hands=hands(a0=[2]))
    state, _ = play(state, 0, {"type": "play", "card": "blood_pact"})
    assert state.hp[0] == 35 and statuses(state, 0)["pact"] == (3, 10)
    state, events = play(state, 0, {"type": "attack"})
    assert attack_data(events)["attack_total"] == 12
    low = deal(abilities=[["blood_pact"], []], hp=[5, 40])
    with pytest.raises(IllegalMove, match="more than 5 HP"):
        GAME.apply(low, 0, {"type": "play", "card": "blood_pact"})


def test_doom_token_keeps_the_next_seven_out_of_the_slot() -> None:
    state = deal(abilities=[["doom_token"], []], attack=[7, 1, 1])
    state, _ = play(state, 0, {"type": "play", "card": "doom_token"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    state, events = play(state, 1, {"type": "draw", "deck": "attack"})
    assert state.lucky[1] is None and state.hands[1][0] == (7,) and "doomed" in types(events)


def test_scrying_orb_shows_the_top_three_to_its_player_only_and_reorders() -> None:
    state = deal(abilities=[["scrying_orb"], []], attack=[4, 5, 6, 1, 2])
    state, events = play(state, 0, {"type": "play", "card": "scrying_orb", "deck": "attack"})
    private = next(e for e in events if e.type == "scry_cards")
    assert private.visible_to == (0,) and private.data["values"] == [4, 5, 6]
    assert GAME.view(state, 0)["pending"]["mine"]["cards"] == [4, 5, 6]
    assert GAME.view(state, 1)["pending"] == {"others": [{"seat": 0, "kind": "scry"}]}
    assert len(GAME.legal_moves(state, 0)) == 6
    with pytest.raises(IllegalMove, match="positions 0 to 2"):
        GAME.apply(state, 0, {"type": "choose", "order": [0, 0, 1]})
    state, _ = play(state, 0, {"type": "choose", "order": [2, 0, 1]})
    assert state.decks[0][:3] == (6, 4, 5)
    assert GAME.view(state, 0)["decks"]["attack"]["known_top"] == [6, 4, 5]
    assert GAME.view(state, 1)["decks"]["attack"]["known_top"] == [6]  # face up (edition 3)


# --- Open tops (edition 3) --------------------------------------------------------------------


def test_from_edition_3_each_decks_top_card_lies_face_up_for_everyone() -> None:
    state = deal(attack=[9, 13, 4, 5], defense=[13, 2, 3, 6])
    for seat in (0, 1, None):
        decks = GAME.view(state, seat)["decks"]
        assert decks["attack"]["known_top"] == [9] and decks["defense"]["known_top"] == [13]
        # The next card is known, so its Death chance is certain either way.
        assert decks["attack"]["death_chance"] == 0.0
        assert decks["defense"]["death_chance"] == 1.0
    state, _ = play(state, 0, {"type": "draw", "deck": "attack"})
    assert GAME.view(state, 1)["decks"]["attack"]["known_top"] == [13]  # the next one shows


def test_edition_2_keeps_every_top_hidden() -> None:
    state = deal({"edition": 2}, attack=[9, 13, 4, 5], defense=[13, 2, 3, 6])
    for seat in (0, 1, None):
        decks = GAME.view(state, seat)["decks"]
        assert decks["attack"]["known_top"] == [] and decks["defense"]["known_top"] == []
        assert decks["attack"]["death_chance"] == 0.25  # one 13 in four, drawn blind


def test_from_edition_3_a_sample_keeps_the_face_up_tops_and_redraws_below() -> None:
    state = deal(attack=[9, 13, 4, 5, 6, 1], defense=[2, 3, 6, 8, 10, 11])
    bottoms = set()
    for index in range(20):
        sample = GAME.sample_hidden(state, 1, Chance(SEED, f"open-tops/{index}"))
        assert sample.decks[0][0] == 9 and sample.decks[1][0] == 2
        bottoms.add(sample.decks[0][1:])
    assert len(bottoms) > 1  # what lies below the top is still drawn at random


def test_swap_hands_has_both_players_choose_at_once() -> None:
    state = deal(abilities=[["swap_hands"], []], hands=hands(a0=[2], d0=[3], a1=[11]))
    state, _ = play(state, 0, {"type": "play", "card": "swap_hands"})
    assert GAME.to_act(state) == (0, 1)
    state, _ = play(state, 1, {"type": "choose", "deck": "attack", "value": 11})
    assert GAME.to_act(state) == (0,)
    assert GAME.view(state, 0)["pending"] == {
        "others": [{"seat": 1, "kind": "swap"}],
        "mine": {"kind": "swap", "chosen": False},
    }
    state, events = play(state, 0, {"type": "choose", "deck": "defense", "value": 3})
    assert state.hands == (((2, 11), ()), ((), (3,)))
    assert GAME.to_act(state) == (0,)
    received = {e.data["seat"]: e.visible_to for e in events if e.type == "card_received"}
    assert received == {0: (0,), 1: (1,)}


def test_purge_discards_a_card_and_draws_from_its_deck() -> None:
    state = deal(abilities=[["purge"], []], hands=hands(a0=[1]), attack=[12, 2])
    state, _ = play(state, 0, {"type": "play", "card": "purge", "deck": "attack", "value": 1})
    assert state.hands[0][0] == (12,) and state.discards[0] == (1,) and state.turn == 0


def test_hex_of_weakness_lowers_the_next_attack() -> None:
    state = deal(abilities=[["hex_of_weakness"], []], first=0, hands=hands(a1=[8]))
    state, _ = play(state, 0, {"type": "play", "card": "hex_of_weakness"})
    state, _ = play(state, 0, {"type": "draw", "deck": "defense"})
    state, events = play(state, 1, {"type": "attack"})
    assert attack_data(events)["attack_total"] == 5


def test_hex_lowers_the_next_card_drawn() -> None:
    state = deal(abilities=[["hex"], []], defense=[10, 1, 1])
    state, _ = play(state, 0, {"type": "play", "card": "hex"})
    state, _ = play(state, 0, {"type": "draw", "deck": "attack"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    assert state.mods[1][1] == -2 and "hex" not in statuses(state, 1)


def test_blessing_heals_but_never_above_the_start() -> None:
    state = deal(abilities=[["blessing"], []], hp=[39, 40])
    state, _ = play(state, 0, {"type": "play", "card": "blessing"})
    assert state.hp[0] == 40


def test_mirror_shield_sends_half_the_damage_back() -> None:
    state = deal(abilities=[[], ["mirror_shield"]], first=1, hands=hands(a0=[10]))
    state, _ = play(state, 1, {"type": "play", "card": "mirror_shield"})
    state, _ = play(state, 1, {"type": "draw", "deck": "defense"})
    state, events = play(state, 0, {"type": "attack"})
    data = attack_data(events)
    # 10 against the drawn 1: 9 damage, 4 of it (50%, rounded down) reflected.
    assert data["damage"] == 5 and data["reflected"] == 4 and state.hp == (36, 35)


def test_gamble_draws_two_and_discards_one_at_random() -> None:
    state = deal(abilities=[["gamble"], []], ability_decks=[["hex", "purge", "blessing"], []])
    state, _ = play(state, 0, {"type": "play", "card": "gamble"})
    assert len(state.abilities[0]) == 1 and len(state.ability_discards[0]) == 2
    assert state.ability_decks[0] == ("blessing",)


def test_every_status_has_a_test_above() -> None:
    assert set(STATUSES) == {
        "bleed", "fortify", "expose", "mirror", "weakness", "pact", "hex", "mist",
        "guardian", "doom",
    }  # fmt: skip


def test_statuses_stack_by_their_rule() -> None:
    state = deal(
        statuses=[[{"key": "bleed", "turns": 1, "amount": 2}], []],
        abilities=[[], ["bleeding_edge"]],
        first=1,
        hands=hands(d0=[]),
    )
    state, _ = play(state, 1, {"type": "play", "card": "bleeding_edge"})
    state, _ = play(state, 1, {"type": "attack"})
    # Bleed adds: 2 + 2 HP a turn, for the longer of the two durations (2), ticked once.
    assert statuses(state, 0)["bleed"] == (1, 4)


# --- Fatigue (edition 3) ------------------------------------------------------------------------


def _at_turn(state: ArcanaState, turns: int) -> ArcanaState:
    """The deal with both seats already `turns` own turns in (seat 0 in its `turns`-th)."""
    after = state.replace(turns_taken=(turns, turns))
    assert isinstance(after, ArcanaState)
    return after


DRAW = {"type": "draw", "deck": "defense"}  # a turn that changes no HP


def test_from_edition_3_a_seats_turns_after_its_20th_cost_1_2_3_hp() -> None:
    assert fatigue(3, 20) == 0 and fatigue(3, 21) == 1 and fatigue(3, 23) == 3
    assert fatigue(2, 40) == 0
    state = _at_turn(deal(hp=[40, 40]), 20)
    assert GAME.view(state, 1)["players"][0]["fatigue_next"] == 1  # public, ahead of time
    state, events = play(state, 0, DRAW)  # seat 1's 21st turn starts: 1 HP
    lost = [e.data for e in events if e.type == "hp_lost"]
    assert lost == [{"seat": 1, "amount": 1, "cause": "fatigue", "hp": 39}]
    state, events = play(state, 1, DRAW)  # seat 0's 21st: 1 HP
    state, events = play(state, 0, DRAW)  # seat 1's 22nd: 2 HP
    assert state.hp == (39, 37) and GAME.view(state, 0)["players"][0]["fatigue_next"] == 2


def test_fatigue_can_end_the_match_and_edition_2_has_none() -> None:
    state, _ = play(_at_turn(deal(hp=[40, 1]), 20), 0, DRAW)
    result = GAME.outcome(state)
    assert result is not None and result.winners == (0,) and result.reason == "hp"
    old, events = play(_at_turn(deal({"edition": 2}, hp=[40, 1]), 40), 0, DRAW)
    assert GAME.outcome(old) is None and old.hp[1] == 1
    assert not [e for e in events if e.type == "hp_lost"]
    assert GAME.view(old, 0)["players"][0]["fatigue_next"] == 0
