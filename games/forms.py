from django import forms

from games.boards import has_board
from games.engine import registry
from games.services import AI_LEVELS

OPPONENT_CHOICES = [
    ("ai", "The AI"),
    ("player", "A player I name"),
    ("open", "Anyone (an open seat)"),
]


class NewMatchForm(forms.Form):
    game = forms.ChoiceField(choices=())
    opponent = forms.ChoiceField(choices=OPPONENT_CHOICES, widget=forms.RadioSelect, initial="ai")
    username = forms.CharField(max_length=150, required=False, label="Player's username")
    ai_level = forms.ChoiceField(
        choices=[(level, label) for level, label in AI_LEVELS.items()],
        initial="random",
        label="AI level",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [
            (game.slug, game.name) for game in registry.all() if has_board(game.slug)
        ]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("opponent") == "player" and not cleaned.get("username", "").strip():
            self.add_error("username", "Type the username of the player you want to invite.")
        return cleaned
