"""Haymaker on the page: the ring, real playing cards, the action bar and the log lines.

Presentation only. Everything here restates what the viewer's `view` already says (their
hand, counts, the attack on the table, the last turn) in the words and pictures a player
needs. The action bar's buttons are enabled by an `is_legal` answer the
view gets from the engine (`game.is_legal`): no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.boards.base import BoardPresenter
from games.boards.haymaker import form
from games.boards.haymaker.tutorial import TUTORIAL
from games.boards.playing_cards import PlayingCards, plural
from games.engine.core import Event

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
RANK_WORDS = {"A": "Ace"}

DECK = PlayingCards(RANKS, RANK_WORDS, pip_x=(36, 50, 64))
CARDS = DECK.cards

ACTION_LABELS = {
    "attack": "Attack",
    "haymaker": "Haymaker",
    "pass": "Pass",
    "block": "Block",
    "take_hit": "Take the hit",
}
ROLE_ACTIONS = {"attacker": ("attack", "haymaker", "pass"), "defender": ("block", "take_hit")}
CARD_ACTIONS = ("attack", "haymaker", "block")  # the buttons that play the checked cards
REVERSAL_REASONS = {
    "equal": "an exact block",
    "haymaker": "every block of a haymaker is one",
    "attacker_empty": "the attacker has no cards left",
}
ENDINGS = {  # title, and what happened to the loser (or, for a decision, to the judges)
    "knockout": ("K.O.!", "could not pay for the hit."),
    "technical_knockout": ("T.K.O.", "had no move left."),
    "decision": ("Decision", "Both hands are empty: the judges count the discards."),
    "draw": ("Draw", "Both hands are empty, and the discards are even."),
    "resign": ("Resigned", "threw in the towel."),
    "timeout": ("Time!", "ran out of time."),
}


# --- cards --------------------------------------------------------------------------------


# --- the match log ---------------------------------------------------------------------------


def describe(event: Event, names: Sequence[str]) -> str:
    """One line of the match log, in the ring's voice."""
    data = event.data

    def who(key: str = "seat") -> str:
        return names[data[key]] if key in data and data[key] is not None else ""

    match event.type:
        case "attack":
            return (
                f"{who()} jabs with {DECK.short(data['cards'])}: an attack of {data['strength']}."
            )
        case "haymaker":
            return f"{who()} swings a HAYMAKER: {DECK.short(data['cards'])} for {data['strength']}!"
        case "block":
            return (
                f"{who()} blocks with {DECK.short(data['cards'])}: "
                f"{data['strength']} against {data['attack_strength']}."
            )
        case "reversal":
            why = " and ".join(REVERSAL_REASONS.get(r, r) for r in data.get("reasons", ()))
            return f"REVERSAL! {who()} turns the fight around ({why})."
        case "discarded":
            return (
                f"{DECK.short(data['cards'])} go to {who()}'s discard pile "
                f"({plural(data['count'], 'card')})."
            )
        case "roles_switched":
            return f"Roles switch: {who('attacker')} attacks, {who('defender')} defends."
        case "hit":
            return f"{who()} takes the hit, which costs {plural(data['count'], 'card')}."
        case "cards_taken":
            return f"{who('to')} takes {DECK.short(data['cards'])} from {who('from')}'s hand."
        case "pass":
            return f"{who()} passes: both draw, and the roles switch."
        case "card_drawn":
            return f"{who()} draws a card ({plural(data['deck_count'], 'card')} left to draw)."
        case "drew":
            return f"It is the {CARDS[data['card']]['label']}."
        case "knockout":
            return f"KNOCKOUT! {who('loser')} cannot pay for the hit. {who('winner')} wins."
        case "technical_knockout":
            return f"Technical knockout: {who('loser')} has no move left. {who('winner')} wins."
        case "decision":
            scores = "–".join(str(count) for count in data.get("discards", ()))
            winners = data.get("winners") or []
            result = f"{names[winners[0]]} wins" if winners else "a draw"
            return f"Both hands are empty. Decision on discard piles, {scores}: {result}."
    return event.type.replace("_", " ").capitalize() + "."


