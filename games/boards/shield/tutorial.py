"""The Shield first match: the layout, storing a card, a blocked attack, a boosted hit.

Two seats, the setup skipped (the deal lays out both shields; the tutor's HP is set low so
the lesson is short): you store a card, the tutor's attack breaks on your King, and your
attack with the stored card as a boost knocks the tutor out. The deck's top is fixed, so
the coached line wins: the tutorial cannot be lost.
"""

from __future__ import annotations

from games.boards.tutorial import CoachStep, Tutorial
from games.engine.shield.cards import NAMES

HANDS = [["AC", "2D", "3H", "KS"], ["10C", "10D", "9H", "4S"]]
SHIELDS = ["KS", "4S"]
HP = [6, 8]
TOP = ["5C", "9S", "QH"]  # your stored card, the tutor's attack, your attack
DECK = TOP + [name for name in NAMES if name not in {*TOP, *HANDS[0], *HANDS[1]}]

STORE = {"type": "store"}
END_TURN = {"type": "end_turn"}
ATTACK_TUTOR = {"type": "attack", "target": 1}
BOOST_ONE = {"type": "boost", "count": 1}

TUTORIAL = Tutorial(
    game="shield",
    title="Your first Shield match",
    options={"deal": {"hands": HANDS, "shields": SHIELDS, "hp": HP, "deck": DECK}},
    ai_script={2: {"type": "attack", "target": 0}},
    steps={
        0: CoachStep(
            "Welcome to Shield! Each player has a shield card on top and HP cards below: "
            "your King shield is worth 13 and your HP are 6. The lowest HP starts, so it is "
            "you. An attack draws a card: it hits only if it beats the target's shield. "
            "First, store a card: draw one face down, unseen by everyone, to boost an "
            "attack later.",
            STORE,
        ),
        1: CoachStep(
            "Stored. After your action you may give stored cards away to make friends; "
            "keep it this time and end your turn.",
            END_TURN,
        ),
        3: CoachStep(
            "Your tutor attacked you and drew a 9: not more than your King's 13, so the "
            "attack was blocked. Their shield is only a 4 and they have 8 HP. Attack them!",
            ATTACK_TUTOR,
        ),
        4: CoachStep(
            "You drew a Queen: 12 against their 4 would deal 8. Add your stored card to "
            "the attack for more power: boost with 1 card.",
            BOOST_ONE,
        ),
    },
    farewell=(
        "Knocked out! In a real match you choose your shield from four secret cards. Good luck!"
    ),
)
