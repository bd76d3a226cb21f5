"""The Grimhand Arcana board, rendered for real matches from fixed deals.

The viewer's ability hand as playable cards (a form per playable card, with its target),
energy pips, status badges with their turns, the ability decks and discards, the match
event and the boss, the pending choices (Scrying Orb, Fortune Surge, Swap Hands) as forms,
the form decoder with its readable refusals, the animation hooks, every Arcana log line,
and the Arcana tutorial from its first card to its first boss.
"""

import html
import json
import re

import pytest
from django.urls import reverse

from games import services
from games.boards import grimhand, tutorial_for
from games.boards.grimhand import arcana
from games.boards.grimhand.tutorial import ARCANA_KEY, ARCANA_TUTORIAL
from games.engine import registry
from games.engine.core import Event
from games.models import Match, Move
from games.services._shared import TUTOR
from games.services.automation import automation_run
from tests.pages import page

DEAL = {
    "attack": [5, 6, 9, 2],
    "defense": [1, 4, 8],
    "hands": [{"attack": [3], "defense": [2]}, {"attack": [4], "defense": [9, 11]}],
    "abilities": [
        ["scrying_orb", "purge", "piercing_strike", "fortune_surge", "iron_wall"],
        ["swap_hands", "hex", "mirror_shield"],
    ],
    "ability_decks": [["gamble", "hex"], ["doom_token", "counter_shield"]],
    "statuses": [[{"key": "bleed", "turns": 2, "amount": 1}], []],
    "hp": [40, 30],
    "energy": [3, 3],
    "first": 0,
}
# What Bob holds or will draw, which Alice's page must never name.
BOBS_SECRETS = ("swap_hands", "mirror_shield", "doom_token", "counter_shield")
ABILITY = re.compile(r'data-card="ability-([a-z_]+)"')


def arcana_match(creator, invitee, deal=DEAL, **options):
    match = services.match_create(
        creator=creator,
        game_slug="grimhand",
        opponent="player",
        invitee_username=invitee.username,
        options={"variant": "arcana", "event": "blood_moon", "deal": deal, **options},
    )
    services.match_join(match_id=match.pk, user=invitee)
    match.refresh_from_db()
    return match


def post(client, match, user, data, **headers):
    client.force_login(user)
    match.refresh_from_db()
    return client.post(
        reverse("games:move", args=[match.pk]),
        {"ply": match.ply, "move_id": f"m{match.ply}-{len(data)}", **data},
        **headers,
    )


def play(match, user, move):
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()


@pytest.fixture
def match(alice, bob):
    return arcana_match(alice, bob)


def test_the_viewer_sees_their_ability_hand_with_a_form_per_playable_card(client, match, alice):
    board = page(client, match, alice)
    assert 'data-testid="ability-hand"' in board
    hand = board.split('data-testid="ability-hand"')[1]
    for card in ("scrying_orb", "purge", "piercing_strike", "fortune_surge", "iron_wall"):
        assert f'data-testid="ability-{card}"' in hand
        assert f'data-testid="play-{card}"' in hand
        assert f"img/grimhand/arcana/{arcana.POOL_BY_ID[card].effect}.svg" in hand
    # Targets where the move needs one: a deck (Scrying Orb), a card of the hand (Purge).
    orb = hand.split('data-testid="target-scrying_orb"')[1].split("</select>")[0]
    assert 'value="attack"' in orb and 'value="defense"' in orb
    purge = hand.split('data-testid="target-purge"')[1].split("</select>")[0]
    assert 'value="attack:3"' in purge and 'value="defense:2"' in purge
    assert 'data-testid="target-piercing_strike"' not in hand  # no target
    # Five ability cards: the hand is full, so the arcana deck is shown, not drawable.
    assert 'data-testid="deck-arcana"' in board and 'data-testid="draw-arcana"' not in board
    # Each card explains itself (tap or hover).
    assert "Look at the top 3 cards of a deck, then put them back in any order." in board