# --- the board ------------------------------------------------------------------------------


def _player(player: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    player = dict(player)
    revealed = player["revealed"]
    discard = player["discard"]
    player["is_viewer"] = player["seat"] == view["seat"]
    player["is_attacker"] = player["role"] == "attacker"
    player["is_acting"] = player["seat"] in view["to_act"]
    player["revealed_cards"] = DECK.many(revealed)
    player["backs"] = range(max(0, player["hand_count"] - len(revealed)))
    player["discard_top"] = DECK.many(discard[-3:])
    player["discard_text"] = DECK.short(discard) or "empty"
    return player


def _last_turn(view: dict[str, Any], bottom: int) -> dict[str, Any] | None:
    last = view.get("last_turn")
    if not last:
        return None
    last = dict(last)
    last["attack_cards"] = DECK.many(last["attack"])
    last["block_cards"] = DECK.many(last["block"])
    last["taken_cards"] = DECK.many(last.get("taken"))
    last["taken_backs"] = range(0 if last["taken_cards"] else last["taken_count"])
    last["from_side"] = "bottom" if last["attacker"] == bottom else "top"
    if last["action"] == "pass":
        result, title = "pass", "Pass"
    elif last["response"] == "block":
        result, title = ("reversal", "Reversal!") if last["is_reversal"] else ("block", "Blocked")
    else:
        result, title = "hit", "Hit!"
    last["result"], last["title"] = result, title
    return last


def _outcome(view: dict[str, Any], players: list[dict[str, Any]]) -> dict[str, Any] | None:
    outcome = view.get("outcome")
    if not outcome:
        return None
    winners = outcome["winners"]
    loser = next((p["seat"] for p in players if winners and p["seat"] not in winners), None)
    title, why = ENDINGS.get(outcome["reason"], (outcome["reason"].replace("_", " "), ""))
    scores = outcome.get("scores") or [p["discard_count"] for p in players]
    return {
        **outcome,
        "title": title,
        "why": why,
        "loser": loser,
        "scores_text": "–".join(str(score) for score in scores),
    }


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """Add what the ring needs: sides (opponent on top), card faces, the table, the bar."""
    me = view["seat"] if view["seat"] is not None else 0
    players = [_player(player, view) for player in view["players"]]
    view["bottom"] = players[me]
    view["top"] = players[1 - me]
    revealed_to_them = set(view["bottom"]["revealed"]) if view["seat"] is not None else set()
    view["hand_cards"] = [
        {**CARDS[name], "is_known": name in revealed_to_them} for name in view["hand"] or ()
    ]
    attack = view.get("attack")
    if attack:
        attack = dict(attack)
        attack["cards_shown"] = DECK.many(attack["cards"])
        attack["from_side"] = "bottom" if attack["seat"] == me else "top"
        view["attack"] = attack
    view["last"] = _last_turn(view, me)
    view["deck_stack"] = range(min(4, (view["deck_count"] + 3) // 4))
    view["burned_backs"] = range(view["burned_count"])
    view["ending"] = _outcome(view, players)
    view["bar"] = action_bar(view=view, cards=())
    return view


# --- the action bar ----------------------------------------------------------------------------


def action_bar(
    *, view: dict[str, Any], cards: Sequence[str], is_legal: Callable[[str], bool] | None = None
) -> dict[str, Any]:
    """The buttons under my hand, for the cards I have checked.

    `is_legal(action)` (the preview) answers, through the engine, whether pressing that
    button with these cards is a legal move; a button is enabled only if it is. Without it
    (the board as first drawn, which must work with JavaScript off) every button of my
    role is enabled, the pass only when the view allows it: the server checks what is
    posted. Nothing is enabled when it is not my turn.
    """
    is_my_turn = view["seat"] is not None and view["seat"] in view["to_act"]
    role = view["my_role"]
    checked = set(cards)
    chosen = [name for name in view["hand"] or () if name in checked]
    total = sum(CARDS[name]["value"] for name in chosen)
    buttons = []
    for action in ROLE_ACTIONS.get(role or "", ()):
        if not is_my_turn:
            is_enabled = False
        elif is_legal is not None:
            is_enabled = is_legal(action)
        else:
            is_enabled = view["can_pass"] if action == "pass" else True
        buttons.append(
            {
                "action": action,
                "label": ACTION_LABELS[action],
                "is_enabled": bool(is_enabled),
                "strength": total if action in CARD_ACTIONS and chosen else None,
                "coach_key": f'"type":"{action}"',  # as in the coached move's compact JSON
            }
        )
    return {
        "role": role,
        "is_my_turn": is_my_turn,
        "cards": [CARDS[name] for name in chosen],
        "total": total,
        "buttons": buttons,
        **_block_meter(view, total, len(chosen)),
    }


def _block_meter(view: dict[str, Any], total: int, count: int) -> dict[str, Any]:
    """For the defender: the selected block against the attack, and what it would do."""
    needed = view.get("block_needed")
    attack = view.get("attack")
    if not needed or not attack:
        return {"needed": None}
    attacker_empty = view["top"]["hand_count"] == 0 if view.get("top") else False
    if not count:
        verdict, level = f"Pick cards adding up to {needed} or more.", "idle"
    elif total < needed:
        verdict, level = f"{needed - total} short of the attack.", "short"
    elif total == needed or attack["is_haymaker"] or attacker_empty:
        verdict, level = "Blocks it, and it's a REVERSAL!", "reversal"
    else:
        verdict, level = f"Blocks it, {total - needed} over: no reversal.", "over"
    return {
        "needed": needed,
        "meter": min(100, round(100 * total / needed)),
        "verdict": verdict,
        "level": level,
    }


@dataclass(frozen=True)
class HaymakerPresenter(BoardPresenter):
    """A board whose moves are built from checked cards, so it has a live action bar.

    Also offers every card face to the rules page (`presenter.cards.7H`).
    """

    preview_template: str = "games/haymaker/actions.jinja"

    @property
    def cards(self) -> dict[str, dict[str, Any]]:
        return CARDS

    def action_bar(
        self, *, view: dict[str, Any], cards: Sequence[str], is_legal: Callable[[str], bool]
    ) -> dict[str, Any]:
        return action_bar(view=view, cards=cards, is_legal=is_legal)

    def card_move(self, action: str, cards: Sequence[str]) -> dict[str, Any]:
        """The move a button of the action bar makes with these cards (for the preview)."""
        return form.card_move(action, cards)

    def checked_cards(self, values: list[str]) -> list[str]:
        return form.checked_cards(values)


# How a match ended, said to the winner, to the loser, and to everyone else (by the
# outcome's reason; resignations and timeouts are worded by games.selectors).
OUTCOME_PHRASES = {
    "knockout": ("a knockout", "you were knocked out", "a knockout"),
    "technical_knockout": ("a technical knockout", "a technical knockout", "a technical knockout"),
    "decision": ("the judges' decision", "the judges' decision", "the judges' decision"),
}

BOARD = HaymakerPresenter(
    slug="haymaker",
    folder=Path(__file__).parent,
    outcome_phrases=OUTCOME_PHRASES,
    tutorial=TUTORIAL,
    form_move=form.form_move,
    template="games/haymaker/board.jinja",
    describe=describe,
    tagline="Jab, block, and swing a haymaker. Empty your rival's hand before they empty yours.",
    decorate=decorate,
    stylesheet="css/games/haymaker.css",
    rules_template="games/haymaker/rules.html",
)
