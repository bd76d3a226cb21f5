"""Every write of the notification centre: notifications, reminders, emails, settings.

One rule keeps everything at most once: a notification is created with get_or_create on
its unique (user, key), and only the call that created it delivers it (a live push, and
an email task) after the commit. The email itself is claimed with a conditional update of
`emailed_at` before it is sent, so a task delivered twice sends one email.

What is sent (see docs/notifications.md): your turn · running late (80% of the time used)
· invited to a match · a rematch offered · a pause asked for · a match finished · the
daily digest. Reminders skip a player who has the match open right now (games.presence).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings as django_settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil

from config.celery_app import task_send
from config.compiled import CompiledUpdate
from games import presence
from games.models import Match, Seat
from games.selectors import is_against_ai_only, is_solo
from inbox import centre, selectors, webpush
from inbox.errors import BadSettings, PushUnavailable
from inbox.models import (
    CENTRE_KINDS,
    EMAILED_KINDS,
    PUSHED_KINDS,
    Notification,
    NotificationSettings,
    PushSubscription,
)
from progression.selectors import time_zones_of

logger = logging.getLogger(__name__)

Kind = Notification.Kind
EMAIL_KINDS = frozenset(EMAILED_KINDS)  # your turn, running late, invitation, rematch
PUSH_KINDS = frozenset(PUSHED_KINDS)  # the same: chosen with the same per-kind list
URGENT_KINDS = frozenset({"turn", "late"})  # pushed with Urgency: high
LATE_SHARE = 0.8  # the "running late" reminder, at this share of the turn's time used
TURN_CATCH_UP = dt.timedelta(hours=1)  # the beat sends "your turn" missed this recently
AUTOPLAY_GRACE = dt.timedelta(minutes=1)  # auto-play seats: only once the server did not move
KEEP_FOR = dt.timedelta(days=90)  # notifications older than this go, once their match is over


# --- settings --------------------------------------------------------------------------------


def settings_get(*, user: Any) -> NotificationSettings:
    """A player's channels, created with the defaults the first time they are needed."""
    prefs, _ = NotificationSettings.objects.get_or_create(user=user)
    return prefs


def settings_update(
    *,
    user: Any,
    in_app: Any,
    email: Any,
    digest: Any,
    digest_hour: Any,
    email_kinds: Any = None,
    push: Any = None,
    centre_kinds: Any = None,
) -> Any:
    """Switch channels (and the kinds sent by email and push, and shown in the centre) on or
    off; a bad value changes nothing and says why. `email_kinds`, `push` or `centre_kinds`
    None keeps what was chosen before."""
    try:
        hour = int(digest_hour)
    except (TypeError, ValueError):
        raise BadSettings("Give the digest hour as a whole number from 0 to 23.") from None
    if not 0 <= hour <= 23:
        raise BadSettings("The digest hour is from 0 to 23.")
    flags = {"in_app": in_app, "email": email, "digest": digest}
    if push is not None:
        flags["push"] = push
    if not all(isinstance(value, bool) for value in flags.values()):
        raise BadSettings("Each channel is either on or off.")
    if email_kinds is not None:
        if isinstance(email_kinds, str) or not set(email_kinds) <= EMAIL_KINDS:
            raise BadSettings("Pick what to email from the list: your turn, running late, …")
        email_kinds = [kind for kind in EMAILED_KINDS if kind in email_kinds]
    if centre_kinds is not None:
        if isinstance(centre_kinds, str) or not set(centre_kinds) <= set(CENTRE_KINDS):
            raise BadSettings("Pick what the notification centre shows from the list.")
        centre_kinds = [kind for kind in CENTRE_KINDS if kind in centre_kinds]
    with transaction.atomic():
        prefs = settings_get(user=user)
        prefs.in_app, prefs.email, prefs.digest, prefs.digest_hour = in_app, email, digest, hour
        if email_kinds is not None:
            prefs.email_kinds = email_kinds
        if centre_kinds is not None:
            prefs.centre_kinds = centre_kinds
        if push is not None:
            prefs.push = push
        prefs.save()
    return prefs


