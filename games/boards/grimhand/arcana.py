"""Grimhand Arcana on the page: ability cards, energy, statuses, the match event and the
boss, the choices a seat owes, and a log line for every Arcana event.

Presentation only, like the Classic presenter beside it: everything here restates the
viewer's own `view` (the engine's `arcana.view`), so nothing hidden from the viewer can
reach the page through it. Which plays and choices are legal is the engine's answer
(`legal_moves`, read by the template); this module only words and draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core import Event
from games.engine.grimhand.arcana.cards import EFFECTS, POOL_BY_ID
from games.engine.grimhand.arcana.state import fatigue
from games.engine.grimhand.arcana.statuses import STATUSES

ART_DIR = "img/grimhand/arcana"
BACK_ART = f"{ART_DIR}/back.svg"
SLOT_LABELS = {"attack": "Attack", "defense": "Defense", "lucky": "Lucky", "spell": "Spell"}
SLOT_NOTES = {
    "attack": "Joins your attack line face up and counts at your next attack.",
    "defense": "Joins your defense line face up and counts when you are attacked.",
    "lucky": "Goes to your Lucky slot and saves you from one Death card.",
    "spell": "Resolves at once, then goes to your ability discard pile.",
}
# What a play needs besides the card: the engine's Effect.target.
TARGET_PROMPTS = {"deck": "Which deck?", "hand_card": "Which card?"}
DECK_LABELS = {"attack": "Attack", "defense": "Defense", "arcana": "Arcana"}
# How an animation family is named on the table (data-fx on the table; fx-* classes).
FAMILIES = {
    "card_played": "play",
    "status_added": "status",
    "status_ticked": "status",
    "healed": "heal",
    "scry_cards": "reveal",
    "hands_swapped": "swap",
    "card_received": "swap",
}
# How a status's amount reads on its badge and in the log (the engine's amount, worded).
AMOUNTS = {
    "bleed": "{amount}/turn",
    "fortify": "+{amount}",
    "expose": "−{amount}%",
    "mirror": "{amount}%",
    "weakness": "−{amount}",
    "pact": "+{amount}",
    "hex": "−{amount}",
    "mist": "−{amount}",
    "guardian": "+{amount}",
    "doom": "",
}
PENDING_WAIT = {
    "scry": "is reordering the cards they saw",
    "discard": "is choosing an ability card to discard",
    "swap": "is choosing a card to give",
}
CAUSES = {
    "attack": "is hit",
    "bleed": "bleeds",
    "blood_pact": "signs the Blood Pact",
    "cursed_steel": "is cut by their own Cursed Steel",
    "counter_shield": "is struck back by the Counter Shield",
    "fatigue": "tires (fatigue)",
    "mirror": "is hit by the mirror",
}
REASONS = {
    "fortune_surge": "after Fortune Surge",
    "gamble": "lost to the Gamble",
    "hand_limit": "over the hand limit",
    "purge": "purged",
}


def card_name(card_id: str, cards: Mapping[str, Any] | None = None) -> str:
    """A card's name: from the view's cards, the standard pool, or its id made readable."""
    if cards and card_id in cards:
        return str(cards[card_id]["name"])
    if card_id in POOL_BY_ID:
        return POOL_BY_ID[card_id].name
    return str(card_id).replace("_", " ").capitalize()


def art(effect: str) -> str:
    return f"{ART_DIR}/{effect}.svg" if effect in EFFECTS else BACK_ART


def ability(data: Mapping[str, Any]) -> dict[str, Any]:
    """An ability card (a `CardDef.to_json()` dict) as the template draws it."""
    slot = data.get("slot", "spell")
    effect = data.get("effect", "")
    value = data.get("value", 0)
    cost = data.get("cost", 0)
    target = EFFECTS[effect].target if effect in EFFECTS else "none"
    # Never "Attack 5": that names a numbered card; an ability card is "an attack card, worth 5".
    head = f"{data.get('name', '')} ({SLOT_LABELS.get(slot, slot).lower()} card"
    head += f" worth {value}" if value and slot in ("attack", "defense") else ""
    head += f", costs {cost} energy)" if cost else ", free)"
    return {
        **data,
        "art": art(effect),
        "slot_label": SLOT_LABELS.get(slot, slot),
        "shows_value": bool(value) and slot in ("attack", "defense", "lucky"),
        "target": target,
        "prompt": TARGET_PROMPTS.get(target, ""),
        "tooltip": f"{head}: {data.get('text', '')} {SLOT_NOTES.get(slot, '')}",
    }


def status(entry: Mapping[str, Any]) -> dict[str, Any]:
    turns = int(entry.get("turns", 0))
    left = "1 turn left" if turns == 1 else f"{turns} turns left"
    return {
        **entry,
        "shown": amount_text(str(entry.get("key")), entry.get("amount")),
        "left": left,
        "tooltip": f"{entry['name']}: {entry.get('text', '')} ({left}; it ticks at the start "
        "of its holder's turn.)",
    }


def amount_text(key: str, amount: Any) -> str:
    if not amount:
        return ""
    return AMOUNTS.get(key, "{amount}").format(amount=amount)


def energy_pips(energy: int) -> list[bool]:
    """Filled pips for the energy left, empty ones up to the usual three."""
    return [index < energy for index in range(max(3, energy))]


FATIGUE_WARNING = 3  # own turns ahead from which the board warns of fatigue


def fatigue_badge(player: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, str] | None:
    """Edition 3's fatigue beside a seat's statuses: what its next turn costs once it
    bites, a warning a few turns before; None when it is further off (or no edition has it)."""
    cost = int(player.get("fatigue_next") or 0)
    rule = (
        "From a player's 21st turn on, each of their turns starts with HP lost, one more each time."
    )
    if cost:
        return {"label": f"Fatigue −{cost}", "tooltip": f"{rule} The next one costs {cost} HP."}
    edition, taken = int(view["options"].get("edition") or 0), int(player.get("turns_taken") or 0)
    ahead = next((k for k in range(2, FATIGUE_WARNING + 2) if fatigue(edition, taken + k)), None)
    if ahead is None:
        return None
    turns = ahead - 1
    return {
        "label": f"Fatigue in {turns}",
        "tooltip": f"{rule} It starts in {turns} turn{'s' if turns > 1 else ''}.",
    }


def decorate_player(player: dict[str, Any], view: Mapping[str, Any]) -> None:
    cards = view.get("cards") or {}
    player["fatigue"] = fatigue_badge(player, view)
    energy = int(player.get("energy") or 0)
    player["energy_pips"] = energy_pips(energy)
    player["status_list"] = [status(entry) for entry in player.get("statuses") or []]
    own = player.get("arcana")
    player["ability_hand"] = [ability(card) for card in own] if own is not None else None
    player["ability_backs"] = range(player.get("arcana_count", 0)) if own is None else range(0)
    player["ability_discard_list"] = [
        ability(cards[card]) if card in cards else {"id": card, "name": card_name(card)}
        for card in player.get("arcana_discard") or []
    ]
    player["line_cards"] = {
        kind: [ability(cards[card]) for card in player["lines"][kind] if card in cards]
        for kind in ("attack", "defense")
    }
    for row in player["rows"]:
        row["modifier"] = (player.get("modifiers") or {}).get(row["kind"], 0)
        row["line"] = player["line_cards"][row["kind"]]
        if row["total"] is not None and row["modifier"]:
            row["total"] = max(0, row["total"] + row["modifier"])
    lucky = player.get("lucky_card_id")
    if lucky and lucky in cards:
        player["lucky_ability"] = ability(cards[lucky])


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """The Arcana parts of the table (the Classic `decorate` has run first)."""
    view["is_arcana"] = True
    view["card_faces"] = {
        card_id: ability(card) for card_id, card in (view.get("cards") or {}).items()
    }
    for player in view["players"]:
        decorate_player(player, view)
    me = view["bottom"]
    view["arcana_draw_move"] = {"type": "draw", "deck": "arcana"}
    view["arcana_deck"] = {
        "count": me.get("arcana_deck_count", 0),
        "tooltip": (
            f"Your arcana deck: {me.get('arcana_deck_count', 0)} ability cards face down. "
            "Drawing one is your main action and ends your turn."
        ),
        # No two arcana draws in a row (docs/rules/grimhand.md): say why it is closed.
        "rested": bool(me.get("drew_arcana")),
    }
    if view["arcana_deck"]["rested"]:
        view["arcana_deck"]["tooltip"] += (
            " You drew from it last turn: this turn, draw from the attack or the defense"
            " deck, or attack."
        )
    pending = view.get("pending") or {}
    mine = pending.get("mine")
    if mine is not None and mine["kind"] == "scry":
        deck = mine["deck"]
        mine["rows"] = [
            {"position": index, "value": value, "kind": deck}
            for index, value in enumerate(mine["cards"])
        ]
        mine["label"] = DECK_LABELS.get(deck, deck)
    view["pending_mine"] = mine
    view["pending_others"] = [
        {**other, "doing": PENDING_WAIT.get(other["kind"], "is choosing")}
        for other in pending.get("others", [])
    ]
    boss = view.get("boss")
    if boss:
        view["boss_tooltip"] = f"{boss['name']} ({boss['hp']} HP): {boss['twist']}"
    event = view.get("event") or {}
    view["event_banner"] = event if event.get("key") not in (None, "none") else None
    return view


def preview_text(preview: Mapping[str, Any] | None) -> str:
    """What attacking now starts from: the engine's total against what the viewer knows."""
    if not preview:
        return ""
    total, hidden, known = (
        preview["attack_total"],
        preview["defense_cards"],
        preview.get("defense_known", 0),
    )
    shield = f" and {known} in the open" if known else ""
    if not hidden:
        cards = "no hidden defense card"
    else:
        cards = "1 hidden defense card" if hidden == 1 else f"{hidden} hidden defense cards"
    return f"Your {total} against their {cards}{shield}"


