"""Grimhand Arcana's ability cards as data: card definitions, the effect registry, the
default pool, upgrade levels, the deck rules and the archetype decks.

Invariants:
- A `CardDef` is plain, frozen data: its `effect` is a key of `EFFECTS` and its `params`
  are exactly that effect's parameters (sorted (name, value) pairs, each within its
  `ParamSpec`). `validate_card` is the only way from raw data (a match's options, an
  admin's form) to a `CardDef`; it raises `InvalidOptions` with a message a person can read
  and never returns a card the engine cannot play.
- An `Effect` is a few small pure functions over a `Table` (the mutable copy of a position
  that `rules` resolves a move on) and a `Clash` (one attack being resolved). They never
  keep state of their own; everything a card changes goes through the table, so the
  rules decide timing, events and hidden information in one place.
- `slot` says where a played card goes: "attack" and "defense" cards join their owner's
  attack or defense line (face up) and count with the numbered hand of that type at the
  next attack; a "lucky" card goes into the Lucky slot; a "spell" resolves at once. Every
  played card ends in its owner's ability discard pile (public).
- Levels 1-3: `CardDef.at_level(n)` is the card an upgrade makes: +1 value per level for
  cards with a value, +`step` per level for each stepped parameter (capped at its high
  end), and -1 cost at level 3 for a card with neither. Level 1 is the card itself; rated
  play uses level 1 for everyone.
- `check_deck` lists every deck rule a deck breaks as sentences; [] means legal.
- Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from games.engine.core import InvalidOptions

SLOTS = ("attack", "defense", "lucky", "spell")
RARITIES = ("common", "rare", "epic", "legendary")
TARGETS = ("none", "deck", "hand_card")  # what a play move names besides the card
MAX_LEVEL = 3
MAX_VALUE = 20
MAX_COST = 3
ID_LENGTH = 40
NAME_LENGTH = 40
TEXT_LENGTH = 200


# --- What effects act on -------------------------------------------------------------------


class Table(Protocol):
    """What an effect may do to the position being resolved (implemented by `rules`)."""

    def add_status(self, seat: int, key: str, turns: int, amount: int) -> None: ...

    def lose_hp(self, seat: int, amount: int, cause: str) -> None: ...

    def heal(self, seat: int, amount: int) -> None: ...

    def draw_abilities(self, seat: int, count: int) -> list[str]: ...

    def discard_ability(self, seat: int, card: str, reason: str) -> None: ...

    def random_below(self, n: int) -> int: ...

    def set_pending(self, seat: int, kind: str, data: Mapping[str, Any]) -> None: ...

    def fate_twist(self, seat: int) -> None: ...

    def purge(self, seat: int, deck: int, value: int) -> None: ...

    def start_swap(self, seat: int) -> None: ...

    def slot_lucky(self, seat: int, card: str) -> None: ...


@dataclass(slots=True)
class Clash:
    """One attack being resolved: the totals the cards' clash hooks may change."""

    attacker: int
    target: int
    attack_total: int
    defense_total: int
    attack_cards: int  # numbered attack cards + readied attack ability cards
    damage: int = 0


# --- Effects ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of an effect: a whole number from `low` to `high`; `step` per level."""

    low: int
    high: int
    default: int
    step: int = 0
    kind: str = "int"


PlayFn = Callable[[Table, int, "CardDef"], None]
ClashFn = Callable[[Clash, "CardDef"], None]
AfterFn = Callable[[Table, Clash, "CardDef", int], None]


@dataclass(frozen=True, slots=True)
class Effect:
    """An effect of the registry: where it may sit, its parameters, its text, its functions.

    `play` runs when the card is played; `clash` (attacker's line cards first, then the
    defender's, each in `order`) changes an attack's totals once both are known; `after`
    runs once the damage is dealt (its int is the card's owner). `target` is what a play
    move must name: nothing, a deck ("attack"/"defense") or a numbered card in hand.
    """

    key: str
    slots: tuple[str, ...]
    params: dict[str, ParamSpec]
    text: str
    target: str = "none"
    order: int = 0
    play: PlayFn | None = None
    clash: ClashFn | None = None
    after: AfterFn | None = None


