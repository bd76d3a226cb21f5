"""Reads: one match, and the board a seat may see, built from its position (games.replay).

Nothing here writes.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.urls import get_script_prefix, reverse
from django.utils import timezone

from config.compiled import CompiledQuery, prefetched
from games.boards import has_board, presenter_for, tutorial_for
from games.boards.base import BoardPresenter, CardFormPresenter
from games.engine import registry
from games.engine.core import Event, Game
from games.models import Match, Seat
from games.replay import LoggedMove, match_position
from games.selectors.lobby import table_rules
from games.templatetags.cardhall import duration, tojson


def match_game(*, match: Match) -> Game:
    return registry.get(match.game)


def seat_of(*, match: Match, user: Any) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in match.seats.all() if seat.user_id == user.pk), None)


# What a board shows of a seat's player, loaded with the user (`select_related` paths from
# it): what the apps above `games` register from their AppConfig.ready (accounts: the
# profile, for a name; progression: the equipped looks). `games` imports none of them.
PLAYER_DETAILS: list[str] = []


def player_details_register(*paths: str) -> None:
    """Load the user's relations `paths` with every board's players, so drawing a board
    costs no query of its own for them."""
    PLAYER_DETAILS.extend(path for path in paths if path not in PLAYER_DETAILS)


def seats_with_players() -> QuerySet[Seat]:
    """Seats with everything a board shows of their players (profile, equipped looks)."""
    return Seat.objects.select_related(*(f"user__{path}" for path in PLAYER_DETAILS)).order_by(
        "index"
    )


def match_get(*, match_id: int) -> Match | None:
    """The match with its seats: two small queries. The seats' players come only when a
    board is drawn (`players_load`): a board served from the cache, a poll or a permission
    check needs none of them."""
    return match_read(match_id=match_id)


# The reads every move and every board fetch makes, compiled to SQL once per process
# (config.compiled: compiling the seats' seven-table join cost more than running it).
_MATCH = CompiledQuery(lambda match_id: Match.objects.filter(pk=match_id))
_MATCH_LOCKED = CompiledQuery(
    lambda match_id: Match.objects.select_for_update().filter(pk=match_id)
)
_SEATS = CompiledQuery(lambda match_id: Seat.objects.filter(match_id=match_id).order_by("index"))
_SEATS_WITH_PLAYERS = CompiledQuery(
    lambda match_id: seats_with_players().filter(match_id=match_id),
    variant=lambda: tuple(PLAYER_DETAILS),
)


def match_read(
    *, match_id: Any, lock: bool = False, seats: bool = True, with_players: bool = False
) -> Match | None:
    """The match (`lock`: its row locked for this transaction, `select_for_update`) with
    its seats in order (`with_players`: and their players, with everything a board shows
    of them; not `seats`: without them): two queries, as `prefetch_related("seats")` would
    make, but compiled once."""
    try:
        match_id = int(match_id)
    except (TypeError, ValueError):
        return None
    found = (_MATCH_LOCKED if lock else _MATCH)(match_id)
    if not found:
        return None
    match = found[0]
    if seats or with_players:
        loaded = (_SEATS_WITH_PLAYERS if with_players else _SEATS)(match_id)
        prefetched(match, "seats", loaded, back="match")
    return match


def players_load(*, match: Match) -> None:
    """Give the match's seats their players, with everything a board shows of them, if they
    came without: one query (none when they were loaded with the seats)."""
    missing = [
        seat
        for seat in match.seats.all()
        if seat.user_id is not None and not Seat.user.is_cached(seat)
    ]
    if not missing:
        return
    users = (
        get_user_model()
        .objects.select_related(*PLAYER_DETAILS)
        .in_bulk([seat.user_id for seat in missing])
    )
    for seat in missing:
        if seat.user_id in users:
            seat.user = users[seat.user_id]


def automatic_seat_to_act(*, match: Match) -> Seat | None:
    """An AI or auto-play seat that is to act now, if any."""
    to_act = match.seats_to_act
    return next(
        (seat for seat in match.seats.all() if seat.index in to_act and seat.is_automatic), None
    )


def is_solo(*, match: Match | None) -> bool:
    """A run played alone (BaniraCards' practice and weekly runs): nobody to wait for, and
    its player is the only one who acts, so no notice about it is news."""
    return match is not None and match.size == 1


def is_against_ai_only(*, match: Match, user_id: int | None) -> bool:
    """Every seat but `user_id`'s is the AI's."""
    return all(seat.is_ai for seat in match.seats.all() if seat.user_id != user_id)


def can_view(*, match: Match, user: Any) -> bool:
    """Anyone may watch a match, except a private run (only its players, until it opens)."""
    return not match.is_private_now or seat_of(match=match, user=user) is not None


def log_lines(
    *,
    presenter: Any,
    log: Sequence[LoggedMove],
    names: Sequence[str],
    sees: Callable[[Event], bool],
) -> list[dict[str, Any]]:
    """The match log as boards show it: each move's events that the viewer `sees`, in
    words, oldest first."""
    return [
        {
            "ply": entry.ply,
            "seat": entry.seat,
            "events": [
                {"type": event.type, "text": presenter.describe(event, names), **event.data}
                for event in entry.events
                if sees(event)
            ],
        }
        for entry in log
    ]


def with_recorded_outcome(view: Any, match: Match) -> Any:
    """The view, with the match's result where the engine's state has none: a resignation
    or a timeout in a two-player game ends the match outside the engine, and the board
    must show it over (nobody "deciding" any more)."""
    if not isinstance(view, dict) or not match.outcome or view.get("outcome"):
        return view
    if match.status != Match.Status.FINISHED:
        return view
    return {**view, "outcome": match.outcome, "to_act": []}


def opponent_names(*, match: Match, seat_index: int | None) -> list[str]:
    """Everyone at the table but `seat_index`, by name, in seat order."""
    return [seat.label for seat in match.seats.all() if seat.index != seat_index]


def seat_names(*, match: Match) -> list[str]:
    players_load(match=match)
    return [seat.label for seat in match.seats.all()]


class MatchUrls(dict):
    """A match's own URLs by name, `games:<name>` with the match's id (`rules`: with its
    game's slug): `urls.move` in a board template. Each is reversed on first use and kept:
    a board names up to a dozen, and reversing them took a quarter of its render
    (docs/benchmarks.md, ninth pass)."""

    GAME_URLS = frozenset({"rules"})  # these take the game's slug, not the match's id

    def __init__(self, match_id: int, game: str) -> None:
        super().__init__()
        self.args: dict[bool, list[Any]] = {False: [match_id], True: [game]}

    def __missing__(self, name: str) -> str:
        url = self[name] = reverse(f"games:{name}", args=self.args[name in self.GAME_URLS])
        return url


@functools.lru_cache(maxsize=4096)
def _match_urls(match_id: int, game: str, script_prefix: str) -> MatchUrls:
    return MatchUrls(match_id, game)


def match_urls(*, match: Match) -> MatchUrls:
    """`match`'s URLs, kept per process for its most recent matches."""
    return _match_urls(match.pk, match.game, get_script_prefix())


def match_board(*, match: Match, seat: Seat | None) -> dict[str, Any]:
    """Everything a board template needs, built from the seat's own view only."""
    players_load(match=match)
    game = match_game(match=match)
    presenter = presenter_for(match.game)
    position = match_position(match=match)
    seat_index = seat.index if seat is not None and seat.joined is not None else None
    view = presenter.decorate(with_recorded_outcome(game.view(position.state, seat_index), match))
    names = seat_names(match=match)
    is_playing = match.status == Match.Status.ACTIVE and seat_index is not None
    is_my_turn = is_playing and seat_index in match.seats_to_act
    seat_clocks = clocks(match=match)
    log = log_lines(
        presenter=presenter,
        log=position.tail,  # the last replay.LOG_TAIL moves: what a board's log shows
        names=names,
        sees=lambda event: event.is_visible_to(seat_index),
    )
    return {
        "match": match,
        "urls": match_urls(match=match),
        "game": game,
        "presenter": presenter,
        "view": view,
        "seats": list(match.seats.all()),
        "names": names,
        "my_seat": seat,
        "seat_index": seat_index,
        "is_playing": is_playing,
        "is_my_turn": is_my_turn,
        "legal_moves": (
            game.legal_moves(position.state, seat_index)
            if is_my_turn and seat_index is not None
            else []
        ),
        "log": list(reversed(log)),
        "last_events": log[-1]["events"] if log else [],
        "version": board_version(match=match),
        "revealed_seed": revealed_seed(match=match),
        "move_id": uuid.uuid4().hex,  # the retry key of whatever move this board submits
        "poll_seconds": settings.MATCH_POLL_SECONDS,
        "outcome_text": outcome_text(match, names, seat_index),
        "waiting_for": [names[index] for index in match.seats_to_act if index != seat_index],
        "clocks": seat_clocks,
        "my_clock": next((c for c in seat_clocks if c.seat == seat_index), None),
        "can_rematch": _can_rematch(match, seat_index),
        "table_rules": table_rules(match=match),
        "rematch": rematch_of(match=match) if match.is_finished else None,
        **_coaching(match, seat_index),
    }


def board_of(*, match_id: int) -> BoardPresenter | None:
    """The board of a match's game (None: no such match), for reading its own move form."""
    slug = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    return presenter_for(slug) if slug is not None and has_board(slug) else None


def move_preview(
    *, match: Match, user: Any, cards: Sequence[str], ply: int | None
) -> dict[str, Any]:
    """The board of a card form (`presenter.action_bar`) with its action bar for the checked
    `cards`: each button enabled only if the engine says its move is legal now. No seat, not
    my turn, or a page behind the match (`ply`): every button disabled."""
    presenter = presenter_for(match.game)
    assert isinstance(presenter, CardFormPresenter)  # the view serves card forms only
    context = match_board(match=match, seat=seat_of(match=match, user=user))
    is_current = ply is None or ply == match.ply
    seat = context["seat_index"] if context["is_my_turn"] and is_current else None
    game, state = context["game"], match_position(match=match).state

    def is_legal(action: str) -> bool:
        return seat is not None and game.is_legal(state, seat, presenter.card_move(action, cards))

    context["view"]["bar"] = presenter.action_bar(
        view=context["view"], cards=cards, is_legal=is_legal
    )
    return context


@dataclass(frozen=True)
class Clock:
    """One seat's clock as the board shows it."""

    seat: int
    name: str
    is_running: bool
    deadline: Any  # datetime or None
    seconds_left: int | None  # None: no clock running (or the match is paused)
    bank_seconds: int
    paused_seconds_left: int | None
    is_on_vacation: bool
    timed_out: bool

    @property
    def left_text(self) -> str:
        seconds = self.seconds_left if self.seconds_left is not None else self.paused_seconds_left
        return duration(seconds) if seconds is not None else ""

    @property
    def is_low(self) -> bool:
        return self.seconds_left is not None and self.seconds_left < 3600


def clocks(*, match: Match, now: Any = None) -> list[Clock]:
    """The clocks of a timed match's human seats (none without a time control, and none
    once the match is over)."""
    if not match.is_timed or match.status != Match.Status.ACTIVE:
        return []
    now = now or timezone.now()
    result = []
    for seat in match.seats.all():
        if seat.is_ai:
            continue
        profile = getattr(seat.user, "profile", None) if seat.user_id else None
        on_vacation = bool(profile and profile.vacation_until and profile.vacation_until > now)
        left = int((seat.deadline - now).total_seconds()) if seat.deadline is not None else None
        result.append(
            Clock(
                seat=seat.index,
                name=seat.label,
                is_running=seat.deadline is not None,
                deadline=seat.deadline,
                seconds_left=max(0, left) if left is not None else None,
                bank_seconds=seat.bank_seconds,
                paused_seconds_left=seat.paused_seconds_left,
                is_on_vacation=on_vacation,
                timed_out=seat.timed_out,
            )
        )
    return result


def _can_rematch(match: Match, seat_index: int | None) -> bool:
    return (
        seat_index is not None
        and match.status == Match.Status.FINISHED
        and not match.tutorial
        and match.private_until is None
        and match.size > 1
    )


def rematch_of(*, match: Match) -> Match | None:
    return Match.objects.filter(rematch_of=match).first()


def _coaching(match: Match, seat_index: int | None) -> dict[str, Any]:
    """The tutorial coach's line for the player, and the move it points at (as JSON)."""
    tutorial = tutorial_for(match.tutorial) if match.tutorial else None
    if tutorial is None or seat_index != tutorial.player_seat:
        return {"coach": None, "coached_move": "", "coached": {}}
    moves = list(match.moves.order_by("ply").values_list("payload", flat=True))
    step = tutorial.coach(ply=match.ply, is_finished=match.is_finished, moves=moves)
    # The same JSON as the board's move buttons (the `tojson` filter), so they can compare.
    # `coached`: the move itself, for boards whose controls are not one move each.
    coached = tojson(step.move) if step and step.move else ""
    return {"coach": step, "coached_move": coached, "coached": step.move if step else {}}


# How a match ended that no game decides, said to the winner, to the loser, and to everyone
# else; each game words its own endings (its board's `outcome_phrases`).
OUTCOME_PHRASES = {
    "resign": ("they resigned", "you resigned", "resignation"),
    "timeout": ("their time ran out", "your time ran out", "time ran out"),
}
ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]


def _solo_outcome_text(game: str, outcome: dict[str, Any]) -> str:
    """A one-seat run's ending, in its board's words (`solo_endings`)."""
    scores = outcome.get("scores") or [0]
    endings = presenter_for(game).solo_endings if has_board(game) else {}
    template = endings.get(outcome["reason"], "The run is over: score {score}.")
    return template.format(score=scores[0])


def _place(ranking: list[list[int]], seat: int) -> int | None:
    """0 for first place; tied seats share the place of their group."""
    place = 0
    for group in ranking:
        if seat in group:
            return place
        place += len(group)
    return None


def outcome_text(match: Match, names: list[str], seat_index: int | None) -> str:
    outcome = match.outcome
    if match.status == Match.Status.CANCELLED:
        if outcome and outcome.get("reason") == "expired":
            return "Nobody took the open seats in time, so the table was taken down."
        return "This match was called off."
    if not outcome:
        return ""
    if is_solo(match=match):
        return _solo_outcome_text(match.game, outcome)
    winners = outcome["winners"]
    if not winners:
        return "A draw."
    reason = outcome["reason"]
    fallback = reason.replace("_", " ")
    own = presenter_for(match.game).outcome_phrases if has_board(match.game) else {}
    phrases = {**OUTCOME_PHRASES, **own}
    to_winner, to_loser, neutral = phrases.get(reason, (fallback, fallback, fallback))
    if seat_index is not None:
        if seat_index in winners:
            return f"You won: {to_winner}!"
        place = _place(outcome["ranking"], seat_index)
        if len(names) > 2 and place is not None:
            return f"You finished {ORDINALS[place]} of {len(names)}: {to_loser}."
        return f"You lost: {to_loser}."
    return f"{' and '.join(names[w] for w in winners)} won: {neutral}."


def revealed_seed(*, match: Match) -> str | None:
    """The match's seed in hex once it may be shown (the match is over and not a private run
    still running), else None: templates get this, never the seed itself."""
    return bytes(match.seed).hex() if match.is_seed_revealed else None


def board_version(*, match: Match) -> str:
    """Changes whenever anything on any board of this match changes."""
    return f"{match.ply}.{int(match.updated.timestamp() * 1000)}"
