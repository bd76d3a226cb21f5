from typing import Any

from django import forms

from games import decks, rule_options
from games.ai import levels
from games.boards import has_board
from games.engine import registry
from games.services import TIME_CONTROLS, SeatSpec, pairing

OPPONENT_CHOICES = [
    ("ai", "The AI"),
    ("player", "A player I name"),
    ("open", "Anyone (an open seat)"),
]
EXTRA_SEATS = range(2, 8)  # seats after the first opponent, for tables of up to 8
GRIMHAND_VARIANTS = [("classic", "Classic"), ("arcana", "Arcana (ability cards and decks)")]
RATED_CHOICES = [
    ("rated", "Rated: the result moves both ratings"),
    ("casual", "Casual: never rated"),
]


def _choices_set(form: forms.Form, name: str, choices: list[tuple[Any, str]]) -> None:
    """Give the choice field `name` its choices, known only when the form is made."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


class NewMatchForm(forms.Form):
    game = forms.ChoiceField(choices=())
    players = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, str(n)) for n in range(1, 9)],
        initial=2,
        required=False,
        empty_value=None,
        label="Players",
    )
    opponent = forms.ChoiceField(choices=OPPONENT_CHOICES, widget=forms.RadioSelect, initial="ai")
    username = forms.CharField(max_length=150, required=False, label="Player's username")
    ai_level = forms.ChoiceField(
        choices=[(level.id, level.label) for level in levels.offered()],
        initial=levels.LOBBY_DEFAULT,
        label="AI level",
        widget=forms.Select(attrs={"aria-describedby": "ai-level-help"}),
    )
    time_control = forms.ChoiceField(
        choices=[("", "Pick for me (a day per move with players, none against the AI)")]
        + [(key, label) for key, (label, _seconds) in TIME_CONTROLS.items()],
        required=False,
        label="Clock",
    )

    variant = forms.ChoiceField(
        choices=GRIMHAND_VARIANTS, initial="classic", required=False, label="Grimhand mode"
    )
    arcana_deck = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label="Arcana deck", choices=()
    )
    rated = forms.ChoiceField(
        choices=RATED_CHOICES,
        initial="rated",
        required=False,
        widget=forms.RadioSelect,
        label="Rated or casual",
    )
    is_private = forms.BooleanField(
        required=False,
        label="Private table: only people with its link can take the open seat",
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        mine = decks.choices(user=user) if user is not None else []
        _choices_set(self, "arcana_deck", [("", "The house's archetype deck"), *mine])
        self.games = [game for game in registry.all() if has_board(game.slug)]
        _choices_set(self, "game", [(game.slug, game.name) for game in self.games])
        self.rule_fields: list[tuple[str, rule_options.RuleOption]] = []
        for game in self.games:
            for rule in rule_options.offered(game.slug):
                self.fields[rule.field_name] = _rule_field(rule)
                self.rule_fields.append((game.slug, rule))
        for seat in EXTRA_SEATS:
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=OPPONENT_CHOICES, required=False, initial="ai", label=f"Seat {seat + 1}"
            )
            self.fields[f"seat_{seat}_username"] = forms.CharField(
                max_length=150, required=False, label=f"Seat {seat + 1}: username"
            )

    def rule_rows(self):
        """(game slug, bound field, option) for every game's rule options."""
        return [(slug, self[rule.field_name], rule) for slug, rule in self.rule_fields]

    def rule_values(self) -> dict[str, str]:
        """The chosen game's rule options as sent, {option name: text}: the engine checks them."""
        game = self.cleaned_data.get("game")
        return {
            rule.name: self.cleaned_data.get(rule.field_name) or ""
            for slug, rule in self.rule_fields
            if slug == game
        }

    def is_casual(self) -> bool:
        return self.cleaned_data.get("rated") == "casual"

    def extra_rows(self):
        return [(seat, self[f"seat_{seat}"], self[f"seat_{seat}_username"]) for seat in EXTRA_SEATS]

    def clean(self):
        cleaned = super().clean()
        assert cleaned is not None  # Form.clean answers cleaned_data
        game = registry.get(cleaned["game"]) if cleaned.get("game") else None
        if game is not None:
            size = cleaned.get("players") or 2
            cleaned["players"] = min(max(size, game.min_seats), game.max_seats)
        if self._seat_count() > 1:
            self._require_username("opponent", "username")
        for seat in EXTRA_SEATS:
            if seat < self._seat_count():
                self._require_username(f"seat_{seat}", f"seat_{seat}_username")
        return cleaned

    def _require_username(self, kind_field: str, name_field: str) -> None:
        if (
            self.cleaned_data.get(kind_field) == "player"
            and not self.cleaned_data.get(name_field, "").strip()
        ):
            self.add_error(name_field, "Type the username of the player you want to invite.")

    def _seat_count(self) -> int:
        return self.cleaned_data.get("players") or 2

    def is_arcana(self) -> bool:
        return self.cleaned_data.get("game") == "grimhand" and (
            self.cleaned_data.get("variant") == "arcana"
        )

    def may_be_rated(self) -> bool:
        """Whether the table may end rated: not casual, every other seat a player
        (docs/ratings.md)."""
        return (
            not self.is_casual()
            and bool(self.other_seats())
            and all(seat.kind != "ai" for seat in self.other_seats())
        )

    def other_seats(self) -> list[SeatSpec]:
        """The seats after mine, as the services take them."""
        data = self.cleaned_data
        if self._seat_count() == 1:
            return []
        level = data["ai_level"]
        seats = [SeatSpec(kind=data["opponent"], ai_level=level, username=data["username"])]
        for seat in range(2, self._seat_count()):
            kind = data.get(f"seat_{seat}") or "ai"
            seats.append(
                SeatSpec(kind=kind, ai_level=level, username=data.get(f"seat_{seat}_username", ""))
            )
        return seats


def _rule_field(rule: rule_options.RuleOption) -> forms.Field:
    """A rule option as a form field. The value goes to the engine as sent (no bounds or
    choices checked here): the engine's InvalidOptions is the message a player reads."""
    attrs = {"data-rule": rule.name}
    if rule.is_number:
        low, high = rule.option.bounds or (0, 0)
        widget: forms.Widget = forms.NumberInput(attrs={**attrs, "min": low, "max": high})
    else:
        widget = forms.Select(choices=rule.choices, attrs=attrs)
    return forms.CharField(
        required=False,
        max_length=64,
        initial=rule.default,
        label=rule.label,
        help_text=rule.text,
        widget=widget,
    )


class QuickPairForm(forms.Form):
    """Play anyone: a game, a time control, rated or casual."""

    game = forms.ChoiceField(choices=(), label="Game")
    time_control = forms.ChoiceField(choices=(), initial="1d", label="Clock")
    rated = forms.ChoiceField(
        choices=RATED_CHOICES, initial="rated", widget=forms.RadioSelect, label="Rated or casual"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _choices_set(self, "game", [(game.slug, game.name) for game in pairing.quick_games()])
        _choices_set(self, "time_control", list(pairing.quick_time_controls().items()))
