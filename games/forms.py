from django import forms

from games.boards import has_board
from games.engine import registry
from games.services import AI_LEVELS, TIME_CONTROLS, SeatSpec

OPPONENT_CHOICES = [
    ("ai", "The AI"),
    ("player", "A player I name"),
    ("open", "Anyone (an open seat)"),
]
EXTRA_SEATS = range(2, 8)  # seats after the first opponent, for tables of up to 8


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
        choices=[(level, label) for level, label in AI_LEVELS.items()],
        initial="random",
        label="AI level",
        widget=forms.Select(attrs={"aria-describedby": "ai-level-help"}),
    )
    time_control = forms.ChoiceField(
        choices=[("", "Pick for me (a day per move with players, none against the AI)")]
        + [(key, label) for key, (label, _seconds) in TIME_CONTROLS.items()],
        required=False,
        label="Clock",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = [game for game in registry.all() if has_board(game.slug)]
        self.fields["game"].choices = [(game.slug, game.name) for game in self.games]
        for seat in EXTRA_SEATS:
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                choices=OPPONENT_CHOICES, required=False, initial="ai", label=f"Seat {seat + 1}"
            )
            self.fields[f"seat_{seat}_username"] = forms.CharField(
                max_length=150, required=False, label=f"Seat {seat + 1}: username"
            )

    def extra_rows(self):
        return [(seat, self[f"seat_{seat}"], self[f"seat_{seat}_username"]) for seat in EXTRA_SEATS]

    def clean(self):
        cleaned = super().clean()
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