# --- creating and delivering -----------------------------------------------------------------


def notification_send(
    *,
    user: Any,
    kind: str,
    key: str,
    text: str,
    match: Match | None = None,
    url: str = "",
    is_present: bool = False,
    may_email: bool = True,
) -> Notification | None:
    """Create the notification for (user, key) once and deliver it after the commit.

    Returns the new notification, or None when that key was already sent. A player who is
    looking at the match (`is_present`) gets it recorded only: nothing shown, nothing sent.
    The centre shows it when it is on and the kind is one the player ticked for it. Email
    and Web Push are decided alike: the channel is on, the kind is one the player
    ticked, they are not looking, and `may_email` (false against the AI only) holds.
    """
    prefs = settings_get(user=user)
    in_app = prefs.in_app and kind in prefs.centre_kinds and not is_present
    by_push = (
        prefs.push
        and may_email
        and kind in PUSH_KINDS
        and kind in prefs.email_kinds
        and not is_present
        and webpush.is_configured()
    )
    by_email = (
        prefs.email
        and may_email
        and kind in EMAIL_KINDS
        and kind in prefs.email_kinds
        and not is_present
        and bool(user.email)
    )
    url = url or (match.get_absolute_url() if match is not None else "")
    with transaction.atomic():
        notification, created = Notification.objects.get_or_create(
            user=user,
            key=key,
            defaults={
                "kind": kind,
                "text": text[:200],
                "match": match,
                "url": url,
                "in_app": in_app,
                "by_email": by_email,
                "by_push": by_push,
                "read_at": None if in_app else timezone.now(),
            },
        )
        if not created:
            return None
        transaction.on_commit(lambda: _deliver(notification), robust=True)
    return notification


def _deliver(notification: Notification) -> None:
    from inbox import push

    if notification.in_app:
        push.notification_pushed(notification=notification)
    if notification.by_email:
        task_send("inbox.tasks.email_notification", notification.pk)
    if notification.by_push:
        task_send("inbox.tasks.push_notification", notification.pk)


def notification_email(*, notification_id: int, now: dt.datetime | None = None) -> bool:
    """Send the email of a notification once: claimed, then sent; a failure unclaims it."""
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        pk=notification_id, by_email=True, emailed_at__isnull=True
    ).update(emailed_at=now)
    if not claimed:
        return False
    notification = Notification.objects.select_related("user", "match").get(pk=notification_id)
    try:
        _email_send(
            user=notification.user,
            subject=notification.text,
            template="inbox/email/notification",
            context={"notification": notification, "link": _absolute(notification.url)},
        )
    except Exception:
        Notification.objects.filter(pk=notification_id).update(emailed_at=None)
        raise
    return True


def notification_push(*, notification_id: int, now: dt.datetime | None = None) -> int:
    """Push a notification to each device of its player, once: claimed first (a task
    delivered twice pushes nothing the second time), never unclaimed (a device that got it
    must not get it twice; a push is a hint, the notification centre keeps the record).
    A device whose push service answers 404 or 410 is forgotten. Returns how many devices
    the push service accepted it for."""
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        pk=notification_id, by_push=True, pushed_at__isnull=True
    ).update(pushed_at=now)
    if not claimed or not webpush.is_configured():
        return 0
    notification = Notification.objects.select_related("match").get(pk=notification_id)
    match = notification.match
    data = webpush.payload(
        match_id=match.pk if match is not None else None,
        game=match.game_name if match is not None else "Cardhall",
        text=notification.text,
    )
    urgency = "high" if notification.kind in URGENT_KINDS else "normal"
    delivered = 0
    for device in PushSubscription.objects.filter(user_id=notification.user_id):
        subscription = webpush.Subscription(device.endpoint, device.p256dh, device.auth)
        try:
            webpush.send(subscription=subscription, data=data, urgency=urgency)
        except webpush.PushGone:
            PushSubscription.objects.filter(pk=device.pk).delete()
            logger.info("push subscription %s gone: removed", device.pk)
        except webpush.PushFailed as error:
            logger.warning("push to subscription %s failed: %s", device.pk, error)
        else:
            PushSubscription.objects.filter(pk=device.pk).update(last_sent=now)
            delivered += 1
    return delivered


