from django import forms

from accounts.services import DISPLAY_NAME_MAX_LENGTH


class ProfileForm(forms.Form):
    """Parses the profile edit; the rules live in accounts.services.profile_update."""

    display_name = forms.CharField(
        label="Display name",
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text="How other players see you: 1–40 characters, not someone else's name.",
        error_messages={
            "required": "Enter a display name.",
            "max_length": "Keep your display name to %(limit_value)d characters or fewer "
            "(it has %(show_value)d).",
        },
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
