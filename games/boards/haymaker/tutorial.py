"""The Haymaker first bout: attack, block, haymaker, reversal (both ways), the hit, the pass.

The deal fixes both hands, the burned cards and the draw pile, and the player (seat 0)
attacks first. The tutor's hand holds no cards adding up to exactly 7, so its block of the
opening 7 is a plain one; every scripted tutor move is in the engine's listed legal moves
(the scripted bot plays only those). The hit comes last, since the seed picks its card.
"""

from __future__ import annotations

from games.boards.tutorial import CoachStep, Tutorial

PLAYER_HAND = ["7C", "8C", "AD", "6D", "3H", "5H", "10H", "2S", "4S", "9S"]
TUTOR_HAND = ["4C", "9C", "10C", "8D", "9D", "10D", "9H", "5S", "6S", "10S"]
BURNED = ["2C", "5D", "AH", "8S"]
# The player draws the 7H after the tutor's reversal and the 8H after their own.
DECK = ["7H", "3C", "2D", "8H", "5C", "AS", "4D", "6C", "3S", "2H", "7D", "AC", "6H", "3D"]
DECK += ["7S", "4H"]

JAB = {"type": "attack", "cards": ["7C"]}
HAYMAKER = {"type": "haymaker", "cards": ["3H", "5H"]}
EXACT_BLOCK = {"type": "block", "cards": ["6D"]}
BAIT = {"type": "attack", "cards": ["4S"]}
PASS = {"type": "pass"}

TUTORIAL = Tutorial(
    game="haymaker",
    title="Your first Haymaker bout",
    options={
        "deal": {
            "hands": [PLAYER_HAND, TUTOR_HAND],
            "burned": BURNED,
            "deck": DECK,
            "first": 0,
        }
    },
    ai_script={
        1: {"type": "block", "cards": ["8D"]},  # 8 against 7: a plain block
        3: {"type": "block", "cards": ["9C"]},  # against a haymaker: a reversal
        4: {"type": "attack", "cards": ["6S"]},
        7: {"type": "take_hit"},
    },
    steps={
        0: CoachStep(
            "Welcome to the ring! You are the Attacker: the red glove. Empty your rival's "
            "hand before they empty yours. Tap your 7♣ to pick it, then press Attack: a "
            "normal attack is one card, and its number is its strength.",
            JAB,
        ),
        2: CoachStep(
            "Your tutor blocked with the 8♦: a block must add up to at least the attack. "
            "It was not an exact match, so you keep attacking, and both cards went to your "
            "discard pile: discards decide the bout if both hands run out. Now swing a "
            "haymaker: tap 3♥ and 5♥ (two or more cards of one suit) and press Haymaker.",
            HAYMAKER,
        ),
        5: CoachStep(
            "Reversal! Every block of a haymaker is a reversal: your tutor kept the cards, "
            "you each drew one, and the roles switched. Now they attack you with the 6♠. "
            "Block with exactly 6 and the reversal is yours: tap your 6♦ and press Block. "
            "The meter shows your block against the attack.",
            EXACT_BLOCK,
        ),
        6: CoachStep(
            "An exact block is a reversal too: the sixes are in your discard pile, you both "
            "drew, and you attack again. Jab with your 4♠ and see what your tutor does.",
            BAIT,
        ),
        8: CoachStep(
            "Your tutor took the hit instead of blocking: one card from their hand is now in "
            "yours (marked “seen”: they know you hold it). Against a haymaker a hit costs two "
            "cards, and a defender who cannot pay is knocked out. You attacked last turn, so "
            "you may also pass: both draw and the roles switch. Press Pass.",
            PASS,
        ),
    },
    farewell=(
        "That's every move in Haymaker. Jab, block exactly, swing haymakers, and knock your "
        "tutor out. Good luck!"
    ),
)