def _berserk(clash: Clash, card: CardDef) -> None:
    if clash.attack_total < clash.defense_total:
        clash.attack_total += card.value * (card.param("multiplier") - 1)


def _pierce(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(1 - seat, "expose", card.param("turns"), card.param("percent"))


def _chain(clash: Clash, card: CardDef) -> None:
    clash.attack_total += card.param("bonus") * max(0, clash.attack_cards - 1)


def _carryover(table: Table, clash: Clash, card: CardDef, owner: int) -> None:
    amount = card.value * card.param("percent") // 100
    if amount:
        table.add_status(owner, "fortify", card.param("turns"), amount)


def _counter(table: Table, clash: Clash, card: CardDef, owner: int) -> None:
    if clash.damage == 0:
        table.lose_hp(clash.attacker, card.param("damage"), "counter_shield")


def _mist(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(1 - seat, "mist", card.param("turns"), card.param("amount"))


def _shamrock(table: Table, seat: int, card: CardDef) -> None:
    table.slot_lucky(seat, card.id)
    table.heal(seat, card.param("heal"))


def _twist(table: Table, seat: int, card: CardDef) -> None:
    table.fate_twist(seat)


def _surge(table: Table, seat: int, card: CardDef) -> None:
    drawn = table.draw_abilities(seat, card.param("draw"))
    if drawn:
        table.set_pending(seat, "discard_ability", {"card": card.id})


def _pact(table: Table, seat: int, card: CardDef) -> None:
    table.lose_hp(seat, card.param("hp_cost"), "blood_pact")
    table.add_status(seat, "pact", card.param("turns"), card.value)


def _cursed(table: Table, clash: Clash, card: CardDef, owner: int) -> None:
    if clash.damage == 0:
        table.lose_hp(owner, card.param("self_damage"), "cursed_steel")


def _doom(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(1 - seat, "doom", card.param("turns"), 1)


def _scry(table: Table, seat: int, card: CardDef) -> None:
    # The deck comes with the move; `rules` opens the choice (see `rules._play`).
    pass


def _swap(table: Table, seat: int, card: CardDef) -> None:
    table.start_swap(seat)


def _purge(table: Table, seat: int, card: CardDef) -> None:
    # The card to purge comes with the move; `rules` resolves it (see `rules._play`).
    pass


def _bleed(table: Table, clash: Clash, card: CardDef, owner: int) -> None:
    if clash.damage > 0:
        table.add_status(1 - owner, "bleed", card.param("turns"), card.param("amount"))


def _guardian(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(seat, "guardian", card.param("turns"), card.param("amount"))


def _weakness(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(1 - seat, "weakness", card.param("turns"), card.param("amount"))


def _hex(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(1 - seat, "hex", card.param("turns"), card.param("amount"))


def _blessing(table: Table, seat: int, card: CardDef) -> None:
    table.heal(seat, card.param("heal"))


def _mirror(table: Table, seat: int, card: CardDef) -> None:
    table.add_status(seat, "mirror", card.param("turns"), card.param("percent"))


def _gamble(table: Table, seat: int, card: CardDef) -> None:
    drawn = table.draw_abilities(seat, card.param("draw"))
    if len(drawn) > 1:
        table.discard_ability(seat, drawn[table.random_below(len(drawn))], "gamble")


def _turns(default: int) -> ParamSpec:
    return ParamSpec(1, 6, default)


EFFECTS: dict[str, Effect] = {
    effect.key: effect
    for effect in (
        Effect(
            "berserk",
            ("attack",),
            {"multiplier": ParamSpec(2, 3, 2)},
            "If your attack is lower than the defense, this card counts {multiplier}x.",
            order=10,
            clash=_berserk,
        ),
        Effect(
            "pierce",
            ("attack",),
            {"percent": ParamSpec(25, 100, 50, step=10), "turns": _turns(2)},
            "Expose: the opponent's next defense loses {percent}% ({turns} turns).",
            play=_pierce,
        ),
        Effect(
            "chain",
            ("attack",),
            {"bonus": ParamSpec(1, 3, 1)},
            "+{bonus} for every other attack card in the attack.",
            clash=_chain,
        ),
        Effect(
            "carryover",
            ("defense",),
            {"percent": ParamSpec(25, 100, 50, step=10), "turns": _turns(2)},
            "After it blocks, Fortify: keep {percent}% of its value for your next turn.",
            after=_carryover,
        ),
        Effect(
            "counter",
            ("defense",),
            {"damage": ParamSpec(1, 6, 2, step=1)},
            "If the attack deals 0 damage, the attacker loses {damage} HP.",
            after=_counter,
        ),
        Effect(
            "mist",
            ("defense",),
            {"amount": ParamSpec(1, 5, 2, step=1), "turns": _turns(3)},
            "Mist: the opponent's next attack card drawn counts -{amount}.",
            play=_mist,
        ),
        Effect(
            "shamrock",
            ("lucky",),
            {"heal": ParamSpec(1, 8, 3, step=1)},
            "Goes to your empty Lucky slot as a Lucky card, and heals {heal} HP.",
            play=_shamrock,
        ),
        Effect(
            "twist",
            ("spell",),
            {},
            "Swap the top cards of the attack and defense decks (a Death card stays put).",
            play=_twist,
        ),
        Effect(
            "surge",
            ("spell",),
            {"draw": ParamSpec(2, 3, 2)},
            "Draw {draw} ability cards, then discard 1 ability card of your choice.",
            play=_surge,
        ),
        Effect(
            "pact",
            ("spell",),
            {"hp_cost": ParamSpec(1, 10, 5), "turns": _turns(3)},
            "Lose {hp_cost} HP now; your next attack gets +{value}.",
            play=_pact,
        ),
        Effect(
            "cursed",
            ("attack",),
            {"self_damage": ParamSpec(1, 6, 3)},
            "If your attack deals 0 damage, you lose {self_damage} HP.",
            after=_cursed,
        ),
        Effect(
            "doom",
            ("spell",),
            {"turns": ParamSpec(1, 8, 4, step=1)},
            "Doom: the opponent's next Lucky 7 drawn does not go to their slot ({turns} turns).",
            play=_doom,
        ),
        Effect(
            "scry",
            ("spell",),
            {"count": ParamSpec(1, 5, 3, step=1)},
            "Look at the top {count} cards of a deck, then put them back in any order.",
            target="deck",
            play=_scry,
        ),
        Effect(
            "swap",
            ("spell",),
            {},
            "Both players choose a card from their hands, then the two cards change hands.",
            play=_swap,
        ),
        Effect(
            "purge",
            ("spell",),
            {},
            "Discard a card from your hand, then draw a card from its deck.",
            target="hand_card",
            play=_purge,
        ),
        Effect(
            "bleed",
            ("attack",),
            {"amount": ParamSpec(1, 5, 2), "turns": _turns(2)},
            "If your attack deals damage: Bleed, the opponent loses {amount} HP for {turns} turns.",
            after=_bleed,
        ),
        Effect(
            "guardian",
            ("defense",),
            {"amount": ParamSpec(1, 6, 3, step=1), "turns": _turns(3)},
            "Guardian: your next defense card drawn counts +{amount}.",
            play=_guardian,
        ),
        Effect(
            "weakness",
            ("spell",),
            {"amount": ParamSpec(1, 6, 3, step=1), "turns": _turns(3)},
            "Weakness: the opponent's next attack counts -{amount}.",
            play=_weakness,
        ),
        Effect(
            "hex",
            ("spell",),
            {"amount": ParamSpec(1, 5, 2, step=1), "turns": _turns(3)},
            "Hex: the opponent's next card drawn counts -{amount}.",
            play=_hex,
        ),
        Effect(
            "blessing",
            ("spell",),
            {"heal": ParamSpec(3, 8, 4, step=1)},
            "Heal {heal} HP (never above your starting HP).",
            play=_blessing,
        ),
        Effect(
            "mirror",
            ("spell",),
            {"percent": ParamSpec(25, 100, 50, step=10), "turns": _turns(2)},
            "Mirror: {percent}% of the next attack's damage on you goes back to the attacker.",
            play=_mirror,
        ),
        Effect(
            "gamble",
            ("spell",),
            {"draw": ParamSpec(2, 3, 2)},
            "Draw {draw} ability cards, then discard one of them at random.",
            play=_gamble,
        ),
    )
}


# --- Cards -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardDef:
    """One ability card: what it is, where it goes, what it costs and what it does."""

    id: str
    name: str
    slot: str
    value: int
    cost: int
    effect: str
    params: tuple[tuple[str, int], ...] = ()
    rarity: str = "common"
    text: str = ""
    level: int = 1
    _lookup: dict[str, int] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lookup", dict(self.params))

    def param(self, name: str) -> int:
        return self._lookup[name]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "slot": self.slot,
            "value": self.value,
            "cost": self.cost,
            "effect": self.effect,
            "params": dict(self.params),
            "rarity": self.rarity,
            "text": self.text,
        }

    def at_level(self, level: int) -> CardDef:
        """The card at upgrade level `level` (1-3); see the module's invariants."""
        if type(level) is not int or not 1 <= level <= MAX_LEVEL:
            raise InvalidOptions(f"A card's level is a whole number from 1 to {MAX_LEVEL}.")
        if level == 1:
            return self
        ups = level - 1
        specs = EFFECTS[self.effect].params
        params = tuple(
            (name, min(specs[name].high, value + specs[name].step * ups))
            for name, value in self.params
        )
        stepped = any(specs[name].step for name, _ in self.params)
        value = min(MAX_VALUE, self.value + ups) if self.value else 0
        cost = self.cost
        if not self.value and not stepped and level == MAX_LEVEL:
            cost = max(0, cost - 1)
        upgraded = replace(self, value=value, cost=cost, params=params, level=level)
        if self.text == rules_text(self):  # the generated text follows the numbers
            upgraded = replace(upgraded, text=rules_text(upgraded))
        return upgraded


def rules_text(card: CardDef) -> str:
    """The effect's text template filled with the card's value and parameters."""
    return EFFECTS[card.effect].text.format(value=card.value, **dict(card.params))


CARD_KEYS = ("id", "name", "slot", "value", "cost", "effect", "params", "rarity", "text")


def _whole(data: Mapping[str, Any], key: str, low: int, high: int, what: str) -> int:
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise InvalidOptions(f"{what} is a whole number from {low} to {high} (got {value!r}).")
    return value


def _label(data: Mapping[str, Any], key: str, limit: int, what: str, required: bool) -> str:
    value = data.get(key, "" if not required else None)
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > limit:
        raise InvalidOptions(f"{what} is text of 1 to {limit} characters.")
    return value


def validate_card(data: Mapping[str, Any]) -> CardDef:
    """A `CardDef` from raw data (as `CardDef.to_json` writes it), or `InvalidOptions`."""
    if not isinstance(data, Mapping):
        raise InvalidOptions("An ability card is an object with an id, a name, a slot...")
    unknown = sorted(set(data) - set(CARD_KEYS))
    if unknown:
        raise InvalidOptions(f"An ability card has no field “{unknown[0]}”.")
    card_id = data.get("id")
    if (
        not isinstance(card_id, str)
        or not 1 <= len(card_id) <= ID_LENGTH
        or not all(c.islower() or c.isdigit() or c == "_" for c in card_id)
        or not card_id[0].isalpha()
    ):
        raise InvalidOptions(
            "A card's id is a slug of lowercase letters, digits and underscores "
            f"(at most {ID_LENGTH}), starting with a letter (got {card_id!r})."
        )
    name = _label(data, "name", NAME_LENGTH, f"The name of card “{card_id}”", True)
    text = _label(data, "text", TEXT_LENGTH, f"The text of card “{card_id}”", False)
    slot = data.get("slot")
    if slot not in SLOTS:
        raise InvalidOptions(f"The slot of card “{card_id}” is one of {', '.join(SLOTS)}.")
    rarity = data.get("rarity", "common")
    if rarity not in RARITIES:
        raise InvalidOptions(f"The rarity of card “{card_id}” is one of {', '.join(RARITIES)}.")
    value = _whole(data, "value", 0, MAX_VALUE, f"The value of card “{card_id}”")
    cost = _whole(data, "cost", 0, MAX_COST, f"The energy cost of card “{card_id}”")
    key = data.get("effect")
    effect = EFFECTS.get(key) if isinstance(key, str) else None
    if effect is None:
        raise InvalidOptions(
            f"Card “{card_id}” has an unknown effect {key!r} (known: {', '.join(EFFECTS)})."
        )
    if slot not in effect.slots:
        raise InvalidOptions(
            f"The effect “{effect.key}” of card “{card_id}” goes on a "
            f"{' or '.join(effect.slots)} card, not a {slot} card."
        )
    if slot in ("attack", "defense") and value == 0:
        raise InvalidOptions(f"Card “{card_id}” is an {slot} card: its value is at least 1.")
    raw = data.get("params", {})
    if not isinstance(raw, Mapping):
        raise InvalidOptions(f"The parameters of card “{card_id}” are an object.")
    extra = sorted(set(raw) - set(effect.params))
    if extra:
        raise InvalidOptions(f"The effect “{effect.key}” has no parameter “{extra[0]}”.")
    params = []
    for key_name, spec in sorted(effect.params.items()):
        what = f"Parameter “{key_name}” of card “{card_id}”"
        given = {key_name: raw.get(key_name, spec.default)}
        params.append((key_name, _whole(given, key_name, spec.low, spec.high, what)))
    return CardDef(card_id, name, slot, value, cost, effect.key, tuple(params), rarity, text)


def _card(
    card_id: str,
    name: str,
    slot: str,
    value: int,
    cost: int,
    effect: str,
    rarity: str,
    **params: int,
) -> CardDef:
    spec = EFFECTS[effect].params
    merged = tuple(sorted((key, params.get(key, p.default)) for key, p in spec.items()))
    card = CardDef(card_id, name, slot, value, cost, effect, merged, rarity)
    return replace(card, text=rules_text(card))


DEFAULT_POOL: tuple[CardDef, ...] = (
    # Attack cards: readied into your attack line.
    _card("berserker_blade", "Berserker Blade", "attack", 7, 1, "berserk", "rare"),
    _card("piercing_strike", "Piercing Strike", "attack", 5, 1, "pierce", "rare"),
    _card("chain_slash", "Chain Slash", "attack", 4, 1, "chain", "common"),
    _card("cursed_steel", "Cursed Steel", "attack", 8, 1, "cursed", "common"),
    _card("bleeding_edge", "Bleeding Edge", "attack", 5, 1, "bleed", "rare"),
    # Defense cards: raised into your defense line.
    _card("iron_wall", "Iron Wall", "defense", 8, 2, "carryover", "rare"),
    _card("counter_shield", "Counter Shield", "defense", 6, 1, "counter", "common"),
    _card("mist_barrier", "Mist Barrier", "defense", 5, 1, "mist", "common"),
    _card("guardian_rune", "Guardian Rune", "defense", 4, 1, "guardian", "common"),
    # Luck.
    _card("double_shamrock", "Double Shamrock", "lucky", 7, 2, "shamrock", "legendary"),
    # Spells: resolve at once.
    _card("fate_twist", "Fate Twist", "spell", 0, 0, "twist", "epic"),
    _card("fortune_surge", "Fortune Surge", "spell", 0, 1, "surge", "rare"),
    _card("blood_pact", "Blood Pact", "spell", 10, 1, "pact", "epic"),
    _card("doom_token", "Doom Token", "spell", 0, 1, "doom", "epic"),
    _card("scrying_orb", "Scrying Orb", "spell", 0, 1, "scry", "epic"),
    _card("swap_hands", "Swap Hands", "spell", 0, 1, "swap", "legendary"),
    _card("purge", "Purge", "spell", 0, 0, "purge", "common"),
    _card("hex_of_weakness", "Hex of Weakness", "spell", 0, 1, "weakness", "rare"),
    # The review's four new card types.
    _card("hex", "Hex", "spell", 0, 1, "hex", "common"),
    _card("blessing", "Blessing", "spell", 0, 2, "blessing", "common"),
    _card("mirror_shield", "Mirror Shield", "spell", 0, 2, "mirror", "epic"),
    _card("gamble", "Gamble", "spell", 0, 0, "gamble", "rare"),
)
POOL_BY_ID: dict[str, CardDef] = {card.id: card for card in DEFAULT_POOL}


# --- Decks -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckRules:
    """The limits every player-built deck keeps (bosses' decks are the house's own)."""

    size: int = 12
    max_copies: int = 2
    max_legendary: int = 1
    max_epic: int = 3


DECK_RULES = DeckRules()


def check_deck(card_ids: Sequence[str], pool: Mapping[str, CardDef]) -> list[str]:
    """Every rule `card_ids` breaks, as sentences a player reads; [] when it is legal."""
    rules = DECK_RULES
    problems: list[str] = []
    if isinstance(card_ids, str) or not isinstance(card_ids, Sequence):
        return ["A deck is a list of card ids."]
    if len(card_ids) != rules.size:
        problems.append(f"A deck holds exactly {rules.size} cards; this one has {len(card_ids)}.")
    copies: dict[str, int] = {}
    for card_id in card_ids:
        if not isinstance(card_id, str) or card_id not in pool:
            problems.append(f"“{card_id}” is not a card of this pool.")
            continue
        copies[card_id] = copies.get(card_id, 0) + 1
    for card_id, count in copies.items():
        if count > rules.max_copies:
            problems.append(
                f"At most {rules.max_copies} copies of {pool[card_id].name}; this deck has {count}."
            )
    for rarity, cap in (("legendary", rules.max_legendary), ("epic", rules.max_epic)):
        count = sum(n for card_id, n in copies.items() if pool[card_id].rarity == rarity)
        if count > cap:
            noun = "card" if cap == 1 else "cards"
            problems.append(f"At most {cap} {rarity} {noun}; this deck has {count}.")
    return problems


ARCHETYPE_DECKS: dict[str, tuple[str, ...]] = {
    "aggressive": (
        *("berserker_blade",) * 2,
        *("chain_slash",) * 2,
        *("piercing_strike",) * 2,
        *("bleeding_edge",) * 2,
        *("cursed_steel",) * 2,
        "blood_pact",
        "hex_of_weakness",
    ),
    "defensive": (
        *("iron_wall",) * 2,
        *("counter_shield",) * 2,
        *("mist_barrier",) * 2,
        *("guardian_rune",) * 2,
        *("blessing",) * 2,
        "mirror_shield",
        "hex_of_weakness",
    ),
    "gambler": (
        *("fortune_surge",) * 2,
        *("gamble",) * 2,
        *("purge",) * 2,
        *("hex",) * 2,
        "scrying_orb",
        "fate_twist",
        "doom_token",
        "double_shamrock",
    ),
}
ARCHETYPES = tuple(ARCHETYPE_DECKS)
