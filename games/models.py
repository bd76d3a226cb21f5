"""A match is its move log: Match + Seat + an append-only Move table.

The state of a match is always `replay(moves)` through its engine (games.engine); nothing
here holds game logic. Every write goes through games.services.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.ai import levels
from games.names import player_name


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    game = models.SlugField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    size = models.PositiveSmallIntegerField(default=2)  # number of seats
    tutorial = models.CharField(max_length=32, blank=True)  # games.tutorials key, if one
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    seed = models.BinaryField(max_length=32, editable=False)  # secret until the match ends
    seed_commitment = models.CharField(max_length=64, editable=False)  # sha256(seed), public
    ply = models.PositiveIntegerField(default=0)
    to_act = models.CharField(max_length=32, blank=True)  # seats to move now, "0" or "0,2"
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)  # core.Outcome.to_json() once finished
    # A run others must not see yet (a weekly challenge run: everyone's run k deals the same
    # deck): until then only its players may open it, and its seed stays secret.
    private_until = models.DateTimeField(null=True, blank=True)
    # Time control (games.services.clock): seconds per move, or None for no clock (only
    # against the AI). Each seat also has a time bank that grows a little with each move.
    move_seconds = models.PositiveIntegerField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)  # set: every clock is stopped
    pause_votes = models.CharField(max_length=32, blank=True)  # seats asking to pause, "0,2"
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # Casual: never rated, whoever sits down (ratings.services.match_is_rated).
    is_casual = models.BooleanField(default=False)
    # A private table (docs/lobby.md): its open seats are taken only through the link with
    # this secret; never listed among the open tables. "" for every other table.
    invite_token = models.CharField(max_length=64, blank=True, editable=False)

    # Set on the rows a list selector returns (games.selectors.lists), never stored: my seat
    # and the others' names on "my matches", the host's reliability and the rules on the
    # open tables.
    my_seat: Seat
    opponent_names: list[str]
    host_reliability: Any  # games.selectors.lists.Reliability
    table_rules: Any  # games.selectors.lobby.TableRules

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "-updated"]),
            models.Index(fields=["status", "created"], name="match_status_created"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["invite_token"],
                condition=~models.Q(invite_token=""),
                name="match_unique_invite_token",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:match", args=[self.pk])

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def is_private_now(self) -> bool:
        return self.private_until is not None and timezone.now() < self.private_until

    @property
    def is_seed_revealed(self) -> bool:
        return self.is_finished and not self.is_private_now

    @property
    def game_name(self) -> str:
        from games.engine import registry

        return registry.get(self.game).name if self.game in registry.slugs() else self.game

    @property
    def is_private_table(self) -> bool:
        return bool(self.invite_token)

    @property
    def is_timed(self) -> bool:
        return self.move_seconds is not None

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    def is_overdue(self, seat: Seat, now: Any) -> bool:
        """Whether `seat` is to act and its deadline has passed by `now` (never while the
        match is paused or not in play): what the clock settles on time."""
        return (
            self.status == self.Status.ACTIVE
            and not self.is_paused
            and seat.deadline is not None
            and seat.deadline <= now
            and seat.index in self.seats_to_act
        )

    def overdue_seats(self, now: Any) -> list[Seat]:
        return [seat for seat in self.seats.all() if self.is_overdue(seat, now)]

    @property
    def pause_seats(self) -> tuple[int, ...]:
        return tuple(int(seat) for seat in self.pause_votes.split(",")) if self.pause_votes else ()

    @property
    def seats_to_act(self) -> tuple[int, ...]:
        return tuple(int(seat) for seat in self.to_act.split(",")) if self.to_act else ()

    @staticmethod
    def commitment_for(seed: bytes) -> str:
        return hashlib.sha256(seed).hexdigest()


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", "Player"
        AI = "ai", "AI"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    ai_level = models.CharField(max_length=16, blank=True)  # an id of games.ai.levels
    joined = models.DateTimeField(null=True, blank=True)  # null: open seat or pending invitation
    resigned = models.BooleanField(default=False)
    timed_out = models.BooleanField(default=False)
    autoplay = models.BooleanField(default=False)  # play forced moves for this seat
    # The clock of a timed match (games.services.clock): set while this seat is to act.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started = models.DateTimeField(null=True, blank=True)
    bank_seconds = models.PositiveIntegerField(default=0)
    paused_seconds_left = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index}"

    @property
    def is_ai(self) -> bool:
        return self.kind == self.Kind.AI

    @property
    def is_automatic(self) -> bool:
        """The server plays this seat's moves: the AI's, or a player's forced moves."""
        return self.is_ai or self.autoplay

    @property
    def is_open(self) -> bool:
        return self.kind == self.Kind.HUMAN and self.user_id is None

    @property
    def is_invited(self) -> bool:
        return self.kind == self.Kind.HUMAN and self.user_id is not None and self.joined is None

    @property
    def label(self) -> str:
        if self.is_ai:
            return levels.seat_label(self.ai_level)
        if self.user_id is None:
            return "Open seat"
        return player_name(self.user)


class Move(models.Model):
    """One ply of the log. Append-only; (match, ply) is unique, so no ply is applied twice."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    move_id = models.CharField(max_length=64, null=True, blank=True)  # the client's retry key  # noqa: DJ001 - null: no retry key, unique only when given
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply"),
            models.UniqueConstraint(
                fields=["match", "move_id"],
                condition=models.Q(move_id__isnull=False),
                name="move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} ply {self.ply}"


class Seek(models.Model):
    """A player's "play anyone" for one game and time control (docs/lobby.md).

    Written only by games.services.pairing, under the lock of its `SeekPool` row: two
    compatible seeks become one match at once, never two, and none is lost.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Looking for an opponent"
        PAIRED = "paired", "Paired"
        CANCELLED = "cancelled", "Cancelled"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.SlugField(max_length=32)
    time_control = models.CharField(max_length=8)  # a key of services.clock.TIME_CONTROLS
    is_rated = models.BooleanField(default=True)
    rating = models.IntegerField()  # the player's rating in the game when seeking
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(status="open"), name="seek_one_open_per_user"
            )
        ]
        indexes = [models.Index(fields=["game", "time_control", "status"], name="seek_pool")]

    def __str__(self) -> str:
        return f"{self.user} seeks {self.game} {self.time_control}"

    @property
    def game_name(self) -> str:
        from games.engine import registry

        return registry.get(self.game).name if self.game in registry.slugs() else self.game

    def is_expired(self, now: Any) -> bool:
        return self.status == self.Status.OPEN and self.expires <= now


class SeekPool(models.Model):
    """One row per game and time control: the row every pairing of that pool locks first."""

    key = models.CharField(max_length=64, unique=True)  # "grimhand/1d"

    def __str__(self) -> str:
        return self.key
