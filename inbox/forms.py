from django import forms

from inbox.models import CENTRE_KINDS, EMAILED_KINDS, Notification, NotificationSettings

EMAIL_LABELS = {
    "turn": "Your turn",
    "late": "Running late (80% of your time used)",
    "invite": "Invitations",
    "rematch": "Rematch offers",
}


class SettingsForm(forms.Form):
    """The channels of my notifications. Checkboxes: unticked means off."""

    in_app = forms.BooleanField(
        required=False,
        label="In the notification centre",
        help_text="The bell in the header, with live updates.",
    )
    centre_kinds = forms.MultipleChoiceField(
        required=False,
        label="Show in the notification centre",
        choices=[(kind, Notification.Kind(kind).label) for kind in CENTRE_KINDS],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Pick what the notification centre shows from the list."},
    )
    email = forms.BooleanField(
        required=False,
        label="By email",
        help_text="Only what you tick below.",
    )
    push = forms.BooleanField(
        required=False,
        label="Push to my devices",
        help_text="A notification on your phone or computer, even with Cardhall closed: only"
        " what you tick below, on the devices you turned it on for.",
    )
    email_kinds = forms.MultipleChoiceField(
        required=False,
        label="Email and push me about",
        choices=[(kind, EMAIL_LABELS[kind]) for kind in EMAILED_KINDS],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Pick what to email from the list."},
    )
    digest = forms.BooleanField(
        required=False,
        label="Daily digest by email",
        help_text="Once a day, the matches waiting for your move (only when there are some).",
    )
    digest_hour = forms.TypedChoiceField(
        label="Send the digest at",
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
        error_messages={"invalid_choice": "Pick an hour of the day from the list (0 to 23)."},
    )

    def __init__(self, *args, push_ready: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not push_ready:  # no VAPID keys: push is off, whatever is posted
            self.fields["push"].disabled = True

    @classmethod
    def for_settings(
        cls, prefs: NotificationSettings, *, push_ready: bool = True
    ) -> "SettingsForm":
        return cls(
            push_ready=push_ready,
            initial={
                "in_app": prefs.in_app,
                "centre_kinds": prefs.centre_kinds,
                "email": prefs.email,
                "email_kinds": prefs.email_kinds,
                "push": prefs.push,
                "digest": prefs.digest,
                "digest_hour": prefs.digest_hour,
            },
        )
