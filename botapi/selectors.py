"""Reads of the Bot API: tokens, bot accounts, and a seat's whole view of a match.

Nothing here writes. `seat_snapshot` is the one thing a match stream and `GET
/api/v1/matches/{id}` send: built from the engine's `view` for the caller's own seat (a
spectator's view for anyone else), never from the state itself.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.core.cache import cache

from botapi.models import ApiToken, BotAccount
from games import selectors as game_selectors
from games.engine import registry
from games.models import Match
from games.replay import match_position

BOT_IDS_KEY = "botapi:bot-ids"  # the ids of every bot account (they are few), cached
BOT_IDS_SECONDS = 600
MEMO_SECONDS = 5.0  # another process sees an account turn bot this much later at most
_memo: tuple[float, frozenset[int]] | None = None


def token_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def token_find(*, text: str) -> ApiToken | None:
    """The active token whose text is `text` (looked up by its digest), with its user."""
    if not text or len(text) > 200:
        return None
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(text), revoked__isnull=True, user__is_active=True)
        .first()
    )


def tokens_of(*, user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def bot_ids() -> frozenset[int]:
    """Every bot account's user id: one cached value, one query when it is cold. Each
    process also holds it for MEMO_SECONDS: a board names its players' badges on every
    render (four reads of Redis a move, measured), and an account rarely turns bot."""
    global _memo
    now = time.monotonic()
    held = _memo
    if held is not None and now - held[0] < MEMO_SECONDS:
        return held[1]
    cached = cache.get(BOT_IDS_KEY)
    if cached is None:
        cached = frozenset(BotAccount.objects.values_list("user_id", flat=True))
        cache.set(BOT_IDS_KEY, cached, BOT_IDS_SECONDS)
    ids = frozenset(cached)
    _memo = (now, ids)
    return ids


def bot_ids_forget() -> None:
    """Drop this process's copy (an account turned bot or back, here; tests)."""
    global _memo
    _memo = None


def is_bot(*, user: Any) -> bool:
    user_id = getattr(user, "pk", user)
    return user_id is not None and user_id in bot_ids()


def bot_account_of(*, user: Any) -> BotAccount | None:
    return BotAccount.objects.filter(user=user).first()


def seat_snapshot(*, match: Match, user: Any) -> dict[str, Any]:
    """The caller's whole view of the match: the engine's `view` for their own seat, their
    legal moves when they are to act, the ply, the clocks and who is to act."""
    return seat_snapshot_for(match=match, index=viewer_seat(match=match, user=user))


def viewer_seat(*, match: Match, user: Any) -> int | None:
    """The index of the caller's joined seat; None for anyone else (a spectator's view)."""
    seat = game_selectors.seat_of(match=match, user=user)
    return seat.index if seat is not None and seat.joined is not None else None


def match_version(*, match_id: int) -> tuple[str, bool] | None:
    """A match's board version (games.selectors.board_version) and whether it is over, in
    one small query: the streams' check for a change before they read the whole view."""
    row = Match.objects.filter(pk=match_id).values_list("ply", "updated", "status").first()
    if row is None:
        return None
    ply, updated, status = row
    return f"{ply}.{int(updated.timestamp() * 1000)}", status in (
        Match.Status.FINISHED,
        Match.Status.CANCELLED,
    )


def seat_snapshot_for(*, match: Match, index: int | None) -> dict[str, Any]:
    """`seat_snapshot` of the joined seat `index` (None: a spectator's view). Everything in
    it follows from the seat alone, so streams of one seat share one read."""
    game = registry.get(match.game)
    is_started = match.status != Match.Status.WAITING
    state = match_position(match=match).state if is_started else None
    is_my_turn = (
        match.status == Match.Status.ACTIVE and index is not None and index in match.seats_to_act
    )
    view = game.view(state, index) if state is not None else None
    return {
        "type": "match",
        "match": match_summary(match=match),
        "seat": index,
        "ply": match.ply,
        "to_act": list(match.seats_to_act),
        "is_my_turn": is_my_turn,
        "view": game_selectors.with_recorded_outcome(view, match) if view is not None else None,
        "legal_moves": game.legal_moves(state, index) if is_my_turn and index is not None else [],
        "clocks": [_clock(clock) for clock in game_selectors.clocks(match=match)],
    }


