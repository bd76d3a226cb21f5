"""The challenge form: the lobby's own form (games.forms.NewMatchForm, with its rule
options from games.rule_options) for a table of two whose other seat is the challenged
player, so only the game, its options, the clock and rated or casual are asked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms

from games.forms import EXTRA_SEATS, NewMatchForm

NOT_ASKED = ("players", "opponent", "username", "ai_level", "is_private")


class ChallengeForm(NewMatchForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in NOT_ASKED:
            del self.fields[name]
        for seat in EXTRA_SEATS:
            del self.fields[f"seat_{seat}"], self.fields[f"seat_{seat}_username"]
        # Games two people can play with a board (BaniraCards is played alone).
        self.games = [game for game in self.games if game.min_seats <= 2 <= game.max_seats]
        # Both are ChoiceFields (NewMatchForm); `fields` holds them as plain Fields, and the
        # stubs type what `choices` answers as what it accepts (it answers a list of pairs).
        cast(forms.ChoiceField, self.fields["game"]).choices = [
            (game.slug, game.name) for game in self.games
        ]
        clocks = cast(forms.ChoiceField, self.fields["time_control"])
        offered = list(cast(Iterable[tuple[str, str]], clocks.choices))
        clocks.choices = [("", "Pick for me (a day per move)"), *offered[1:]]
        slugs = {game.slug for game in self.games}
        self.rule_fields = [(slug, rule) for slug, rule in self.rule_fields if slug in slugs]

    def clean(self) -> dict[str, Any]:
        self.cleaned_data["players"] = 2
        return super().clean()

    def is_rated(self) -> bool:
        return not self.is_casual()