def push_subscribe(*, user: Any, subscription: webpush.Subscription, device: str = "") -> Any:
    """Remember this browser for the player's pushes (checked by webpush.subscription_read),
    and switch push on: subscribing on the settings page is the opt-in. The endpoint names
    the browser: one someone else subscribed before moves to this player."""
    if not webpush.is_configured():
        raise PushUnavailable("Push notifications are not set up on this server.")
    with transaction.atomic():
        stored, _ = PushSubscription.objects.update_or_create(
            endpoint=subscription.endpoint,
            defaults={
                "user": user,
                "p256dh": subscription.p256dh,
                "auth": subscription.auth,
                "device": device[:120],
            },
        )
        prefs = settings_get(user=user)
        if not prefs.push:
            prefs.push = True
            prefs.save(update_fields=["push"])
    return stored


def push_unsubscribe(*, user: Any, endpoint: str) -> int:
    """Forget one of my browsers (the settings page's "turn off on this device")."""
    deleted, _by_model = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def _absolute(url: str) -> str:
    return url if url.startswith(("http://", "https://")) else django_settings.SITE_URL + url


def _email_send(*, user: Any, subject: str, template: str, context: dict[str, Any]) -> None:
    context = {
        **context,
        "user": user,
        "settings_link": _absolute(reverse("inbox:settings")),
        "site_url": django_settings.SITE_URL,
    }
    message = EmailMultiAlternatives(
        subject=f"Cardhall · {subject}",
        body=render_to_string(f"{template}.txt", context),
        to=[user.email],
        headers={"List-Unsubscribe": f"<{context['settings_link']}>"},
    )
    message.attach_alternative(render_to_string(f"{template}.html", context), "text/html")
    message.send()


def notifications_mark_read(
    *,
    user: Any,
    notification_id: int | None = None,
    notification: Notification | None = None,
    now: dt.datetime | None = None,
) -> int:
    """Mark my notifications read: one (by id), or one with every other notice of its match
    (`notification`: the list shows one row per match, so reading it reads them all), or
    all of them; returns how many."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification is not None and notification.match_id is not None:
        unread = unread.filter(match_id=notification.match_id)
    elif notification is not None:
        unread = unread.filter(pk=notification.pk)
    elif notification_id is not None:
        unread = unread.filter(pk=notification_id)
    return unread.update(read_at=now or timezone.now())


def turn_ended(*, match: Match, seat: Seat, ended: dt.datetime) -> None:
    """`seat`'s turn ended at `ended` (games.effects' "turn_ended" hook, registered in
    `InboxConfig.ready`, run once that is committed): its player's turn notices for the
    match until then are no longer news."""
    if seat.user_id is not None:
        turn_notifications_settle(user_id=seat.user_id, match_id=match.pk, until=ended)


def turn_notifications_settle(
    *, user_id: int, match_id: int, until: dt.datetime | None = None
) -> int:
    """My turn in that match is over: its "your turn" and "running late" notices (those
    made `until` then, or until now: not those of a turn begun since) are no longer news,
    so they stop counting as unread. Runs after every move: its SQL is compiled once."""
    now = timezone.now()
    return _TURN_NOTICES_SETTLE(user_id, match_id, until or now, now)


_TURN_NOTICES_SETTLE = CompiledUpdate(
    lambda user_id, match_id, until, now: (
        Notification.objects.filter(
            user_id=user_id,
            match_id=match_id,
            kind__in=[Notification.Kind.TURN, Notification.Kind.LATE],
            read_at__isnull=True,
            created__lte=until,
        ),
        {"read_at": now},
    )
)


# --- reminders ---------------------------------------------------------------------------------


def _user_id(seat: Seat) -> int:
    """The id of the seat's player, for a seat its caller knows has one."""
    assert seat.user_id is not None  # its callers skip seats with no player (or never read them)
    return seat.user_id


