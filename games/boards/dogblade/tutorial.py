"""The Dog Blade first match: attack, a monster falls, a fresh one enters, a side runs out.

The deal is the rules' own example battle (a 50/60 against a 30/120), with one monster
more on each side so that both a defeat and the last monster falling are met. Dog Blade
has one move and no chance once dealt, so the coached line is the whole match, and the
player wins it: the tutorial cannot be lost.
"""

from __future__ import annotations

from games.boards.tutorial import CoachStep, Tutorial

ATTACK = {"type": "attack"}
PLAYER_DECK = [[50, 60], [30, 120]]
TUTOR_DECK = [[30, 120], [20, 40]]

TUTORIAL = Tutorial(
    game="dogblade",
    title="Your first Dog Blade match",
    options={"deal": {"decks": [PLAYER_DECK, TUTOR_DECK], "first": 0}},
    ai_script={1: ATTACK, 3: ATTACK, 5: ATTACK, 7: ATTACK},
    steps={
        0: CoachStep(
            "Welcome to Dog Blade! Each side has a deck of monsters and one in play. Yours "
            "hits for 50 (the sword) and has 60 HP (the heart). Each turn your monster "
            "attacks theirs. Press Attack!",
            ATTACK,
        ),
        2: CoachStep(
            "Your 50 took their monster from 120 to 70 HP, and their 30 took yours to 30. "
            "Turns simply alternate. Attack again.",
            ATTACK,
        ),
        4: CoachStep(
            "Your monster fell at 0 HP, so the next one from your deck entered at full HP: a "
            "30/120. The side whose monster falls attacks next with its fresh one. Their "
            "monster has 20 HP left: finish it.",
            ATTACK,
        ),
        6: CoachStep(
            "Defeated! Extra damage never carries over: their new 20/40 monster entered at "
            "full HP. The counter shows the monsters each side has left. Attack.",
            ATTACK,
        ),
        8: CoachStep(
            "Their last monster has 10 HP and their deck is empty. A side that loses its "
            "last monster loses the match. Attack to win!",
            ATTACK,
        ),
    },
    farewell="You won! In a real match each deck has 20 random monsters. Good luck!",
)