def test_no_card_of_the_opponents_hand_or_deck_reaches_the_page(client, match, alice, bob):
    for viewer in (alice, None):
        board = page(client, match, viewer)
        for secret in BOBS_SECRETS:
            assert secret not in board
        assert "Swap Hands" not in board and "Mirror Shield" not in board
        assert "hex" not in ABILITY.findall(board)
    assert 'data-testid="ability-count-1">' in page(client, match, alice)
    spectator = page(client, match, None)
    assert 'data-testid="ability-hand"' not in spectator
    for card in ("scrying_orb", "purge", "piercing_strike", "fortune_surge", "iron_wall"):
        assert card not in spectator
    bobs = page(client, match, bob)
    assert "scrying_orb" not in bobs and "fortune_surge" not in bobs
    assert 'data-testid="play-swap_hands"' not in bobs  # not his turn: no forms


def test_energy_statuses_decks_and_the_match_event(client, match, alice):
    board = page(client, match, alice)
    energy = board.split('data-testid="energy-0"')[1].split("</span></span>")[0]
    assert energy.count("ga-pip is-full") == 3
    badge = board.split('data-testid="status-0-bleed"')[1].split("</span></span>")[0]
    assert "Bleed" in badge and "1/turn" in badge and ">2</b>" in badge
    assert "2 turns left" in badge
    assert 'data-testid="arcana-deck-0">Deck 2' in board
    assert 'data-testid="arcana-deck-1">Deck 2' in board
    assert 'data-testid="ability-count-1"' in board
    assert 'data-testid="match-event"' in board and "Blood Moon" in board
    assert 'data-testid="boss"' not in board


def test_a_play_form_plays_the_card_and_its_status_badge_and_animation_follow(
    client, match, alice, bob
):
    response = post(client, match, alice, {"arcana": "play", "card": "piercing_strike"})
    assert response.status_code == 302
    move = Move.objects.get(match=match)
    assert move.payload == {"type": "play", "card": "piercing_strike"}
    board = page(client, match, bob)
    assert 'data-testid="status-1-expose"' in board
    assert "fx-status_added" in board and "fx-card_played" in board
    assert 'data-testid="cast"' in board and "alice plays Piercing Strike (1 energy)." in board
    line = board.split('data-testid="line-0-attack"')[1].split("</div>")[0]
    assert 'data-card="ability-piercing_strike"' in line and "is-fresh" in line
    mine = page(client, match, alice)
    energy = mine.split('data-testid="energy-0"')[1].split("</span></span>")[0]
    assert energy.count("ga-pip is-full") == 2


def test_the_scrying_orb_shows_its_cards_to_its_player_only_and_the_order_form_works(
    client, match, alice, bob
):
    post(client, match, alice, {"arcana": "play", "card": "scrying_orb", "target": "attack"})
    assert Move.objects.get(match=match).payload == {
        "type": "play",
        "card": "scrying_orb",
        "deck": "attack",
    }
    mine = page(client, match, alice)
    assert 'data-testid="choice-scry"' in mine
    choice = mine.split('data-testid="choice-scry"')[1]
    assert re.findall(r'data-card="(attack-\d+)"', choice.split("ga-choice-help")[0]) == [
        "attack-5",
        "attack-6",
        "attack-9",
    ]
    assert 'name="place2"' in choice
    theirs = page(client, match, bob)
    assert 'data-testid="choice-scry"' not in theirs
    # The top card lies face up for everyone (edition 3); the two below it are alice's.
    assert 'data-card="top-attack-5"' in theirs
    assert "attack-6" not in theirs and "attack-9" not in theirs
    assert "is reordering the cards they saw" in theirs
    assert "top cards are 5, 6, 9" in mine and "top cards are" not in theirs
    response = post(client, match, alice, {"arcana": "scry", "place0": 2, "place1": 0, "place2": 1})
    assert response.status_code == 302
    assert Move.objects.filter(match=match).order_by("-ply").first().payload == {
        "type": "choose",
        "order": [2, 0, 1],
    }
    assert "puts the top 3 Attack cards back in a new order" in page(client, match, bob)


def test_purge_posts_the_card_of_the_hand_it_names(client, match, alice):
    post(client, match, alice, {"arcana": "play", "card": "purge", "target": "defense:2"})
    assert Move.objects.get(match=match).payload == {
        "type": "play",
        "card": "purge",
        "deck": "defense",
        "value": 2,
    }
    assert "alice plays Purge on their Defense 2." in page(client, match, alice)


