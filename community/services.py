"""The only writers of chat, reports and sanctions (docs/community.md).

A chat line is checked (who may write where, chat switched on, not muted, length, pace),
stored, and pushed after the commit (`community.pushes`), through the match socket's own
groups (games.notifications). Moderators' actions write an audit row each (Django's
LogEntry: who, what, when, why).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction
from django.utils import timezone

from community import pushes, selectors
from community.emotes import EMOTES
from community.errors import ChatRefused, NotAllowed, NotFound, TooFast
from community.models import MESSAGE_MAX, ChatMessage, ChatSetting, Report, Sanction
from games import selectors as games_selectors
from games import services as games_services
from games.errors import MatchError

PACE_LINES = 5  # at most this many lines...
PACE_SECONDS = 10  # ...in this many seconds (the site's write limit comes on top)
NOT_HERE = "This match has no chat you can write in."


def chat_post(*, match_id: int, user: Any, text: str = "", emote: str = "") -> ChatMessage:
    """Store a line from `user` in their room of the match and push it after the commit.
    Raises ChatRefused (and writes nothing) for anything a player could get wrong.

    Locks the sender's user row, so two posts at once are counted against the pace one
    after the other."""
    text = " ".join((text or "").split())
    if emote:
        if emote not in EMOTES:
            raise ChatRefused("That emote does not exist.")
        text = EMOTES[emote]
    elif not text:
        raise ChatRefused("Write a message first: it is empty.")
    elif len(text) > MESSAGE_MAX:
        raise ChatRefused(f"A message is at most {MESSAGE_MAX} characters; yours has {len(text)}.")
    if user is None or not user.is_authenticated:
        raise NotAllowed("Sign in to chat.")
    match = games_selectors.match_get(match_id=match_id)
    room = selectors.room_for(match=match, user=user) if match is not None else None
    if match is None or room is None:
        raise NotFound(NOT_HERE)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _check_may_chat(user_id=user.pk)
        line = ChatMessage.objects.create(
            match=match, room=room, sender=user, text=text, emote=emote if emote else ""
        )
        line_id = line.pk
        transaction.on_commit(lambda: pushes.chat_line_sent(message_id=line_id), robust=True)
    return line


def _check_may_chat(*, user_id: int) -> None:
    if not selectors.is_chat_on(user_id=user_id):
        raise ChatRefused("Your chat is off. Turn it on to talk.")
    mute = selectors.sanction_active(user_id=user_id, kind=Sanction.Kind.MUTE)
    if mute is not None:
        until = timezone.localtime(mute.expires).strftime("%d %b %Y, %H:%M")
        raise NotAllowed(f"You are muted until {until}: {mute.reason}")
    since = timezone.now() - timedelta(seconds=PACE_SECONDS)
    if selectors.recent_count(user_id=user_id, since=since) >= PACE_LINES:
        raise TooFast(
            f"Slow down: at most {PACE_LINES} messages in {PACE_SECONDS} seconds. "
            "Wait a moment, then send it again."
        )


def chat_switch(*, user: Any, is_on: bool) -> ChatSetting:
    """Turn the player's chat on or off (off: they see none and can write none)."""
    setting, _ = ChatSetting.objects.update_or_create(
        user_id=user.pk, defaults={"is_chat_on": is_on}
    )
    return setting


# --- reports ----------------------------------------------------------------------------------

DETAILS_MAX = 1000


