"""Each game's rule options, read from the engine's own schema (`<game>/options.py`, `OPTIONS`).

The lobby renders these generically (games.forms), the services turn a form's text into
match options (`from_form`), the engine checks them (`game.new` raises InvalidOptions), and
the table lists and the match header show them (`summary`). Nothing here knows a game's
rules: a new option in an engine's `OPTIONS` appears in the lobby by itself.

Offered are the options a player picks from a short list (`choices`) or a range of whole
numbers (`bounds`); options made of data (BaniraCards' deck list, Grimhand Arcana's pool
and decks) are built by their own pages. Grimhand's "variant" is the lobby's mode field.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import registry
from games.engine.core import InvalidOptions, Option

# Grimhand's mode has its own field (Classic or Arcana); Arcana's options are built by
# arcana.services from the player's deck.
NOT_OFFERED = frozenset({("grimhand", "variant")})

# Short labels for people; an option not named here is labelled from its name.
LABELS = {
    "copies": "Copies of each card",
    "hp": "Starting HP",
    "overdraw": "Drawing into a full hand",
    "discards": "Discard piles",
    "boost": "Boost timing",
    "start_tie": "Tie for the first turn",
}
VALUE_LABELS = {
    ("overdraw", "flush"): "Flush the hand",
    ("overdraw", "discard_lowest"): "Discard the lowest card",
    ("overdraw", "hp_penalty"): "Lose 3 HP",
    ("discards", "together"): "One shared pile",
    ("discards", "own"): "Each player's own pile",
    ("boost", "after_draw"): "After the draw is seen",
    ("boost", "before_draw"): "Committed before the draw",
    ("start_tie", "shield"): "Lower shield starts",
    ("start_tie", "random"): "The seed decides",
}


@dataclass(frozen=True)
class RuleOption:
    game: str
    option: Option

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def field_name(self) -> str:
        """The lobby form's field: one per game and option, so every game's fields coexist."""
        return f"opt_{self.game}_{self.option.name}"

    @property
    def label(self) -> str:
        return LABELS.get(self.name, self.name.replace("_", " ").capitalize())

    @property
    def text(self) -> str:
        return self.option.text

    @property
    def default(self) -> Any:
        return self.option.default

    @property
    def is_number(self) -> bool:
        return self.option.bounds is not None

    def value_label(self, value: Any) -> str:
        return VALUE_LABELS.get((self.name, value), str(value).replace("_", " ").capitalize())

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(str(value), self.value_label(value)) for value in self.option.choices]


def schema(game_slug: str) -> tuple[Option, ...]:
    """The engine's own `OPTIONS` of the game: its package's `options` module (every engine
    package has one: docs/architecture.md); empty for an unknown game or a game whose
    package has none (a game registered from elsewhere, as the tests' High Card)."""
    if game_slug not in registry.slugs():
        return ()
    package = type(registry.get(game_slug)).__module__
    try:
        module = importlib.import_module(f"{package}.options")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(module, "OPTIONS", ()))


def offered(game_slug: str) -> list[RuleOption]:
    """The options the lobby offers for the game, in the engine's order."""
    return [
        RuleOption(game_slug, option)
        for option in schema(game_slug)
        if (option.choices or option.bounds) and (game_slug, option.name) not in NOT_OFFERED
    ]


def from_form(game_slug: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Match options from the lobby's text values, {option name: text}.

    Only the values that differ from the default are kept (a table at the standard rules
    has no options). An unknown name is refused here with InvalidOptions (not every engine
    refuses one); whether a value is allowed (a number in range, one of the choices) is the
    engine's to say: a number is passed on as a number, anything else as the text sent.
    """
    known = {rule.name: rule for rule in offered(game_slug)}
    options: dict[str, Any] = {}
    game_name = registry.get(game_slug).name if game_slug in registry.slugs() else game_slug
    for name, text in raw.items():
        rule = known.get(name)
        if rule is None:
            raise InvalidOptions(f"{game_name} has no option “{name}”.")
        if text is None or str(text).strip() == "":
            continue
        value: Any = str(text).strip()[:64]
        if rule.is_number and _is_whole(value):
            value = int(value)
        for choice in rule.option.choices:
            if str(choice) == value:
                value = choice
        if value != rule.default:
            options[name] = value
    return options


def _is_whole(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return text.isascii() and digits.isdigit() and len(digits) <= 9


@dataclass(frozen=True)
class Shown:
    label: str
    value: str
    is_default: bool


ARCANA_SHOWN = ("hp",)  # of Grimhand's options, those an Arcana match also takes


def summary(game_slug: str, options: Mapping[str, Any] | None) -> list[Shown]:
    """Every offered option of a match with its value (defaults included), for people."""
    options = options or {}
    shown = []
    rules = offered(game_slug)
    if game_slug == "grimhand" and options.get("variant") == "arcana":
        shown.append(Shown("Mode", "Arcana", False))
        rules = [rule for rule in rules if rule.name in ARCANA_SHOWN]
    for rule in rules:
        value = options.get(rule.name, rule.default)
        shown.append(Shown(rule.label, rule.value_label(value), value == rule.default))
    return shown


def changed(game_slug: str, options: Mapping[str, Any] | None) -> list[Shown]:
    """Only the options a match sets away from the standard rules."""
    return [item for item in summary(game_slug, options) if not item.is_default]
