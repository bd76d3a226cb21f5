"""Auth policy: the one place that decides how accounts are created and named.

allauth calls this adapter (settings.ACCOUNT_ADAPTER) for every signup, login and
username check; the profile writes it triggers go through accounts.services.
"""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpRequest

from accounts.models import Profile
from accounts.services import profile_ensure


class AccountAdapter(DefaultAccountAdapter):
    def save_user(
        self,
        request: HttpRequest,
        user: AbstractBaseUser,
        form: BaseForm,
        commit: bool = True,
    ) -> AbstractBaseUser:
        """Save the new user and, in the same transaction, their profile: every user has one."""
        if not commit:
            return super().save_user(request, user, form, commit=False)
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=True)
            profile_ensure(user=user)
        return user

    def clean_username(self, username: str, shallow: bool = False) -> str:
        """allauth's checks, and no username may pass for someone else's display name."""
        username = super().clean_username(username, shallow=shallow)
        if not shallow and Profile.objects.filter(display_name__iexact=username).exists():
            raise ValidationError("This username is already in use as a player's name.")
        return username