def report_file(
    *,
    reporter: Any,
    reason: str,
    details: str = "",
    message_id: int | None = None,
    reported_username: str = "",
) -> Report:
    """A player reports a chat line they could read, or a player by name. One open report
    per reporter and line: filing it again returns the one filed."""
    if reason not in Report.Reason.values:
        raise ChatRefused("Choose a reason for the report.")
    details = (details or "").strip()
    if len(details) > DETAILS_MAX:
        raise ChatRefused(f"Keep the details under {DETAILS_MAX} characters.")
    message = None
    if message_id is not None:
        message = selectors.line_readable(message_id=message_id, user=reporter)
        if message is None:
            raise NotFound("That message is not one you can see.")
        reported_id, match_id = message.sender_id, message.match_id
    else:
        reported = get_user_model().objects.filter(username__iexact=reported_username).first()
        if reported is None:
            raise NotFound("There is no player of that name.")
        reported_id, match_id = reported.pk, None
    if reported_id == reporter.pk:
        raise ChatRefused("You cannot report yourself.")
    if message is not None:
        existing = selectors.reports_open().filter(reporter=reporter, message=message).first()
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=reporter,
                reported_id=reported_id,
                message=message,
                match_id=match_id,
                reason=reason,
                details=details,
            )
    except IntegrityError:  # the same report filed twice at once: the first one stands
        return selectors.reports_open().get(reporter=reporter, message=message)


def report_resolve(*, report: Report, by: Any, note: str = "") -> Report:
    if report.resolved is None:
        report.resolved, report.resolved_by = timezone.now(), by
        report.save(update_fields=["resolved", "resolved_by"])
        audit(by=by, target=report, message=f"Resolved the report. {note}".strip())
    return report


# --- sanctions and removals (the admin's) -----------------------------------------------------


def sanction_impose(
    *, user: Any, kind: str, expires: datetime, reason: str, by: Any, report: Report | None = None
) -> Sanction:
    reason = " ".join((reason or "").split())
    if kind not in Sanction.Kind.values:
        raise ChatRefused("Choose mute or ban.")
    if not reason:
        raise ChatRefused("Give a reason: the player is told it.")
    if expires <= timezone.now():
        raise ChatRefused("The end of a sanction must be in the future.")
    sanction = Sanction.objects.create(
        user=user, kind=kind, expires=expires, reason=reason, created_by=by, report=report
    )
    audit(by=by, target=sanction, message=f"{sanction.get_kind_display()}: {reason}")
    if kind == Sanction.Kind.BAN:
        _ban_ends_tables(sanction=sanction, by=by)
    return sanction


def _ban_ends_tables(*, sanction: Sanction, by: Any) -> None:
    """A ban ends the banned player's matches in the usual way (docs/community.md): each
    running match is forfeited, as a resignation (the others win, or play on where the
    game goes on without the seat; ratings and progression as for any resignation), and
    each table not yet started is called off or declined. Each is its own transaction
    under the match's row lock (games.services); one that ended meanwhile is skipped."""
    user = sanction.user
    running, waiting = selectors.tables_of_banned(user_id=user.pk)
    ended = 0
    for match_id in running:
        try:
            games_services.match_resign(match_id=match_id, user=user)
            ended += 1
        except MatchError:  # finished or left meanwhile: nothing to end
            continue
    for match_id in waiting:
        try:
            games_services.match_cancel(match_id=match_id, user=user)
            ended += 1
        except MatchError:
            continue
    if ended:
        audit(by=by, target=sanction, message=f"The ban ended {ended} of their matches.")


def sanction_lift(*, sanction: Sanction, by: Any) -> Sanction:
    now = timezone.now()
    if sanction.expires > now:
        sanction.expires = now
        sanction.save(update_fields=["expires"])
        audit(by=by, target=sanction, message="Lifted early.")
    return sanction


def message_remove(*, message: ChatMessage, by: Any) -> ChatMessage:
    """Hide a line from every chat panel (kept for the record, shown to moderators)."""
    if message.removed is None:
        message.removed, message.removed_by = timezone.now(), by
        message.save(update_fields=["removed", "removed_by"])
        audit(by=by, target=message, message="Removed the message.")
        line_id = message.pk
        transaction.on_commit(lambda: pushes.chat_line_removed(message_id=line_id), robust=True)
    return message


def audit(*, by: Any, target: Any, message: str) -> LogEntry:
    """An audit row in Django admin's log: who (by), what (target, message), when."""
    return LogEntry.objects.create(
        user_id=by.pk,
        content_type_id=ContentType.objects.get_for_model(target).pk,
        object_id=str(target.pk),
        object_repr=str(target)[:200],
        action_flag=CHANGE,
        change_message=message[:2000],
    )
