"""Automatic seats: the AI's moves and a player's auto-played forced moves."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

from games import effects, replay, selectors
from games.ai import Bot, levels
from games.ai.ismcts import Determinizer
from games.ai.scripted import ScriptedBot
from games.boards import tutorial_for
from games.effects import automation_running
from games.engine import registry
from games.engine.core import Chance
from games.errors import MatchFinished, MatchPaused, NotSeated, StaleMove
from games.models import Match, Seat
from games.services._shared import TUTOR, locked
from games.services.moves import apply_locked, tutor_concede

CONCEDES: dict[str, Any] = {"type": "concede"}  # the tutor's choice to resign a tutorial


def seat_set_autoplay(*, match_id: int, user: Any, is_enabled: bool) -> Seat:
    """Let the server play this seat's forced moves (those with exactly one legal choice)."""
    with transaction.atomic():
        match = locked(match_id)
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        if match.is_finished:
            raise MatchFinished("This match is over.")
        seat.autoplay = is_enabled
        seat.save(update_fields=["autoplay"])
        match.save(update_fields=["updated"])
        effects.match_changed(match=match)
    return seat


def automation_run(*, match_id: int, max_steps: int = 10_000) -> int:
    """Play every move due from AI seats and auto-play seats; returns how many this call made.

    Idempotent: the bot decides outside the lock from the seat's own view, then the move is
    applied only if the match is still at the ply it decided for. Running twice at once
    makes each ply once.
    """
    token = automation_running.set(True)
    made = 0
    try:
        for _ in range(max_steps):
            step = _automatic_move(match_id)
            if step == "idle":
                break
            made += step == "made"
    finally:
        automation_running.reset(token)
    return made


def _automatic_move(match_id: int) -> str:
    """One automatic move: "made", "raced" (someone else moved first: look again) or "idle"."""
    match = selectors.match_get(match_id=match_id)
    if match is None or match.status != Match.Status.ACTIVE or match.is_paused:
        return "idle"
    seat = selectors.automatic_seat_to_act(match=match)
    if seat is None:
        return "idle"
    move = _automatic_choice(match, seat)
    if move is None:
        return "idle"
    with transaction.atomic():
        current = locked(match_id, with_seats=True)
        seat = next(other for other in current.seats.all() if other.index == seat.index)
        if current.ply != match.ply or not seat.is_automatic:
            return "raced"
        if move is CONCEDES:
            tutor_concede(current, seat)
            return "made"
        try:
            apply_locked(current, seat, match.ply, move, user=None, move_id=f"auto-{match.ply}")
        except StaleMove:
            return "raced"
        except MatchPaused:
            return "idle"
    return "made"


def _automatic_choice(match: Match, seat: Seat) -> dict[str, Any] | None:
    """The AI's move from its own view, or the forced move of an auto-play seat."""
    game = registry.get(match.game)
    state = replay.match_position(match=match).state
    legal = game.legal_moves(state, seat.index)
    if not seat.is_ai:
        return legal[0] if len(legal) == 1 else None
    bot = _bot_for(match, seat)
    tutorial = tutorial_for(match.tutorial) if seat.ai_level == TUTOR else None
    if tutorial is not None and tutorial.ai_script.get(match.ply) not in legal:
        # Unscripted: the tutor never wins a tutorial, and concedes when it could only win.
        legal = tutorial.tutor_moves(game, state, seat.index, legal)
        if not legal:
            return CONCEDES
    chance = Chance(bytes(match.seed), f"ai/{seat.index}/{match.ply}")
    view = game.view(state, seat.index)
    if getattr(bot, "wants_samples", False):
        # Searching bots get samples of what they cannot see, never the state itself.
        sample = Determinizer(game, state, seat.index)
        return bot.choose(game, view, legal, chance, sample=sample)  # type: ignore[call-arg]  # a searching bot's choose takes samples
    return bot.choose(game, view, legal, chance)


def _bot_for(match: Match, seat: Seat) -> Bot:
    """The seat's level's bot for this game (games.ai.levels); the tutor plays its script
    first, that bot once off-script."""
    bot = levels.get(seat.ai_level).bot(match.game)
    tutorial = tutorial_for(match.tutorial) if seat.ai_level == TUTOR else None
    return ScriptedBot(tutorial.ai_script, fallback=bot) if tutorial is not None else bot


@contextmanager
def automation_paused() -> Iterator[None]:
    """For tests and tools: make moves without triggering automatic replies."""
    token = automation_running.set(True)
    try:
        yield
    finally:
        automation_running.reset(token)