def test_fortune_surge_asks_which_card_to_discard(client, match, alice, bob):
    post(client, match, alice, {"arcana": "play", "card": "fortune_surge"})
    board = page(client, match, alice)
    assert 'data-testid="choice-discard"' in board
    choice = board.split('data-testid="choice-discard"')[1]
    assert 'data-testid="discard-gamble"' in choice and 'data-testid="discard-hex"' in choice
    assert "choose an ability card to discard" in page(client, match, bob)
    found = re.search(r'value="([^"]+)"[^>]*data-testid="discard-iron_wall"', choice)
    response = post(client, match, alice, {"move": html.unescape(found.group(1))})
    assert response.status_code == 302
    board = page(client, match, bob)
    assert "alice discards Iron Wall (after Fortune Surge)." in board
    assert 'data-testid="ability-discard-0"' in board


def test_swap_hands_asks_both_seats_at_once(client, alice, bob):
    deal = {**DEAL, "first": 1, "abilities": [["purge"], ["swap_hands"]]}
    match = arcana_match(alice, bob, deal)
    post(client, match, bob, {"arcana": "play", "card": "swap_hands"})
    for user, mine in ((alice, "give-attack-3"), (bob, "give-defense-9")):
        board = page(client, match, user)
        assert 'data-testid="choice-swap"' in board and f'data-testid="{mine}"' in board
    give = {"type": "choose", "deck": "attack", "value": 3}
    post(client, match, alice, {"move": json.dumps(give)})
    waiting = page(client, match, alice)
    assert 'data-testid="choice-swap"' not in waiting
    assert "give-defense-9" not in waiting and "is choosing a card to give" in waiting
    give = {"type": "choose", "deck": "defense", "value": 9}
    post(client, match, bob, {"move": json.dumps(give)})
    board = page(client, match, alice)
    assert "fx-hands_swapped" in board and "alice receives Defense 9." in board
    assert "bob receives Attack 3." not in board  # what Bob got is Bob's to see


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"arcana": "play", "card": "swap_hands"}, "You do not hold that ability card."),
        ({"arcana": "play", "card": "scrying_orb", "target": "sideways"}, "attack or the defense"),
        ({"arcana": "play", "card": "purge", "target": "attack:x"}, "whole number"),
        ({"arcana": "play", "card": "purge", "target": "attack:12"}, "You hold no 12"),
        ({"arcana": "play", "card": ""}, "Pick the ability card to play."),
        ({"arcana": "cheat", "card": "purge"}, "Reload the page and try again."),
        ({"arcana": "scry", "place0": 0}, "There is nothing to choose now."),
        ({"arcana": "scry"}, "Choose the new order of the cards you saw."),
    ],
)
def test_bad_or_stale_arcana_forms_get_a_readable_message_and_write_nothing(
    client, match, alice, data, message
):
    response = post(client, match, alice, data, HTTP_HX_REQUEST="true")
    assert response.status_code in (400, 422)  # unreadable form / refused by the engine
    assert message in html.unescape(response.content.decode())
    assert not Move.objects.filter(match=match).exists()


def test_a_card_that_costs_too_much_has_no_form_and_says_why(client, alice, bob):
    deal = {**DEAL, "energy": [1, 1], "abilities": [["iron_wall", "purge"], ["hex"]]}
    match = arcana_match(alice, bob, deal)
    board = page(client, match, alice)
    assert 'data-testid="play-iron_wall"' not in board and "needs 2 energy" in board
    assert 'data-testid="play-purge"' in board
    response = post(client, match, alice, {"arcana": "play", "card": "iron_wall"})
    assert response.status_code in (400, 422)
    assert "Iron Wall costs 2 energy; you have 1." in html.unescape(response.content.decode())


def test_a_boss_match_shows_the_boss_and_its_twist(client, alice, bob):
    match = arcana_match(alice, bob, boss="plague_witch", event="none")
    board = page(client, match, alice)
    assert 'data-testid="boss"' in board and "The Plague Witch" in board
    assert "Bleeds you 1 HP" in board
    assert 'data-testid="match-event"' not in board  # "none": no banner
    assert 'aria-valuemax="60"' in board  # the boss's own HP


