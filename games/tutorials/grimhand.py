"""The Grimhand Tactics first match: draw, attack, the Lucky slot and the Death card.

The deal stacks the top of both decks so the coached moves meet each rule in turn; below
that, the remaining cards of a standard 4-copy deck lie in a fixed shuffled order.
"""

from __future__ import annotations

from games.engine.core import Chance
from games.tutorials import CoachStep, Tutorial, register

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


TUTORIAL = register(
    Tutorial(
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
)