def _clock(clock: Any) -> dict[str, Any]:
    return {
        "seat": clock.seat,
        "is_running": clock.is_running,
        "seconds_left": clock.seconds_left,
        "bank_seconds": clock.bank_seconds,
        "deadline": clock.deadline.isoformat() if clock.deadline else None,
    }


def match_summary(*, match: Match) -> dict[str, Any]:
    """A match as the API lists it: no seed, no options beyond what the lobby shows."""
    game_selectors.players_load(match=match)
    bots = bot_ids()
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "ply": match.ply,
        "is_casual": match.is_casual,
        "seed_commitment": match.seed_commitment,
        "seats": [
            {
                "index": seat.index,
                "kind": "ai" if seat.is_ai else ("open" if seat.user_id is None else "player"),
                "name": seat.label,
                "username": seat.user.get_username() if seat.user is not None else None,
                "ai_level": seat.ai_level or None,
                "joined": seat.joined is not None,
                "is_bot": seat.user_id in bots,
            }
            for seat in match.seats.all()
        ],
        "outcome": match.outcome or None,
    }


# What the events stream remembers of each of the account's matches between two reads:
# (status, ply, is invited, is my turn).
Seen = dict[int, tuple[str, int, bool, bool]]


def account_events(*, seen: Seen, user: Any) -> tuple[list[dict[str, Any]], Seen]:
    """The account's events since `seen` (invitations, matches started, turns, matches
    ended or called off) and what is seen now. With `seen` empty: every open invitation,
    every match in play, and each turn that is the account's now."""
    open_statuses = [Match.Status.WAITING, Match.Status.ACTIVE]
    matches = Match.objects.filter(seats__user=user, status__in=open_statuses).distinct()
    now: Seen = {}
    found: list[dict[str, Any]] = []
    for match in matches.prefetch_related("seats"):
        seat = game_selectors.seat_of(match=match, user=user)
        if seat is None:
            continue
        is_active = match.status == Match.Status.ACTIVE
        state = (
            match.status,
            match.ply,
            match.status == Match.Status.WAITING and seat.joined is None,
            is_active and seat.index in match.seats_to_act,
        )
        now[match.pk] = state
        before = seen.get(match.pk)
        if before == state:
            continue
        if state[2] and (before is None or not before[2]):
            found.append(_event("invitation", match))
        if is_active and (before is None or before[0] != Match.Status.ACTIVE):
            found.append(_event("match_started", match))
        if state[3] and (before is None or not before[3] or before[1] != match.ply):
            found.append(_event("your_turn", match))
    gone = [match_id for match_id in seen if match_id not in now]
    for match in Match.objects.filter(pk__in=gone).prefetch_related("seats"):
        kind = "match_ended" if match.status == Match.Status.FINISHED else "match_cancelled"
        found.append(_event(kind, match))
    return found, now


def _event(kind: str, match: Match) -> dict[str, Any]:
    return {"type": kind, "match": match_summary(match=match)}


BOT_NOT_IN_RATED_POOLS = (
    "This account is a bot: it joins rated quick pairing only when its owner lets it "
    "(API tokens page). Casual quick pairing is open to it."
)


def bot_pool_refusal(*, user: Any, is_rated: bool) -> str | None:
    """games.services.pairing's check: a bot stays out of rated pools unless opted in."""
    if not is_rated or not is_bot(user=user):
        return None
    account = bot_account_of(user=user)
    return None if account is not None and account.joins_rated_pools else BOT_NOT_IN_RATED_POOLS
