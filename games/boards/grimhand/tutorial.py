"""The Grimhand Tactics first match: draw, attack, the Lucky slot and the Death card.

The deal stacks the top of both decks so the coached moves meet each rule in turn; below
that, the remaining cards of a standard 4-copy deck lie in a fixed shuffled order.
"""

from __future__ import annotations

from games.boards.tutorial import CoachStep, Tutorial
from games.engine.core import Chance

COPIES = 4
ATTACK_TOP = [5, 8, 7, 13]  # you 5, tutor 8, you 7 (Lucky), you 13 (Death, saved)
DEFENSE_TOP = [2, 4, 3]  # tutor 2, you 4, tutor 3

DRAW_ATTACK = {"type": "draw", "deck": "attack"}
DRAW_DEFENSE = {"type": "draw", "deck": "defense"}
ATTACK = {"type": "attack"}


def _deck(top: list[int], label: str) -> list[int]:
    rest = [value for value in range(1, 14) for _ in range(COPIES)]
    for value in top:
        rest.remove(value)
    return top + Chance(b"cardhall-tutorial-grimhand", label).shuffle(rest)


TUTORIAL = Tutorial(
    game="grimhand",
    title="Your first Grimhand match",
    options={
        "deal": {
            "attack": _deck(ATTACK_TOP, "attack"),
            "defense": _deck(DEFENSE_TOP, "defense"),
            "first": 0,
        }
    },
    ai_script={1: DRAW_DEFENSE, 3: DRAW_ATTACK, 5: ATTACK, 7: DRAW_DEFENSE},
    steps={
        0: CoachStep(
            "Welcome to Grimhand Tactics! Each turn you do one thing: draw a card or attack. "
            "Start by drawing from the red Attack deck.",
            DRAW_ATTACK,
        ),
        2: CoachStep(
            "Your 5 is in your attack hand. Your tutor drew a defense card: you only ever see "
            "how many cards they hold, never which. Now draw from the blue Defense deck to "
            "guard yourself.",
            DRAW_DEFENSE,
        ),
        4: CoachStep(
            "Draw from the Attack deck again. The fate meter on each deck is the chance that "
            "your next card from it is the Death card, the 13.",
            DRAW_ATTACK,
        ),
        6: CoachStep(
            "A Lucky 7! It sits in your Lucky slot and will save you from one Death card. "
            "Then your tutor attacked: their 8 against your 4 defense is 4 damage, and all "
            "those cards were discarded. Strike back: attack with your 5.",
            ATTACK,
        ),
        8: CoachStep(
            "Good hit: 5 against their 2 defense. Draw from the Attack deck once more…",
            DRAW_ATTACK,
        ),
        10: CoachStep(
            "That was the Death card! Drawing a 13 with no Lucky 7 loses the game on the "
            "spot; your 7 saved you, and both cards went to the discard. A hand of 14 cards "
            "is flushed, and spent decks are reshuffled. Now win this!"
        ),
    },
)


# --- Arcana: from the first ability card to the first boss -----------------------------------

ARCANA_KEY = "grimhand-arcana"  # Match.tutorial of the Arcana tutorial
ARCANA_COPIES = 3  # games.engine.grimhand.arcana.state.COPIES, DEATHS
ARCANA_DEATHS = 2
PLAY_PIERCE = {"type": "play", "card": "piercing_strike"}
PLAY_PACT = {"type": "play", "card": "blood_pact"}
DRAW_ARCANA = {"type": "draw", "deck": "arcana"}


def _arcana_deck(top: list[int], label: str) -> list[int]:
    rest = [value for value in range(1, 13) for _ in range(ARCANA_COPIES)]
    rest += [13] * ARCANA_DEATHS
    for value in top:
        rest.remove(value)
    return top + Chance(b"cardhall-tutorial-grimhand-arcana", label).shuffle(rest)


ARCANA_TUTORIAL = Tutorial(
    game="grimhand",
    title="Grimhand Arcana: your first boss",
    options={
        "variant": "arcana",
        "boss": "bone_warden",
        "event": "none",
        "deal": {
            "attack": _arcana_deck([9], "attack"),
            "defense": _arcana_deck([4], "defense"),
            "hands": [{"attack": [5], "defense": [3]}, {"attack": [4], "defense": [2]}],
            "lucky": [False, True],
            "hp": [40, 16],
            "abilities": [["piercing_strike"], []],
            "ability_decks": [
                ["blood_pact", "blessing", "scrying_orb", "hex"],
                ["counter_shield", "iron_wall", "guardian_rune"],
            ],
            "first": 0,
            "energy": [1, 1],
        },
    },
    ai_script={2: DRAW_DEFENSE},
    steps={
        0: CoachStep(
            "Welcome to Grimhand Arcana! Your tutor plays a boss today: the Bone Warden, "
            "worn down to 16 HP but with a Lucky 7 in its slot. Under your numbered hands "
            "sits your ability hand. Each card costs energy (the gold pips); you have 1 this "
            "turn. Tap a card to read it, then play Piercing Strike.",
            PLAY_PIERCE,
        ),
        1: CoachStep(
            "Piercing Strike joined your attack line face up: its 5 counts at your next "
            "attack. It also Exposed the Bone Warden: see the badge with the turns it has "
            "left. Playing cards never ends your turn; drawing or attacking does. The top "
            "card of each numbered deck lies face up, so you see what a draw would bring: "
            "this time, draw from your arcana deck for another ability card.",
            DRAW_ARCANA,
        ),
        3: CoachStep(
            "The Warden drew a defense card, and its Expose ticked down: 1 turn left. You drew "
            "Blood Pact. This turn you have 2 energy: sign the Pact, 5 of your HP for +10 on "
            "your next attack.",
            PLAY_PACT,
        ),
        4: CoachStep(
            "The Pact is a status on you now. Your attack: 5 in hand, 5 in your line, +10 from "
            "the Pact; their defense is halved by Expose. Attack!",
            ATTACK,
        ),
    },
    # Shown only if the match is still running past the script (the attack of step 4 ends
    # it: the board's outcome panel then says "Victory!").
    farewell=(
        "The Bone Warden falls: your first boss is beaten! Next, build a deck of your own "
        "and walk the Arcana path, where the Warden waits again at full strength."
    ),
)