def test_heal_and_reflect_switch_their_animations_on(client, alice, bob):
    hands = [{"attack": [8], "defense": []}, {"attack": [4], "defense": []}]
    deal = {**DEAL, "abilities": [["blessing"], ["mirror_shield"]], "hp": [30, 30], "first": 1}
    match = arcana_match(alice, bob, {**deal, "hands": hands})
    play(match, bob, {"type": "play", "card": "mirror_shield"})
    play(match, bob, {"type": "draw", "deck": "attack"})
    play(match, alice, {"type": "play", "card": "blessing"})
    board = page(client, match, alice)
    assert 'data-testid="heal-pop">+4<' in board and "fx-healed" in board
    play(match, alice, {"type": "attack"})
    board = page(client, match, alice)
    assert "fx-reflected" in board and "reflected by the mirror" in board


def test_an_attack_s_hp_bar_ghost_starts_from_the_hp_before_the_blow(client, alice, bob):
    """Arcana's attack events carry no HP: the ghost starts from what is shown plus the
    damage (it was written `--from: %`)."""
    hands = [{"attack": [8], "defense": []}, {"attack": [4], "defense": []}]
    match = arcana_match(alice, bob, {**DEAL, "hands": hands, "hp": [30, 30], "first": 0})
    play(match, alice, {"type": "attack"})
    board = page(client, match, alice)
    ghosts = re.findall(r'class="gh-hp-ghost" style="--from: ([^;]*); --to: ([^"]*)"', board)
    assert ghosts, "no HP ghost after a blow"
    for start, end in ghosts:
        assert re.fullmatch(r"\d+%", start) and re.fullmatch(r"\d+%", end)
        assert int(start[:-1]) > int(end[:-1])


def test_the_classic_board_shows_nothing_of_arcana(client, alice, bob):
    match = services.match_create(
        creator=alice, game_slug="grimhand", opponent="player", invitee_username=bob.username
    )
    services.match_join(match_id=match.pk, user=bob)
    board = page(client, match, alice)
    assert "ga-" not in board.split('data-testid="grimhand-table"')[1]
    assert "is-arcana" not in board


ARCANA_EVENTS = [
    (
        Event("card_played", {"seat": 0, "card": "scrying_orb", "deck": "attack", "cost": 1}),
        "Alice plays Scrying Orb on the Attack deck (1 energy).",
    ),
    (
        Event("status_added", {"seat": 1, "status": "expose", "turns": 2, "amount": 50}),
        "Bob is under Expose −50% for 2 turns.",
    ),
    (
        Event("status_ticked", {"seat": 1, "status": "bleed", "turns": 1}),
        "Bob's Bleed ticks: 1 turn left.",
    ),
    (
        Event("status_ended", {"seat": 0, "status": "pact", "turns": 2, "used": True}),
        "Alice's Blood Pact is used up.",
    ),
    (
        Event("hp_lost", {"seat": 1, "amount": 2, "cause": "bleed", "hp": 20}),
        "Bob bleeds: −2 HP, 20 left.",
    ),
    (
        Event("status_added", {"seat": 0, "status": "pact", "turns": 3, "amount": 10}),
        "Alice gains Blood Pact +10 for 3 turns.",
    ),
    (Event("healed", {"seat": 0, "amount": 4, "hp": 34}), "Alice heals 4 HP (34 HP)."),
    (Event("ability_drawn", {"seat": 1}), "Bob draws an ability card."),
    (Event("ability_to_hand", {"seat": 0, "card": "hex"}), "Alice takes Hex into"),
    (
        Event("ability_discarded", {"seat": 0, "card": "gamble", "reason": "gamble"}),
        "Alice discards Gamble (lost to the Gamble).",
    ),
    (Event("ability_reshuffled", {"seat": 0, "count": 5}), "reshuffled from its 5 discards"),
    (
        Event("scry_cards", {"seat": 0, "deck": "defense", "values": [3, 1, 13]}),
        "the Defense deck's top cards are 3, 1, 13",
    ),
    (Event("scried", {"seat": 0, "deck": "attack", "count": 3}), "puts the top 3 Attack"),
    (Event("fate_twist", {"seat": 1}), "Bob twists fate"),
    (Event("choice", {"seat": None, "kind": "swap"}), "Swap Hands! Both players choose"),
    (Event("choice", {"seat": 0, "kind": "discard"}), "Alice must choose an ability card"),
    (Event("swap_chosen", {"seat": 1}), "Bob has chosen a card to give."),
    (Event("hands_swapped", {"gave": ["attack", "defense"]}), "The chosen cards change hands."),
    (Event("card_received", {"seat": 0, "deck": "attack", "value": 9}), "Alice receives Attack 9."),
    (Event("combo", {"seat": 0, "bonus": 2}), "Alice's combo: +2"),
    (Event("doomed", {"seat": 1, "deck": "attack"}), "Doom! Bob's Lucky 7 crumbles"),
    (
        Event("lucky_slotted", {"seat": 0, "card": "double_shamrock"}),
        "Alice sets Double Shamrock in the Lucky slot!",
    ),
    (
        Event(
            "attack",
            {
                "seat": 0,
                "target": 1,
                "attack": [3, 5],
                "abilities": ["chain_slash"],
                "defense": [2],
                "guards": ["iron_wall"],
                "attack_total": 14,
                "defense_total": 10,
                "combo": True,
                "damage": 2,
                "reflected": 2,
            },
        ),
        "Alice attacks Bob with 3 + 5 + Chain Slash = 14 (combo!) against 10: 2 damage, "
        "2 reflected by the mirror.",
    ),
    (
        Event("card_discarded", {"seat": 0, "deck": "attack", "value": 1, "reason": "hand_limit"}),
        "Alice discards an Attack 1 (over the hand limit).",
    ),
]


