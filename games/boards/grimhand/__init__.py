"""Grimhand Tactics on the page: the casino table, card art, tooltips and the log lines.

Presentation only. Everything here restates what the viewer's `view` already says (hand
values, counts, the engine's own Death-card chance and damage preview) in the words and
pictures a player needs; no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.boards.base import BoardPresenter
from games.boards.grimhand import arcana
from games.boards.grimhand.form import form_move
from games.boards.grimhand.tutorial import ARCANA_KEY, ARCANA_TUTORIAL, TUTORIAL
from games.engine.core import Event
from games.engine.grimhand.arcana.state import HAND_LIMIT as ARCANA_HAND_LIMIT

KINDS = ("attack", "defense")
LABELS = {"attack": "Attack", "defense": "Defense"}
LUCKY = 7
DEATH = 13
ART = {
    "attack": "img/grimhand/attack.svg",
    "defense": "img/grimhand/defense.svg",
    "lucky": "img/grimhand/lucky.svg",
    "death": "img/grimhand/death.svg",
}
DECK_ART = {"attack": "img/grimhand/deck-attack.svg", "defense": "img/grimhand/deck-defense.svg"}
# How alarming a Death-card chance looks: (highest percent, level, label). A full deck
# holds one Death card in thirteen (8%), the "low" baseline.
FATE_LEVELS = (
    (8, "low", "Low"),
    (15, "rising", "Rising"),
    (30, "high", "High"),
    (100, "dire", "Deadly"),
)
DISCARD_REASONS = {
    "overdraw": "over the hand limit",
    "hand_limit": "over the hand limit",  # Arcana
    "purge": "purged",  # Arcana
}
# What a draw into a full hand does, by the match's "overdraw" option.
OVERDRAW_NOTES = {
    "flush": "one more card flushes the whole hand",
    "discard_lowest": "one more card pushes out the lowest",
    "hp_penalty": "one more card is discarded and costs HP",
}


def _deck(kind: str) -> str:
    return f"the {LABELS[kind]} deck"


def describe(event: Event, names: Sequence[str]) -> str:
    """One vivid line of the match log."""
    line = arcana.describe(event, names)
    if line is not None:
        return line
    data = event.data
    name = names[data["seat"]] if "seat" in data else ""
    kind = data.get("deck", "attack")
    match event.type:
        case "draw":
            return f"{name} draws from {_deck(kind)}."
        case "card_to_hand":
            article = "an" if kind == "attack" else "a"
            return f"{name} takes {article} {LABELS[kind]} {data['value']} into hand."
        case "lucky_slotted":
            return f"{name} draws a Lucky 7 and tucks it into the Lucky slot!"
        case "death_card":
            return f"{name} turns over the Death card!"
        case "lucky_saved":
            return f"{name}'s Lucky 7 cheats death! Both cards go to the discard."
        case "death":
            return f"Death claims {name}."
        case "hand_flushed":
            count = len(data.get("values", ()))
            return f"{name}'s {LABELS[kind]} hand overflows: all {count} cards are flushed!"
        case "card_discarded":
            why = DISCARD_REASONS.get(data.get("reason", ""), "")
            why = f" ({why})" if why else ""
            article = "an" if kind == "attack" else "a"
            return f"{name} discards {article} {LABELS[kind]} {data['value']}{why}."
        case "attack":
            return _describe_attack(data, names)
        case "blocked":
            return f"{name}'s shields block {data['amount']}."
        case "hp_penalty":
            return f"{name} overdraws and loses {data['amount']} HP."
        case "pass":
            return f"{name} can neither draw nor attack, and passes."
        case "reshuffled":
            return f"The {LABELS[kind]} deck is reshuffled from its {data['count']} discards."
    return event.type.replace("_", " ").capitalize() + "."


def _describe_attack(data: Any, names: Sequence[str]) -> str:
    attacker, target = names[data["seat"]], names[data["target"]]
    sums = " + ".join(str(value) for value in data["attack"])
    if len(data["attack"]) > 1:
        sums = f"{sums} = {data['attack_total']}"
    if data["defense"]:
        against = f"against {data['defense_total']}"
    else:
        against = f"against no defense ({target} held none)"
    hit = f"{data['damage']} damage" if data["damage"] else "no damage"
    return f"{attacker} attacks with {sums} {against}: {hit}. {target} has {data['hp']} HP."


def card(value: int, kind: str, *, where: str = "hand") -> dict[str, Any]:
    """A face-up card as the template draws it: art, value and what it does."""
    is_death = value == DEATH
    is_lucky = value == LUCKY and where == "slot"
    art = "death" if is_death else "lucky" if is_lucky else kind
    return {
        "value": value,
        "kind": kind,
        "label": LABELS[kind],
        "is_lucky": value == LUCKY,
        "is_death": is_death,
        "art": ART[art],
        "face": art,
        "tooltip": _card_tooltip(value, kind, where),
    }


def _card_tooltip(value: int, kind: str, where: str) -> str:
    if where == "slot":
        return (
            "Lucky 7: your charm against Death. Draw the Death 13 while it sits here and both "
            "cards are discarded: you survive and your turn ends. It protects you once."
        )
    if value == DEATH:
        return (
            "Death 13: whoever draws it without a Lucky 7 in their slot loses on the spot. "
            "This one has already been spent."
        )
    if where == "discard":
        return f"{LABELS[kind]} {value}, the top of the discard pile."
    if where == "deck":
        if value == DEATH:
            return (
                f"Death 13, face up on the {LABELS[kind]} deck: whoever draws it without a "
                "Lucky 7 in their slot loses on the spot."
            )
        return f"{LABELS[kind]} {value}, face up on the deck: the next card drawn from it."
    if kind == "attack":
        text = f"Attack {value}: adds {value} to your attack total."
    else:
        text = f"Defense {value}: blocks {value} damage when you are attacked, then is discarded."
    if value == LUCKY:
        text += " A plain 7 here: only a 7 in your Lucky slot protects you."
    return text


def _fate(deck: dict[str, Any]) -> dict[str, Any]:
    chance = float(deck.get("death_chance") or 0.0)
    percent = round(chance * 100)
    if chance <= 0:
        level, label = "safe", "Safe"
    else:
        level, label = next((lvl, text) for top, lvl, text in FATE_LEVELS if percent <= top)
    shown = "<1%" if chance > 0 and percent == 0 else f"{percent}%"
    return {
        "percent": percent,
        "shown": shown,
        "level": level,
        "label": label,
        "bar": max(percent, 2) if chance > 0 else 0,
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _decks(view: dict[str, Any]) -> list[dict[str, Any]]:
    decks = []
    for kind in KINDS:
        deck = dict(view["decks"][kind])
        discard = list(deck.get("discard") or [])
        fate = _fate(deck)
        deaths = deck.get("deaths_left", 0)
        deaths_text = _plural(deaths, "Death card") if deaths else "no Death card"
        known = list(deck.get("known_top") or ())
        top = card(known[0], kind, where="deck") if known and deck["count"] else None
        deck.update(
            kind=kind,
            label=LABELS[kind],
            back=DECK_ART[kind],
            fate=fate,
            deaths_text=deaths_text,
            draw_move={"type": "draw", "deck": kind},
            discard_count=len(discard),
            discard_top=card(discard[-1], kind, where="discard") if discard else None,
            stack=range(min(5, (deck["count"] + 7) // 8)),  # drawn thickness, not the count
            top=top,  # the top card, when this viewer sees it (face up, or scried)
            tooltip=_deck_tooltip(kind, deck["count"], deaths_text, fate, known),
            discard_tooltip=(
                f"{LABELS[kind]} discard pile: {_plural(len(discard), 'card')}. "
                "It is shuffled into a new deck when the deck runs out."
            ),
        )
        decks.append(deck)
    return decks


def _deck_tooltip(
    kind: str, count: int, deaths_text: str, fate: dict[str, Any], known: list[int]
) -> str:
    if not known or not count:
        return (
            f"{LABELS[kind]} deck: {_plural(count, 'card')} face down, {deaths_text} "
            f"among them: a {fate['shown']} chance that its next card is Death."
        )
    top = "Death 13" if known[0] == DEATH else f"{LABELS[kind]} {known[0]}"
    cards = _plural(count, "card")
    text = f"{LABELS[kind]} deck: {cards}, {deaths_text} among them. On top: {top}."
    if len(known) > 1:
        below = ", ".join("Death" if value == DEATH else str(value) for value in known[1:])
        text += f" You know what comes next: {below}."
    return text


def _player(player: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    player = dict(player)
    start = max(1, int(player.get("max_hp") or view["options"].get("hp") or 50))
    hp = max(0, player["hp"])
    player["hp_shown"] = hp
    player["hp_max"] = start
    player["hp_percent"] = max(0, min(100, round(100 * hp / start)))
    player["is_low"] = player["hp_percent"] <= 30
    player["is_viewer"] = player["seat"] == view["seat"]
    player["rows"] = [_row(player, kind, view) for kind in KINDS]
    player["lucky_card"] = card(LUCKY, "attack", where="slot") if player["lucky"] else None
    return player


def _row(player: dict[str, Any], kind: str, view: dict[str, Any]) -> dict[str, Any]:
    values = player["hand"][kind]
    count = player["hand_count"][kind]
    is_arcana = view.get("variant") == "arcana"
    limit = ARCANA_HAND_LIMIT if is_arcana else view["options"].get("hand_limit", 13)
    overdraw = "discard_lowest" if is_arcana else view["options"].get("overdraw", "flush")
    cards = [card(value, kind) for value in values] if values is not None else None
    return {
        "kind": kind,
        "label": LABELS[kind],
        "count": count,
        "limit": limit,
        "is_hidden": values is None,
        "cards": cards,
        "backs": range(count) if values is None else range(0),
        "back_art": DECK_ART[kind],
        "total": sum(values) if values is not None else None,
        "is_full": count >= limit,
        "full_note": OVERDRAW_NOTES.get(overdraw, ""),
        "back_tooltip": f"A face-down {LABELS[kind]} card.",
    }


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """Add what the table needs: sides (opponent on top), art, tooltips, meters."""
    me = view["seat"] if view["seat"] is not None else 0
    is_arcana = view.get("variant") == "arcana"
    if is_arcana:  # the Lucky slot's ability card (Double Shamrock), before it is drawn over
        for player in view["players"]:
            player["lucky_card_id"] = player.get("lucky_card")
    players = [_player(player, view) for player in view["players"]]
    by_seat = {player["seat"]: player for player in players}
    view["bottom"] = by_seat[me]
    view["top"] = next(player for player in players if player["seat"] != me)
    view["sides"] = [view["top"], view["bottom"]]
    view["deck_list"] = _decks(view)
    view["attack_move"] = {"type": "attack"}
    view["pass_move"] = {"type": "pass"}
    view["is_protected"] = view["seat"] is not None and by_seat[me]["lucky"]
    preview = view.get("preview")
    view["preview_text"] = arcana.preview_text(preview) if is_arcana else _preview_text(preview)
    winners = (view.get("outcome") or {}).get("winners")
    view["loser"] = (
        next((p["seat"] for p in players if p["seat"] not in winners), None) if winners else None
    )
    if not is_arcana:
        return view
    view["players"] = players
    return arcana.decorate(view)


def _preview_text(preview: dict[str, Any] | None) -> str:
    if not preview:
        return ""
    low, high = preview["damage_min"], preview["damage_max"]
    damage = f"{low} damage" if low == high else f"{low}–{high} damage"
    cards = preview["defense_cards"]
    if not cards:
        return f"Your {preview['attack_total']} against no defense: {damage}"
    hidden = "hidden defense card" if cards == 1 else "hidden defense cards"
    return f"Your {preview['attack_total']} against their {cards} {hidden}: {damage}"


# How a match ended, said to the winner, to the loser, and to everyone else (by the
# outcome's reason; resignations and timeouts are worded by games.selectors).
OUTCOME_PHRASES = {
    "death_card": ("they drew the Death card", "you drew the Death card", "the Death card"),
    "hp": ("their HP ran out", "your HP ran out", "HP ran out"),
}

# Grimhand's further tutorials (games.boards.EXTRA_TUTORIALS), by Match.tutorial key.
EXTRA_TUTORIALS = {ARCANA_KEY: ARCANA_TUTORIAL}

BOARD = BoardPresenter(
    slug="grimhand",
    folder=Path(__file__).parent,
    outcome_phrases=OUTCOME_PHRASES,
    tutorial=TUTORIAL,
    template="games/grimhand/board.jinja",
    describe=describe,
    tagline="Swords, shields and a Death card in every deck. Strike hard, and pray for a 7.",
    decorate=decorate,
    form_move=form_move,
    stylesheet="css/games/grimhand.css",
    rules_template="games/grimhand/rules.html",
)
