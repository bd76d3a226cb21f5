from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Profile(models.Model):
    """What a player shows of themselves. Created with the account (accounts.services)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Vacation (accounts.services): while it lasts, the clocks of my timed matches wait.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)  # the year days_used counts
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # Sound (static/js/sound.js): one volume, 0-100, and a mute that keeps it for unmuting.
    sound_volume = models.PositiveSmallIntegerField(default=60)
    sound_muted = models.BooleanField(default=False)

    class Meta:
        constraints = [
            # Two players may not race each other to the same name (services check first).
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="profile_unique_display_name",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()