@pytest.mark.parametrize(("event", "line"), ARCANA_EVENTS)
def test_every_arcana_event_has_a_log_line(event, line):
    assert line in grimhand.describe(event, ["Alice", "Bob"])


def test_the_arcana_engine_emits_no_event_without_its_own_log_line():
    """Every event type the Arcana rules emit is worded (not the generic fallback)."""
    worded = {event.type for event, _ in ARCANA_EVENTS}
    classic = {"draw", "card_to_hand", "lucky_slotted", "death_card", "lucky_saved", "death"}
    classic |= {"attack", "blocked", "pass", "reshuffled", "card_discarded"}
    source = "".join(
        path.read_text()
        for path in __import__("pathlib")
        .Path(registry.get("grimhand").__module__.replace(".", "/"))
        .parent.joinpath("arcana")
        .glob("*.py")
    )
    emitted = set(re.findall(r'Event\(\s*"([a-z_]+)"', source))
    emitted -= {"none", "blood_moon", "stone_sky", "harvest_moon", "arcane_tide"}  # not events
    assert emitted <= worded | classic, emitted - worded - classic


def test_the_arcana_tutorial_is_registered_beside_the_classic_one():
    assert tutorial_for(ARCANA_KEY) is ARCANA_TUTORIAL
    assert tutorial_for("grimhand").game == ARCANA_TUTORIAL.game == "grimhand"
    assert tutorial_for("grimhand") is not ARCANA_TUTORIAL


def test_the_arcana_tutorial_leads_from_the_first_card_to_beating_the_first_boss(client, alice):
    match = services.match_create(
        creator=alice,
        game_slug="grimhand",
        opponent="ai",
        ai_level=TUTOR,
        options=ARCANA_TUTORIAL.options,
        tutorial=ARCANA_KEY,
    )
    board = page(client, match, alice)
    assert "Welcome to Grimhand Arcana" in board and "The Bone Warden" in board
    assert re.search(r'class="ga-play is-coached"[^>]*data-testid="play-piercing_strike"', board)
    for step in (0, 1):
        play(match, alice, ARCANA_TUTORIAL.steps[step].move)
    automation_run(match_id=match.pk)
    match.refresh_from_db()
    assert match.ply == 3
    board = page(client, match, alice)
    assert "Expose ticked down" in board
    assert re.search(r'class="ga-play is-coached"[^>]*data-testid="play-blood_pact"', board)
    for step in (3, 4):
        play(match, alice, ARCANA_TUTORIAL.steps[step].move)
    assert match.is_finished and match.outcome["winners"] == [0]
    board = page(client, match, alice)
    assert "Victory!" in board


def test_the_rules_page_starts_the_arcana_tutorial(client, alice):
    client.force_login(alice)
    rules = client.get(reverse("games:rules", args=["grimhand"])).content.decode()
    assert reverse("games:tutorial", args=[ARCANA_KEY]) in rules
    response = client.post(reverse("games:tutorial", args=[ARCANA_KEY]))
    assert response.status_code == 302
    match = Match.objects.get(tutorial=ARCANA_KEY)
    assert match.game == "grimhand" and match.options["variant"] == "arcana"
    assert response["Location"] == match.get_absolute_url()