def _match_line(match: Match, user_id: int | None) -> str:
    names = selectors.opponents_of(match=match, user_id=user_id)
    against = f" against {', '.join(names)}" if names else ""
    return f"{match.game_name}{against}"


def turn_remind(
    *, seat: Seat, turn_started: dt.datetime | None = None, now: dt.datetime | None = None
) -> Notification | None:
    """“Your turn”, once per turn (the key is the turn's start), unless the player is looking.

    `turn_started`: the turn this reminder is for; a turn that has ended or restarted since
    sends nothing. Auto-play seats wait AUTOPLAY_GRACE: the server plays their forced moves.
    """
    now = now or timezone.now()
    match = seat.match
    if seat.user is None or seat.turn_started is None or match.status != Match.Status.ACTIVE:
        return None
    if match.is_paused:  # every clock is stopped; resuming restarts the turn (a new key)
        return None
    if turn_started is not None and seat.turn_started != turn_started:
        return None
    if seat.autoplay and now - seat.turn_started < AUTOPLAY_GRACE:
        return None
    if is_solo(match=match):  # a run played alone: nobody else ever moves
        return None
    if centre.turn_notice_waits(
        match=match, user_id=seat.user_id, turn_started=seat.turn_started, now=now
    ):
        return None  # against the AI: the beat's, a minute on, if not on the board
    return notification_send(
        user=seat.user,
        kind=Kind.TURN,
        key=f"turn:{seat.pk}:{seat.turn_started.isoformat()}",
        text=f"Your turn in {_match_line(match, seat.user_id)}",
        match=match,
        is_present=presence.is_present(user_id=_user_id(seat), match_id=match.pk),
        may_email=not is_against_ai_only(match=match, user_id=seat.user_id),
    )


def late_due(seat: Seat) -> dt.datetime | None:
    """When the “running late” reminder of this turn is due (80% of its time used)."""
    if seat.turn_started is None or seat.deadline is None:
        return None
    return seat.turn_started + (seat.deadline - seat.turn_started) * LATE_SHARE


def late_remind(*, seat: Seat, now: dt.datetime | None = None) -> Notification | None:
    """“Running late”, once per deadline. A player looking at the match is skipped and not
    recorded: the next scan reminds them if they leave without moving."""
    now = now or timezone.now()
    due = late_due(seat)
    if seat.user is None or due is None or seat.deadline is None or not due <= now < seat.deadline:
        return None
    if presence.is_present(user_id=_user_id(seat), match_id=seat.match_id):
        return None
    match = seat.match
    if is_solo(match=match):
        return None
    left = timeuntil(seat.deadline, now)
    return notification_send(
        user=seat.user,
        kind=Kind.LATE,
        key=f"late:{seat.pk}:{seat.deadline.isoformat()}",
        text=f"{left} left to move in {_match_line(match, seat.user_id)}",
        match=match,
        may_email=not is_against_ai_only(match=match, user_id=seat.user_id),
    )


def reminders_send_due(*, now: dt.datetime | None = None) -> dict[str, int]:
    """The beat scan: “your turn” missed in the last hour, and every “running late” due."""
    now = now or timezone.now()
    sent = {"turn": 0, "late": 0}
    turns = list(selectors.turns_started_since(since=now - TURN_CATCH_UP))
    done = selectors.existing_keys(keys=[_turn_key(seat) for seat in turns])
    for seat in turns:
        key = _turn_key(seat)
        if key not in done and seat.index in seat.match.seats_to_act:
            sent["turn"] += turn_remind(seat=seat, now=now) is not None
    late = [seat for seat in selectors.turns_with_deadline_after(now=now) if _due(seat) <= now]
    done = selectors.existing_keys(keys=[_late_key(seat) for seat in late])
    for seat in late:
        if _late_key(seat) not in done:
            sent["late"] += late_remind(seat=seat, now=now) is not None
    return sent


