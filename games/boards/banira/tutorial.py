"""The BaniraCards first run: a guided fixed deal, from the first unlock to all ten slots.

BaniraCards is played alone, so the tutorial is a fixed deck order and the coach's line for
every move of a run that completes (found once by a search over this deal and written down
here as data). Nothing is random once the deck is fixed and every step is coached, so the
run cannot get stuck: the tutorial cannot be lost. The first use of each kind of move gets
its explanation; the rest say only what to do next.
"""

from __future__ import annotations

from typing import Any

from games.boards.tutorial import CoachStep, Tutorial
from games.engine.banira.cards import parse_deck
from games.engine.banira.default_deck import DEFAULT_DECK

DEAL = [
    "ru1",
    "em7",
    "ru4",
    "am1",
    "ru5",
    "ru6",
    "aq6",
    "sa7",
    "am5",
    "to3",
    "sa5",
    "to2",
    "aq1",
    "aq4",
    "di6",
    "em4",
    "to5",
    "am6",
    "ru2",
    "di8",
    "sa3",
    "aq3",
    "em5",
    "to4",
    "to7",
    "to1",
    "em6",
    "di3",
    "em2",
    "sa1",
    "am7",
    "em1",
    "em3",
    "di1",
    "am2",
    "di4",
    "aq5",
    "sa4",
    "to6",
    "aq2",
    "am4",
    "sa2",
    "ru7",
    "aq7",
    "sa6",
    "di7",
    "ru3",
    "am3",
    "di2",
    "di5",
]

U, P, D, X, B = "unlock", "play", "draw", "discard", "boost"
# The run, move by move: (type, card or slot, slot), top card first as dealt above.
LINE: list[tuple[str, ...]] = [
    (U, "emerald"),
    (P, "em7", "emerald"),
    (U, "ruby"),
    (U, "sapphire"),
    (D,),
    (P, "ru5", "ruby"),
    (P, "ru1", "ruby"),
    (P, "ru6", "ruby"),
    (P, "ru4", "ruby"),
    (P, "sa5", "sapphire"),
    (U, "amethyst"),
    (U, "aquamarine"),
    (X, "to2"),
    (P, "sa7", "sapphire"),
    (P, "aq1", "aquamarine"),
    (U, "topaz"),
    (P, "am5", "amethyst"),
    (P, "to5", "topaz"),
    (U, "flex"),
    (P, "di6", "flex"),
    (P, "to3", "flex"),
    (P, "aq6", "aquamarine"),
    (P, "aq4", "aquamarine"),
    (P, "aq3", "flex"),
    (P, "sa3", "flex"),
    (U, "diamond"),
    (B,),
    (U, "moon"),
    (P, "em4", "moon"),
    (B,),
    (P, "to4", "moon"),
    (P, "di3", "diamond"),
    (U, "sun"),
    (P, "ru2", "sun"),
]

# The first time each kind of move comes, by ply: what it is for.
FIRST_TIME = {
    0: "Welcome to BaniraCards, a solo run: unlock all ten field slots and cover each with "
    "a card, keeping your score high. Unlocking costs points (the next unlock costs one "
    "more each time). Unlock the Emerald slot.",
    1: "Now play a card onto it: a play costs stamina and gives the card's points, stamina "
    "and draws. Tap Emerald Sprout, then the Emerald slot.",
    4: "Out of points for now. Drawing costs a little score but brings a card: draw one.",
    6: "Cards of a slot's element stack on it; each card played pays you back. Keep "
    "building the Ruby slot.",
    12: "Your hand is full and a card spills into the overflow row. Discarding costs one "
    "score point: discard Topaz Mirage, which this run does not need.",
    18: "The Flex slot takes cards of any element. Unlock it.",
    26: "A boost trades score for points and stamina when you are short. Boost once.",
    33: "The last slot! Play Ruby Blaze onto the Sun slot to complete the run.",
}

SLOT_NAMES = {
    "ruby": "Ruby",
    "sapphire": "Sapphire",
    "emerald": "Emerald",
    "amethyst": "Amethyst",
    "aquamarine": "Aquamarine",
    "topaz": "Topaz",
    "diamond": "Diamond",
    "moon": "Moon",
    "sun": "Sun",
    "flex": "Flex",
}


def _names() -> dict[str, str]:
    return {card.id: card.name for card in parse_deck(DEFAULT_DECK)}


def _move(entry: tuple[str, ...]) -> dict[str, Any]:
    kind = entry[0]
    if kind == P:
        return {"type": P, "card": entry[1], "slot": entry[2]}
    if kind == U:
        return {"type": U, "slot": entry[1]}
    if kind == X:
        return {"type": X, "card": entry[1]}
    return {"type": kind}


def _say(entry: tuple[str, ...], names: dict[str, str]) -> str:
    kind = entry[0]
    if kind == P:
        return f"Play {names[entry[1]]} onto the {SLOT_NAMES[entry[2]]} slot."
    if kind == U:
        return f"Unlock the {SLOT_NAMES[entry[1]]} slot."
    if kind == X:
        return f"Discard {names[entry[1]]}."
    return "Boost once." if kind == B else "Draw a card."


def _steps() -> dict[int, CoachStep]:
    names = _names()
    steps = {}
    for ply, entry in enumerate(LINE):
        text = FIRST_TIME.get(ply) or f"Next: {_say(entry, names)}"
        steps[ply] = CoachStep(text, _move(entry))
    return steps


TUTORIAL = Tutorial(
    game="banira",
    title="Your first BaniraCards run",
    options={"deal": DEAL},
    ai_script={},
    steps=_steps(),
    farewell="Run complete! Next time the deck is shuffled: plan your unlocks. Good luck!",
)
