"""The Bot API's streams (`application/x-ndjson`): async views served under ASGI (uvicorn).

- `GET /api/v1/matches/{id}/stream`: first the caller's whole view of the match
  (`selectors.seat_snapshot`: the engine's own `view` for their seat, legal moves, ply,
  clocks, who is to act), then the same again after every change, until the match ends.
- `GET /api/v1/stream/events`: the account's invitations, matches started, turns and
  results (`selectors.account_events`).

Both are woken by the channel layer's existing groups (the seat's group of
games.notifications, the user's group of inbox.push): a push is only a signal, the line
sent is always re-read from the database through the selectors, so a stream never carries
more than the seat's own view. The match streams of one (match, seat) in a process share
one reader (botapi.feeds: one read and one encoded line per change, however many streams
follow it). A match stream marks the seat present (games.presence), so the pushes are sent
to it as to an open page. Every KEEPALIVE seconds without a change an empty line keeps the
connection open; the state is re-read anyway now and then (the events stream at each
keep-alive, a match feed every RESYNC seconds): a lost push delays a line, never loses it.
Neither holds a database connection between two reads: each read returns its connection
(close_old_connections), and the ASGI cap on concurrent requests (web.asgi) does not
count the streams (they are bounded by the account's open-stream limit instead).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from botapi import feeds, limits, selectors
from botapi.errors import ApiError, NotFound, ScopeMissing, TokenRefused
from botapi.models import ApiToken
from config.channel_layer import ChannelLayerUnavailable
from games import presence
from games import selectors as game_selectors
from games.notifications import group_for_seat, group_for_spectators
from inbox.push import group_for_user

logger = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
# How often an open match stream refreshes its entries (its count against the account's
# limit, its presence), well within their lifetimes (limits.STREAM_TTL, PRESENCE_TTL).
TOUCH_SECONDS = 30.0


def keepalive_seconds() -> float:
    return float(getattr(settings, "BOTAPI_STREAM_KEEPALIVE", 5.0))


def _problem(error: ApiError) -> JsonResponse:
    response = JsonResponse(
        {"status": error.status, "message": error.message, "field": error.field},
        status=error.status,
    )
    if error.status == 401:
        response["WWW-Authenticate"] = "Bearer"
    retry_after = getattr(error, "retry_after", None)  # TooMany's
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def _token_of(request: HttpRequest) -> ApiToken:
    """The request's token, holding the read scope; refusals as ApiError."""
    header = request.headers.get("Authorization", "")
    scheme, _, text = header.partition(" ")
    token = selectors.token_find(text=text.strip()) if scheme.lower() == "bearer" else None
    if token is None:
        raise TokenRefused("Send a valid API token: Authorization: Bearer <token>.")
    if not token.has_scope(ApiToken.Scope.READ):
        raise ScopeMissing("This token has no “read” scope: make one that has.")
    return token


_line = feeds.line


async def _follow(
    groups: list[str],
    read: Callable[[], tuple[bool, list[Any]]],
    *,
    on_tick: Callable[[str], None],
    on_close: Callable[[str], None],
) -> AsyncIterator[bytes]:
    """Lines from `read` (whether the stream is over, and the documents to send: none when
    nothing changed), first at once, then on each push to `groups` or keep-alive tick; an
    empty line when there is nothing to send. The stream ends (the client reconnects) if its
    process loses the channel layer's listening connection."""
    pushes = feeds.Pushes(groups)
    try:
        await pushes.subscribe()
        while True:
            await sync_to_async(on_tick)(pushes.channel)
            is_over, documents = await sync_to_async(_read_closing(read))()
            for document in documents:
                yield _line(document)
            if not documents:
                yield b"\n"
            if is_over:
                return
            await pushes.wait(keepalive_seconds())
    except ChannelLayerUnavailable as error:
        logger.warning("a Bot API stream ends: %s", error)
    finally:
        await pushes.close()
        with contextlib.suppress(Exception):
            await sync_to_async(on_close)(pushes.channel)