# The scan's seats are running human turns (inbox.selectors): each has its player and the
# start of its turn, and those of `turns_with_deadline_after` a deadline.


def _turn_key(seat: Seat) -> tuple[int, str]:
    assert seat.turn_started is not None  # a running turn
    return (_user_id(seat), f"turn:{seat.pk}:{seat.turn_started.isoformat()}")


def _late_key(seat: Seat) -> tuple[int, str]:
    assert seat.deadline is not None  # a timed turn
    return (_user_id(seat), f"late:{seat.pk}:{seat.deadline.isoformat()}")


def _due(seat: Seat) -> dt.datetime:
    due = late_due(seat)
    assert due is not None  # a running timed turn has both its start and its deadline
    return due


# --- what happens at a table ---------------------------------------------------------------


def invitation_notify(*, seat_id: int) -> Notification | None:
    """Someone invited me to a table, or offered a rematch (a table of the same players)."""
    seats = Seat.objects.select_related("match__created_by__profile", "user").filter(pk=seat_id)
    seat = seats.first()
    if seat is None or seat.user is None or seat.joined is not None:
        return None
    match = seat.match
    if match.status != Match.Status.WAITING:
        return None
    creator = match.created_by
    host = creator.profile.name if creator is not None and _has_profile(creator) else "Someone"
    is_rematch = match.rematch_of_id is not None
    return notification_send(
        user=seat.user,
        kind=Kind.REMATCH if is_rematch else Kind.INVITE,
        key=f"invite:{seat.pk}",
        text=f"{host} {'offers you a rematch of' if is_rematch else 'invites you to'}"
        f" {match.game_name}",
        match=match,
    )


def _has_profile(user: Any) -> bool:
    return user is not None and getattr(user, "profile", None) is not None


