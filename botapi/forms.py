from django import forms

from botapi.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, label="Name", help_text="What the token is for.")
    scopes = forms.MultipleChoiceField(
        choices=ApiToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[ApiToken.Scope.PLAY, ApiToken.Scope.READ],
        label="Scopes",
    )


class BotForm(forms.Form):
    is_bot = forms.BooleanField(required=False, label="This account is a bot")
    joins_rated_pools = forms.BooleanField(
        required=False, label="Let it join rated quick pairing with people"
    )