def fx_families(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """The animation families the last move's events switch on, in order, once each."""
    families: list[str] = []
    for event in events:
        family = FAMILIES.get(str(event.get("type")))
        if event.get("type") == "attack" and event.get("reflected"):
            family = "reflect"
        if family and family not in families:
            families.append(family)
    return families


def describe(event: Event, names: Sequence[str]) -> str | None:
    """The log line of an Arcana event (None: not an Arcana event, the Classic line says it)."""
    data = event.data
    name = names[data["seat"]] if data.get("seat") is not None else ""
    card = card_name(data["card"]) if "card" in data else ""
    match event.type:
        case "card_played":
            where = ""
            if "value" in data:
                where = f" on their {DECK_LABELS.get(data.get('deck', ''), '')} {data['value']}"
            elif "deck" in data:
                where = f" on the {DECK_LABELS.get(data['deck'], '')} deck"
            cost = data.get("cost", 0)
            paid = f" ({cost} energy)" if cost else ""
            return f"{name} plays {card}{where}{paid}."
        case "status_added":
            harmful = STATUSES[data["status"]].harmful if data["status"] in STATUSES else True
            verb = "is under" if harmful else "gains"
            return f"{name} {verb} {_status(data)} for {_turns(data['turns'])}."
        case "status_ticked":
            return f"{name}'s {_status_name(data)} ticks: {_turns(data['turns'])} left."
        case "status_ended":
            how = "is used up" if data.get("used") else "wears off"
            return f"{name}'s {_status_name(data)} {how}."
        case "hp_lost":
            cause = CAUSES.get(data.get("cause", ""), "loses HP")
            return f"{name} {cause}: −{data['amount']} HP, {data['hp']} left."
        case "healed":
            return f"{name} heals {data['amount']} HP ({data['hp']} HP)."
        case "ability_drawn":
            return f"{name} draws an ability card."
        case "ability_to_hand":
            return f"{name} takes {card} into their ability hand."
        case "ability_discarded":
            reason = REASONS.get(data.get("reason", ""), "")
            return f"{name} discards {card}{f' ({reason})' if reason else ''}."
        case "ability_reshuffled":
            return f"{name}'s arcana deck is reshuffled from its {data['count']} discards."
        case "scry_cards":
            values = ", ".join(str(value) for value in data["values"])
            return f"{name} gazes into the orb: the {_deck(data)} deck's top cards are {values}."
        case "scried":
            return f"{name} puts the top {data['count']} {_deck(data)} cards back in a new order."
        case "fate_twist":
            return f"{name} twists fate: the top cards of the two decks change places."
        case "choice":
            if data.get("kind") == "swap":
                return "Swap Hands! Both players choose a card to give."
            return f"{name} must choose an ability card to discard."
        case "swap_chosen":
            return f"{name} has chosen a card to give."
        case "hands_swapped":
            return "The chosen cards change hands."
        case "card_received":
            return f"{name} receives {_deck(data)} {data['value']}."
        case "combo":
            return f"{name}'s combo: +{data['bonus']} for attacking after two sword draws!"
        case "doomed":
            return f"Doom! {name}'s Lucky 7 crumbles instead of filling the slot."
        case "lucky_slotted" if "card" in data:
            return f"{name} sets {card} in the Lucky slot!"
        case "attack" if "abilities" in data:
            return _attack(data, names)
    return None


def _attack(data: Mapping[str, Any], names: Sequence[str]) -> str:
    attacker, target = names[data["seat"]], names[data["target"]]
    parts = [str(value) for value in data["attack"]]
    parts += [card_name(card) for card in data.get("abilities", [])]
    cards = " + ".join(parts) or "bare hands"
    guards = [str(value) for value in data["defense"]]
    guards += [card_name(card) for card in data.get("guards", [])]
    against = f"against {data['defense_total']}" if guards else "against no defense"
    hit = f"{data['damage']} damage" if data["damage"] else "no damage"
    combo = " (combo!)" if data.get("combo") else ""
    mirror = f", {data['reflected']} reflected by the mirror" if data.get("reflected") else ""
    total = f"{cards} = {data['attack_total']}{combo}"
    return f"{attacker} attacks {target} with {total} {against}: {hit}{mirror}."


def _status_name(data: Mapping[str, Any]) -> str:
    status = STATUSES.get(str(data.get("status")))
    return status.name if status else str(data.get("status", "")).capitalize()


def _status(data: Mapping[str, Any]) -> str:
    shown = amount_text(str(data.get("status")), data.get("amount"))
    label = _status_name(data)
    return f"{label} {shown}" if shown else label


def _turns(turns: int) -> str:
    return "1 turn" if turns == 1 else f"{turns} turns"


def _deck(data: Mapping[str, Any]) -> str:
    return DECK_LABELS.get(str(data.get("deck")), str(data.get("deck", "")))