def pause_notify(*, match_id: int, votes: str, asked_at: str) -> int:
    """Players asked to pause: tell the others still in the match (once per request)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.pause_votes != votes or not votes or match.is_paused:
        return 0
    seats = [seat for seat in match.seats.all() if seat.user_id is not None and seat.joined]
    askers = [seat.label for seat in seats if seat.index in match.pause_seats]
    sent = 0
    for seat in seats:
        if seat.index in match.pause_seats or seat.resigned or seat.timed_out:
            continue
        sent += (
            notification_send(
                user=seat.user,
                kind=Kind.PAUSE,
                key=f"pause:{match.pk}:{votes}:{asked_at}",
                text=f"{', '.join(askers)} asked to pause {match.game_name}: agree or decline",
                match=match,
                is_present=presence.is_present(user_id=_user_id(seat), match_id=match.pk),
            )
            is not None
        )
    return sent


def ruling_notify(*, match_id: int) -> int:
    """Tell each player of a match an admin aborted or adjudicated what was decided and why
    (games.services.adjudication stores the ruling in the outcome; once: the notice's key
    is the match's)."""
    match = Match.objects.filter(pk=match_id).first()
    ruling = (match.outcome or {}).get("ruling") if match is not None else None
    if match is None or not ruling:
        return 0
    done = "aborted" if ruling["kind"] == "aborted" else "adjudicated"
    text = f"An admin {done} {match.game_name} #{match.pk}: {ruling['note']}"
    sent = 0
    for seat in match.seats.select_related("user"):
        if seat.is_ai or seat.user is None:
            continue
        notice = notification_send(
            user=seat.user,
            kind=Notification.Kind.FINISHED,
            key=f"ruling:{match.pk}",
            text=text,
            match=match,
            is_present=presence.is_present(user_id=_user_id(seat), match_id=match.pk),
        )
        sent += notice is not None
    return sent


def finished_notify(*, match_id: int) -> int:
    """A match ended: each player not looking at it hears the result."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.FINISHED or match.tutorial:
        return 0
    if is_solo(match=match):  # its player saw the run end: no notice of it
        return 0
    winners = set((match.outcome or {}).get("winners") or [])
    sent = 0
    for seat in match.seats.all():
        if seat.is_ai or seat.user is None or seat.joined is None:
            continue
        if not winners:
            result = "ended without a winner"
        elif seat.index in winners:
            result = "you won" if len(winners) == 1 else "you are among the winners"
        else:
            result = "you lost"
        sent += (
            notification_send(
                user=seat.user,
                kind=Kind.FINISHED,
                key=f"finished:{match.pk}",
                text=f"{_match_line(match, seat.user_id)} is over: {result}",
                match=match,
                is_present=presence.is_present(user_id=_user_id(seat), match_id=match.pk),
            )
            is not None
        )
    return sent


# --- the daily digest ------------------------------------------------------------------------


def digests_send(*, now: dt.datetime | None = None) -> int:
    """Email each player who asked for it, at their hour, the matches waiting for them.

    The hour is in the player's own time zone (the one their daily quests use), and the
    digest goes once a local day: it is a Notification keyed `digest:<local date>` (email
    only). The beat runs this hourly.
    """
    now = now or timezone.now()
    sent = 0
    wanting = list(
        NotificationSettings.objects.filter(digest=True, user__is_active=True).select_related(
            "user"
        )
    )
    zones = time_zones_of(user_ids=[prefs.user_id for prefs in wanting])
    for prefs in wanting:
        local = now.astimezone(zones[prefs.user_id])
        if local.hour >= prefs.digest_hour:
            sent += digest_send(user=prefs.user, now=now, day=local.date())
    return sent


def digest_send(*, user: Any, now: dt.datetime | None = None, day: dt.date | None = None) -> bool:
    """The digest of `day` (the player's local date; today in UTC if not given), once."""
    now = now or timezone.now()
    day = day or now.date()
    matches = selectors.matches_waiting_for(user=user)
    if not matches or not user.email:
        return False
    with transaction.atomic():
        _, created = Notification.objects.get_or_create(
            user=user,
            key=f"digest:{day.isoformat()}",
            defaults={
                "kind": Kind.DIGEST,
                "text": f"{len(matches)} match{'es' if len(matches) != 1 else ''} wait for you",
                "url": reverse("games:my_matches"),
                "in_app": False,
                "read_at": now,
                "emailed_at": now,
            },
        )
        if not created:
            return False
        lines = [
            {
                "match": match,
                "line": _match_line(match, user.pk),
                "link": _absolute(match.get_absolute_url()),
            }
            for match in matches
        ]
        # Inside the transaction: an email that fails rolls the day's key back, so the next
        # run tries again.
        _email_send(
            user=user,
            subject=f"{len(matches)} of your matches wait for your move",
            template="inbox/email/digest",
            context={"lines": lines, "my_matches": _absolute(reverse("games:my_matches"))},
        )
    return True


# --- pruning ---------------------------------------------------------------------------------


def notifications_prune(*, now: dt.datetime | None = None) -> int:
    """Delete notifications older than `KEEP_FOR` whose match is over (or that have none).

    Rows are the at-most-once ledger, so only rows whose key can never come back go: every
    key of a match names its seat, turn, deadline or the match itself, which a finished or
    cancelled match never produces again, and a digest's key names its (past) day.
    Returns how many rows were deleted.
    """
    now = now or timezone.now()
    over = [Match.Status.FINISHED, Match.Status.CANCELLED]
    stale = Notification.objects.filter(
        Q(match__isnull=True) | Q(match__status__in=over), created__lt=now - KEEP_FOR
    )
    deleted, _by_model = stale.delete()
    return deleted