def test_after_an_arcana_draw_the_deck_says_why_it_is_closed(client, alice, bob):
    deal = {**DEAL, "abilities": [["iron_wall"], ["hex"]], "statuses": [[], []]}
    match = arcana_match(alice, bob, deal=deal)
    board = page(client, match, alice)
    assert 'data-testid="draw-arcana"' in board and 'data-testid="arcana-rested"' not in board

    play(match, alice, {"type": "draw", "deck": "arcana"})
    play(match, bob, {"type": "draw", "deck": "attack"})

    board = page(client, match, alice)
    assert 'data-testid="draw-arcana"' not in board
    assert 'data-testid="arcana-rested"' in board
    assert "You drew from it last turn" in html.unescape(board)
    assert 'data-testid="arcana-rested"' not in page(client, match, bob)  # his draw was numbered


def test_each_decks_top_card_lies_face_up_for_both_players_and_spectators(
    client, alice, bob, make_user
):
    """Edition 3 ("Open tops"): the top card of each numbered deck is drawn face up on the
    pile for everyone; a Death card on top glows and its fate meter reads certain."""
    deal = {**DEAL, "defense": [13, 4, 8]}
    match = arcana_match(alice, bob, deal=deal)
    for viewer in (alice, bob, make_user("carol")):
        board = page(client, match, viewer)
        assert 'data-card="top-attack-5"' in board and "On top: Attack 5." in board
        assert 'data-card="top-defense-13"' in board and "On top: Death 13." in board
        top = board.split('data-card="top-defense-13"')[0].rsplit("<span", 1)[1]
        assert "is-death" in top
        assert 'data-testid="fate-defense">100%' in board and "fate-dire" in board
        assert 'data-testid="fate-attack">0%' in board
        assert "attack-6" not in board.split('data-testid="zone-attack"')[1].split("gh-fate")[0]


def test_an_edition_2_match_keeps_its_tops_face_down(client, alice, bob):
    match = arcana_match(alice, bob, edition=2)
    board = page(client, match, bob)
    assert 'data-card="top-' not in board and 'data-testid="top-attack"' not in board
    assert "face down" in board


def test_fatigue_is_shown_beside_the_statuses_and_warned_of_three_turns_ahead():
    """Edition 3's fatigue (docs/rules/grimhand.md, "Fatigue"): the badge names what the
    seat's next turn costs, or how many turns are left before it starts."""
    view = {"options": {"edition": 3}}
    assert arcana.fatigue_badge({"turns_taken": 16, "fatigue_next": 0}, view) is None
    soon = arcana.fatigue_badge({"turns_taken": 17, "fatigue_next": 0}, view)
    assert soon["label"] == "Fatigue in 3" and "starts in 3 turns" in soon["tooltip"]
    assert arcana.fatigue_badge({"turns_taken": 19, "fatigue_next": 0}, view)["label"] == (
        "Fatigue in 1"
    )
    biting = arcana.fatigue_badge({"turns_taken": 21, "fatigue_next": 2}, view)
    assert biting["label"] == "Fatigue −2" and "costs 2 HP" in biting["tooltip"]
    assert arcana.fatigue_badge({"turns_taken": 30, "fatigue_next": 0}, {"options": {}}) is None
    line = arcana.describe(
        Event("hp_lost", {"seat": 1, "amount": 3, "cause": "fatigue", "hp": 12}),
        ["alice", "bob"],
    )
    assert line == "bob tires (fatigue): −3 HP, 12 left."


def test_the_table_gives_each_side_its_fatigue(alice, bob):
    match = arcana_match(alice, bob)
    game = registry.get("grimhand")
    state = game.new(2, bytes(match.seed), match.options)
    view = grimhand.decorate(game.view(state.replace(turns_taken=(21, 18)), 1))
    sides = {side["seat"]: side for side in view["sides"]}
    assert sides[0]["fatigue"]["label"] == "Fatigue −2"  # its 22nd turn costs 2
    assert sides[1]["fatigue"]["label"] == "Fatigue in 2"  # its 21st turn is 2 turns off
