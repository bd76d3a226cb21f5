"""Writes of the Bot API: tokens (made, used, revoked) and marking an account as a bot.

A token's text is made here, shown once by the page that asked for it, and stored only as
its SHA-256 digest. Matches are never written here: the API calls games.services, as the
web pages do.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from botapi import selectors
from botapi.errors import ApiError
from botapi.models import ApiToken, BotAccount, TokenMatch
from games import services as games

TOKEN_PREFIX = "chb_"
MAX_TOKENS = 20  # active tokens per account
LAST_USED_EVERY = timedelta(minutes=1)  # `last_used` is written at most this often


def token_create(*, user: Any, name: str, scopes: Iterable[str]) -> tuple[ApiToken, str]:
    """A new token for `user`: the row and the token's text (to be shown once, never kept)."""
    name = (name or "").strip()
    if not name or len(name) > 60:
        raise ApiError("Give the token a name of 1 to 60 characters.", field="name")
    chosen = sorted(set(scopes))
    if not chosen or any(scope not in ApiToken.Scope.values for scope in chosen):
        raise ApiError("Choose the token's scopes: play, read or both.", field="scopes")
    with transaction.atomic():
        active = ApiToken.objects.select_for_update().filter(user=user, revoked__isnull=True)
        if len(active) >= MAX_TOKENS:
            raise ApiError(f"You have {MAX_TOKENS} tokens already: revoke one first.")
        text = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name,
            scopes=chosen,
            digest=selectors.token_digest(text),
            prefix=text[:10],
        )
    return token, text


def token_revoke(*, user: Any, token_id: int) -> ApiToken:
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
        if token is None:
            raise ApiError("You have no such token.")
        if token.revoked is None:
            token.revoked = timezone.now()
            token.save(update_fields=["revoked"])
    return token


def token_used(*, token: ApiToken) -> None:
    """Note that `token` was used (at most once a minute: a bot's every call is not a write)."""
    now = timezone.now()
    if token.last_used is not None and now - token.last_used < LAST_USED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    token.last_used = now


def _bot_ids_forget_everywhere() -> None:
    cache.delete(selectors.BOT_IDS_KEY)
    selectors.bot_ids_forget()


def bot_set(*, user: Any, is_bot: bool, joins_rated_pools: bool = False) -> BotAccount | None:
    """Mark `user` as a bot (or not). A bot joins rated quick pairing only if
    `joins_rated_pools`."""
    with transaction.atomic():
        if not is_bot:
            BotAccount.objects.filter(user=user).delete()
            account = None
        else:
            account, _ = BotAccount.objects.update_or_create(
                user=user, defaults={"joins_rated_pools": joins_rated_pools}
            )
        cache.delete(selectors.BOT_IDS_KEY)
        selectors.bot_ids_forget()
        # and again once committed: a read in between may have cached the old list
        transaction.on_commit(_bot_ids_forget_everywhere)
    return account


def match_open(*, token: ApiToken, **table: Any) -> Any:
    """games.services.match_create for the token's account, the match recorded as the
    token's (its per-token cap), in one transaction."""
    with transaction.atomic():
        match = games.match_create(creator=token.user, **table)
        TokenMatch.objects.create(token=token, match=match)
    return match


def match_take_seat(*, token: ApiToken, match_id: int, seat_options: Any) -> Any:
    """games.services.match_join for the token's account, recorded as the token's."""
    with transaction.atomic():
        match = games.match_join(match_id=match_id, user=token.user, seat_options=seat_options)
        TokenMatch.objects.get_or_create(token=token, match=match)
    return match