def _read_closing(read: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        close_old_connections()
        try:
            return read()
        finally:
            close_old_connections()

    return run


# --- a match ---------------------------------------------------------------------------------


def _match_start(token: ApiToken, match_id: int) -> tuple[list[str], int | None]:
    match = game_selectors.match_get(match_id=match_id)
    if match is None or not game_selectors.can_view(match=match, user=token.user):
        raise NotFound("There is no such match.")
    seat = game_selectors.seat_of(match=match, user=token.user)
    index = seat.index if seat is not None and seat.joined is not None else None
    if seat is not None:
        return [group_for_seat(match_id, seat.index)], index
    return [group_for_spectators(match_id)], None


@require_GET
async def match_stream(request: HttpRequest, match_id: int) -> HttpResponseBase:
    try:
        token = await sync_to_async(_token_of)(request)
        groups, seat = await sync_to_async(_match_start)(token, match_id)
        opened = await sync_to_async(limits.stream_open)(token=token)
    except ApiError as error:
        return _problem(error)
    # The connection the checks used goes back now, not when the stream ends.
    await sync_to_async(close_old_connections)()
    user = token.user
    (group,) = groups
    if seat is None and group != group_for_spectators(match_id):
        # Invited, not joined yet: the view follows the account (it may join meanwhile).
        key: tuple[Any, ...] = (match_id, group, "user", user.pk)
        read = _match_reader(
            match_id, lambda match: selectors.seat_snapshot(match=match, user=user)
        )
    else:
        key = (match_id, group, seat)
        read = _match_reader(
            match_id, lambda match: selectors.seat_snapshot_for(match=match, index=seat)
        )
    present_as = user.pk if seat is not None else None  # a spectator counts as one
    feed = feeds.feed_for(key, group, read)
    return _streaming(_from_feed(feed, feed.join(), opened, present_as, match_id))


def _match_reader(match_id: int, snapshot: Callable[[Any], Any]) -> feeds.Read:
    def read(known: str | None) -> tuple[str | None, bool, Any]:
        found = selectors.match_version(match_id=match_id)
        if found is None:
            return known, True, None
        version, is_over = found
        if version == known:
            return known, is_over, None
        match = game_selectors.match_get(match_id=match_id)
        if match is None:
            return known, True, None
        return game_selectors.board_version(match=match), match.is_finished, snapshot(match)

    return read


async def _from_feed(
    feed: feeds.Feed,
    queue: asyncio.Queue[bytes | None],
    opened: str,
    present_as: int | None,
    match_id: int,
) -> AsyncIterator[bytes]:
    """The feed's lines, an empty line after KEEPALIVE seconds without one; the stream's
    entries (its limit's count, its presence) refreshed every TOUCH_SECONDS."""
    me = presence.stream_channel(f"botapi.{opened}")  # present, but shows no board

    def touch() -> None:
        limits.stream_alive(stream=opened)
        presence.presence_touch(user_id=present_as, match_id=match_id, channel=me)

    def close() -> None:
        limits.stream_closed(stream=opened)
        presence.presence_leave(user_id=present_as, match_id=match_id, channel=me)

    loop = asyncio.get_running_loop()
    touched = float("-inf")
    try:
        while True:
            if loop.time() - touched >= TOUCH_SECONDS:
                touched = loop.time()
                await sync_to_async(touch, thread_sensitive=False)()
            try:
                async with asyncio.timeout(keepalive_seconds()):
                    item = await queue.get()
            except TimeoutError:
                yield b"\n"
                continue
            if item is None:
                return
            yield item
    finally:
        feed.leave(queue)
        with contextlib.suppress(Exception):
            await sync_to_async(close, thread_sensitive=False)()


def _streaming(lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=NDJSON)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


# --- the account's events --------------------------------------------------------------------


@require_GET
async def events(request: HttpRequest) -> HttpResponseBase:
    try:
        token = await sync_to_async(_token_of)(request)
        opened = await sync_to_async(limits.stream_open)(token=token)
    except ApiError as error:
        return _problem(error)
    user = token.user
    seen: selectors.Seen = {}

    def read() -> tuple[bool, list[Any]]:
        found, now = selectors.account_events(user=user, seen=seen)
        seen.clear()
        seen.update(now)
        return False, found

    def touch(channel: str) -> None:
        limits.stream_alive(stream=opened)

    def close(channel: str) -> None:
        limits.stream_closed(stream=opened)

    return _streaming(_follow([group_for_user(user.pk)], read, on_tick=touch, on_close=close))
