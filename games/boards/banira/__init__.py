"""BaniraCards on the page: the field of ten slots, the hand, the counters and log lines.

Presentation only. Everything here restates what the player's `view` already says (the
field, the hand, the engine's `costs` map of every held card against every slot) in the
shape the template draws; no rule is decided here. The play form is one form: the hand's
cards are radios named "card", the slots submit buttons named "slot" (games/views.py
turns that into a play move), so click-a-card-then-a-slot works with JavaScript off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.boards.banira import form
from games.boards.banira.tutorial import TUTORIAL
from games.boards.base import BoardPresenter
from games.engine.core import Event

ICONS = "img/banira/icons.svg"
RARITY_LABELS = {
    "rainbow": "Rainbow",
    "gold": "Gold",
    "silver": "Silver",
    "bronze": "Bronze",
    "shiny": "Shiny",
}
ENDINGS = {
    "complete": ("Field covered!", "Every slot is covered. Final score"),
    "stuck": ("Stuck", "No move was left: the run scores"),
    "resign": ("Given up", "The run was abandoned: it scores"),
    "timeout": ("Out of time", "The run timed out: it scores"),
}


# How a run ended, said on the match page (games.selectors.outcome_text).
SOLO_ENDINGS = {
    "complete": "Run complete! Final score {score}.",
    "stuck": "No move left: the run ends with a score of {score}.",
    "resign": "You gave up the run: score {score}.",
    "timeout": "The run ran out of time: score {score}.",
}


def _card_name(card: dict[str, Any]) -> str:
    return f"{card['name']} ({RARITY_LABELS.get(card['rarity'], card['rarity'])})"


def _names(cards: Sequence[dict[str, Any]]) -> str:
    return ", ".join(_card_name(card) for card in cards)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(event: Event, names: Sequence[str]) -> str:
    """One line of the run's log."""
    data = event.data
    match event.type:
        case "played":
            where = "stacked on" if data["stacked"] else "played onto"
            return (
                f"{_card_name(data['card'])} {where} {data['slot'].capitalize()} "
                f"for {data['cost']} stamina: +{data['score_gain']} score."
            )
        case "unlocked":
            return f"{data['slot'].capitalize()} unlocked for {_plural(data['cost'], 'point')}."
        case "drew":
            return _describe_draw(data)
        case "removed":
            removed = _names(data["cards"]) or "nothing"
            short = f" ({data['short']} more had nowhere to come from)" if data["short"] else ""
            return f"Negative draws remove {removed}{short}."
        case "overflow_entered":
            return f"From the overflow into the hand: {_names(data['cards'])}."
        case "discarded":
            return f"{_card_name(data['card'])} discarded, −{data['score_cost']} score."
        case "boosted":
            return (
                f"Boost: +{data['points']} points, +{data['stamina']} stamina, "
                f"−{data['score_cost']} score."
            )
        case "run_complete":
            return (
                f"The field is covered after {_plural(data['plays'], 'play')}! "
                f"Final score {data['score']}."
            )
        case "run_stuck":
            return (
                f"Stuck with no move left ({data['score_left']} score unspent): the run scores 0."
            )
    return event.type.replace("_", " ").capitalize() + "."


def _describe_draw(data: Mapping[str, Any]) -> str:
    how = f"Manual draw (−{data['score_cost']} score)" if data["manual"] else "The card draws"
    parts = []
    if data["to_hand"]:
        parts.append(f"into the hand: {_names(data['to_hand'])}")
    if data["to_overflow"]:
        parts.append(f"{data['to_overflow']} into the overflow")
    if data["short"]:
        parts.append(f"{data['short']} short, the deck is empty")
    return f"{how}: " + ("; ".join(parts) if parts else "nothing") + "."


# --- the board -------------------------------------------------------------------------------


def _hand_card(position: int, card: dict[str, Any], costs: dict[str, Any]) -> dict[str, Any]:
    """A held card, with the plays it has: every slot it fits, legal or not, and the cost."""
    row = costs.get(card["id"], {})
    fits = [
        {"slot": slot, "cost": cell["cost"], "is_legal": cell["legal"], "reason": cell["reason"]}
        for slot, cell in row.items()
        if cell["cost"] is not None
    ]
    legal = [play["cost"] for play in fits if play["is_legal"]]
    return {
        **card,
        "position": position,
        "fits": fits,
        "best_cost": min(legal) if legal else None,
        "legal_slots": " ".join(play["slot"] for play in fits if play["is_legal"]),
        "stat_total": card["points"] + card["stamina"] + card["draws"],
    }


def _field_slot(slot: dict[str, Any], hand: list[dict[str, Any]], costs: dict[str, Any]):
    """A slot, with what each held card would cost here (for the selected-card highlight)."""
    slot = dict(slot)
    slot["for_cards"] = []
    for card in hand:
        cell = costs.get(card["id"], {}).get(slot["slot"])
        if cell is None:
            continue
        slot["for_cards"].append(
            {
                "position": card["position"],
                "cost": cell["cost"],
                "is_legal": cell["legal"],
                "reason": cell["reason"] or "",
            }
        )
    slot["under"] = slot["stack"][:-1][-3:]  # up to three cards peeking out below the top
    slot["has_legal_play"] = any(
        entry["is_legal"] for entry in slot["for_cards"] if entry["cost"] is not None
    )
    return slot


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """Add what the board draws: the two field rows, hand cards with their plays, endings."""
    costs = view.get("costs") or {}
    hand = [_hand_card(index, card, costs) for index, card in enumerate(view["hand"], start=1)]
    view["hand_cards"] = hand
    view["empty_hand_slots"] = range(max(0, view["hand_limit"] - len(hand)))
    field = [_field_slot(slot, hand, costs) for slot in view["field"]]
    view["field_rows"] = [field[:7], field[7:]]
    view["discard_top"] = view["discard"][-1] if view["discard"] else None
    view["deck_backs"] = range(min(4, (view["deck_count"] + 9) // 10))
    view["icons"] = ICONS
    outcome = view.get("outcome")
    if outcome:
        title, text = ENDINGS.get(outcome["reason"], (outcome["reason"].capitalize(), "Score"))
        score = (outcome.get("scores") or [0])[0]
        view["ending"] = {"title": title, "text": text, "score": score, **outcome}
    else:
        view["ending"] = None
    return view


BOARD = BoardPresenter(
    slug="banira",
    folder=Path(__file__).parent,
    form_move=form.form_move,
    template="games/banira/board.jinja",
    describe=describe,
    tagline="A solo puzzle: unlock ten slots, cover them with cards, and keep your score high.",
    decorate=decorate,
    stylesheet="css/games/banira.css",
    rules_template="games/banira/rules.html",
    solo_endings=SOLO_ENDINGS,
    tutorial=TUTORIAL,
)
