"""Grimhand Arcana's bosses: the house's champions, each with more HP, a deck and a twist.

Invariants:
- A boss always sits in seat 1 (option "boss": a key of `BOSSES`); its HP, its ability
  deck and its twist replace seat 1's. Its deck is the house's own: it need not keep the
  players' deck rules, but every id is a card of the match's pool (checked at setup).
- A twist is plain numbers the rules read at fixed points: `start_lucky` (the boss starts
  with a Lucky 7 from the attack deck in its slot), `energy` (added to each of its
  turns), `attack_bleed` (each attack the boss makes that deals damage also Bleeds for
  that much, 2 turns). `twist` says it in words.
- Pure: imports the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Boss:
    key: str
    name: str
    hp: int
    deck: tuple[str, ...]
    twist: str
    start_lucky: bool = False
    energy: int = 0
    attack_bleed: int = 0


BOSSES: dict[str, Boss] = {
    boss.key: boss
    for boss in (
        Boss(
            "bone_warden",
            "The Bone Warden",
            65,
            (
                *("iron_wall",) * 3,
                *("counter_shield",) * 3,
                *("guardian_rune",) * 2,
                *("mist_barrier",) * 2,
                "blessing",
                "chain_slash",
            ),
            "Starts with a Lucky 7 in its slot.",
            start_lucky=True,
        ),
        Boss(
            "plague_witch",
            "The Plague Witch",
            60,
            (
                *("bleeding_edge",) * 3,
                *("hex",) * 2,
                *("hex_of_weakness",) * 2,
                "doom_token",
                "mirror_shield",
                *("chain_slash",) * 2,
                "blessing",
            ),
            "Every attack of hers that deals damage also Bleeds you 1 HP for 2 turns.",
            attack_bleed=1,
        ),
        Boss(
            "fate_weaver",
            "The Fate Weaver",
            55,
            (
                "scrying_orb",
                "scrying_orb",
                "fate_twist",
                "fate_twist",
                "swap_hands",
                "doom_token",
                "double_shamrock",
                "gamble",
                "fortune_surge",
                "blood_pact",
                "berserker_blade",
                "piercing_strike",
            ),
            "Gets 1 extra energy every turn.",
            energy=1,
        ),
    )
}
