"""Provably fair: a match's export (its move log and seed, as JSON), and checking one.

The format is `docs/move-log.md`, "Export" (log version 1). Building an export reads the
database (`export_build`); reading and checking one (`export_parse`, `export_verify`) is
pure: the engine, the standard library, and nothing from the request or the database, so
the page, the `verify_match` command and anyone's own script agree.

What an export may reveal:
- the seed only once the match is over and not private (`match.is_seed_revealed`);
- while the seed is secret, moves that carry what others may not know yet (Shield's
  `choose_shield` card during the secret setup) are shown to their own seat only: for
  anyone else the secret fields are left out and the move is marked `"redacted"`;
- a fixed deal (`options["deal"]`: tutorials, puzzles) only with the seed: it is the
  hidden order of the cards itself;
- per-seat secrets of the options (`SEAT_OPTIONS`: Grimhand Arcana's chosen "decks" and
  card "levels") only to their own seat while the seed is secret: every other seat's entry
  is null for anyone else (the opponent learns a deck's cards as they are played).

Checking never trusts the document: a wrong shape, version, game or size, a seed that is
not the committed one, a move the rules refuse, or an outcome the replay does not reach is
reported with a message a person can read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine import registry
from games.engine.core import Event, Game, IllegalMove, InvalidOptions, replay_steps

LOG_VERSION = 3  # what this site writes (docs/move-log.md, "Versions")
READ_VERSIONS = (1, 2, 3)  # what it reads: an older export is read as it was meant
MAX_EXPORT_CHARS = 2_000_000  # a long Shield match of 8 is well under 1 MB
MAX_MOVES = 20_000
FORFEIT_REASONS = ("resign", "timeout")
# Move fields a non-mover may not know while the seed is secret, by game and move type.
SECRET_WHILE_RUNNING: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "shield": {"choose_shield": ("card",)},
    # Grimhand Arcana's Swap Hands pick: the card a seat gives, secret from the other seat
    # until both have chosen, and from spectators for good (only its receiver sees it).
    "grimhand": {"choose": ("deck", "value")},
}
# Options a match may carry that fix its hidden cards: exported once the seed is revealed.
SECRET_OPTIONS = ("deal",)
# Options that hold one entry per seat, each secret from the other seats until the seed is.
SEAT_OPTIONS = ("decks", "levels")
FIELDS = (
    "log_version",
    "game",
    "seats",
    "options",
    "seed_commitment",
    "seed",
    "moves",
    "forfeits",
    "outcome",
)


class ExportRejected(ValueError):
    """An export that cannot even be read or replayed; `message` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- building -------------------------------------------------------------------------------


def export_build(*, match: Any, viewer_seat: int | None) -> dict[str, Any]:
    """The export of `match` for someone who may open it (`viewer_seat`: theirs, or None).

    The caller checks that they may (a private run: its players only).
    """
    is_revealed = match.is_seed_revealed
    game = registry.get(match.game)
    moves = [
        _exported_move(match.game, ply, seat, payload, viewer_seat, is_revealed)
        for ply, seat, payload in match.moves.filter(ply__lt=match.ply)
        .order_by("ply")
        .values_list("ply", "seat", "payload")
    ]
    forfeits = []
    if not getattr(game, "forfeit_is_a_move", False):  # Shield logs its forfeits as moves
        for seat in match.seats.all():
            if seat.resigned or seat.timed_out:
                reason = "resign" if seat.resigned else "timeout"
                forfeits.append({"seat": seat.index, "reason": reason})
    return {
        "log_version": LOG_VERSION,
        "match": match.pk,
        "game": match.game,
        "seats": match.size,
        "options": _exported_options(match.options or {}, is_revealed, viewer_seat),
        "seed_commitment": match.seed_commitment,
        "seed": bytes(match.seed).hex() if is_revealed else None,
        "moves": moves,
        "forfeits": forfeits,
        "outcome": match.outcome,
    }


def _exported_options(
    options: Mapping[str, Any], is_revealed: bool, viewer_seat: int | None = None
) -> dict[str, Any]:
    """The match's options; a fixed deal (tutorials, puzzles) only once the seed is out: it
    IS the hidden order of the cards, as the seed is for a shuffled match. Until then a
    per-seat option (`SEAT_OPTIONS`) shows the viewer's own entry only."""
    if is_revealed:
        return dict(options)
    exported = {key: value for key, value in options.items() if key not in SECRET_OPTIONS}
    return {key: seat_option_for(key, value, viewer_seat) for key, value in exported.items()}


def seat_option_for(key: str, value: Any, viewer_seat: int | None) -> Any:
    """`options[key]` as `viewer_seat` may see it while the match runs: a per-seat list
    with every other seat's entry nulled; any other option as it is."""
    if key not in SEAT_OPTIONS or not isinstance(value, list):
        return value
    return [entry if seat == viewer_seat else None for seat, entry in enumerate(value)]


def _exported_move(
    game: str, ply: int, seat: int, payload: Any, viewer_seat: int | None, is_revealed: bool
) -> dict[str, Any]:
    secret = SECRET_WHILE_RUNNING.get(game, {}).get(payload.get("type"), ())
    if is_revealed or seat == viewer_seat or not any(name in payload for name in secret):
        return {"ply": ply, "seat": seat, "payload": payload}
    public = {key: value for key, value in payload.items() if key not in secret}
    return {"ply": ply, "seat": seat, "payload": public, "redacted": True}


def export_json(export: Mapping[str, Any]) -> str:
    return json.dumps(export, indent=1, sort_keys=False, ensure_ascii=False)


# --- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedMove:
    ply: int
    seat: int
    payload: dict[str, Any]


@dataclass(frozen=True)
class MatchLog:
    """An export, read and shape-checked (nothing replayed yet)."""

    game: Game
    seats: int
    options: dict[str, Any]
    commitment: str
    seed: bytes | None
    moves: tuple[LoggedMove, ...]
    forfeits: tuple[tuple[int, str], ...]
    outcome: dict[str, Any] | None
    is_redacted: bool = False


def export_parse(text: str | bytes) -> MatchLog:
    """Read an export; `ExportRejected` with a clear message if it is not a valid one."""
    if len(text) > MAX_EXPORT_CHARS:
        raise ExportRejected(
            f"That export is too large to check here ({len(text):,} characters; "
            f"the limit is {MAX_EXPORT_CHARS:,})."
        )
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ExportRejected("That is not valid JSON: paste the whole export, as saved.") from None
    if not isinstance(document, dict):
        raise ExportRejected("An export is a JSON object, starting with {.")
    missing = [name for name in FIELDS if name not in document]
    if missing:
        raise ExportRejected(f"That export is missing: {', '.join(missing)}.")
    version = document["log_version"]
    if version not in READ_VERSIONS or isinstance(version, bool):
        raise ExportRejected(
            f"This site reads move logs of versions {', '.join(map(str, READ_VERSIONS[:-1]))} "
            f"and {READ_VERSIONS[-1]}; "
            f"this one says {json.dumps(version)[:20]}."
        )
    game = _game(document["game"])
    seats = document["seats"]
    if type(seats) is not int or not game.min_seats <= seats <= game.max_seats:
        raise ExportRejected(
            f"{game.name} is played by {game.min_seats} to {game.max_seats} seats, "
            "and the export's seats say otherwise."
        )
    if not isinstance(document["options"], dict):
        raise ExportRejected("The export's options must be a JSON object.")
    moves = _moves(document["moves"], seats)
    return MatchLog(
        game=game,
        seats=seats,
        options=_options_as_meant(version, game, document["options"]),
        commitment=_commitment(document["seed_commitment"]),
        seed=_seed(document["seed"]),
        moves=moves,
        forfeits=_forfeits(document["forfeits"], seats),
        outcome=_outcome(document["outcome"]),
        is_redacted=any(
            isinstance(move, dict) and move.get("redacted") for move in document["moves"]
        ),
    )


# The Grimhand Arcana rules edition that an export of each older log version meant when
# its options named none: today's edition at the time it was written.
EDITION_OF_VERSION = {1: 1, 2: 2}


def _options_as_meant(version: int, game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """An older export's options as its rules read them: a Grimhand Arcana match that names
    no rules edition was played under the edition of its day (version 1: edition 1, arcana
    draws could follow each other; version 2: edition 2, no fatigue), which today's reader
    would otherwise take for today's edition."""
    edition = EDITION_OF_VERSION.get(version)
    if edition and game.slug == "grimhand" and options.get("variant") == "arcana":
        return {"edition": edition, **options}
    return options


def _game(slug: Any) -> Game:
    if not isinstance(slug, str) or slug not in registry.slugs():
        shown = json.dumps(slug)[:40]
        raise ExportRejected(f"There is no game {shown} here: the games are {_slugs()}.")
    return registry.get(slug)


def _slugs() -> str:
    return ", ".join(sorted(registry.slugs()))


def _commitment(value: Any) -> str:
    if not isinstance(value, str) or len(value) != 64 or not _is_hex(value):
        raise ExportRejected("The seed commitment must be 64 hex digits (a SHA-256).")
    return value.lower()


def _seed(value: Any) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 64 or not _is_hex(value):
        raise ExportRejected("The seed must be 64 hex digits (32 bytes), or null.")
    return bytes.fromhex(value)


def _is_hex(value: str) -> bool:
    return all(char in "0123456789abcdefABCDEF" for char in value)


def _moves(value: Any, seats: int) -> tuple[LoggedMove, ...]:
    if not isinstance(value, list):
        raise ExportRejected("The export's moves must be a JSON list.")
    if len(value) > MAX_MOVES:
        raise ExportRejected(f"That export has {len(value):,} moves; the limit is {MAX_MOVES:,}.")
    moves = []
    for expected, move in enumerate(value):
        if not isinstance(move, dict):
            raise ExportRejected(f"Move {expected} is not a JSON object.")
        ply, seat, payload = move.get("ply"), move.get("seat"), move.get("payload")
        if type(ply) is not int or ply != expected:
            raise ExportRejected(
                f"Moves must be numbered 0, 1, 2… in order: move {expected} says ply "
                f"{json.dumps(ply)[:20]}."
            )
        if type(seat) is not int or not 0 <= seat < seats:
            raise ExportRejected(f"Move {ply} names no seat of this match.")
        if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
            raise ExportRejected(f'Move {ply} is not a move: a JSON object with a "type".')
        moves.append(LoggedMove(ply, seat, payload))
    return tuple(moves)


def _forfeits(value: Any, seats: int) -> tuple[tuple[int, str], ...]:
    if not isinstance(value, list) or len(value) > seats:
        raise ExportRejected("The export's forfeits must be a list, one at most per seat.")
    forfeits = []
    for entry in value:
        seat = entry.get("seat") if isinstance(entry, dict) else None
        reason = entry.get("reason") if isinstance(entry, dict) else None
        if type(seat) is not int or not 0 <= seat < seats or reason not in FORFEIT_REASONS:
            raise ExportRejected(
                'Each forfeit is {"seat": <a seat>, "reason": "resign" or "timeout"}.'
            )
        forfeits.append((seat, reason))
    return tuple(forfeits)


def _outcome(value: Any) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise ExportRejected("The export's outcome must be a JSON object, or null.")
    return value


# --- checking -------------------------------------------------------------------------------


@dataclass
class Verification:
    """What checking an export found. `problems` empty and `is_complete`: verified."""

    log: MatchLog
    is_commitment_ok: bool = False
    plies_checked: int = 0
    replayed_outcome: dict[str, Any] | None = None
    is_outcome_ok: bool = False
    problems: list[str] = field(default_factory=list)
    state: Any = None  # the position at the ply asked for (None: not replayed)
    ply: int = 0
    log_events: list[tuple[int, int, list[Event]]] = field(default_factory=list)

    @property
    def is_replayable(self) -> bool:
        return self.log.seed is not None and not self.log.is_redacted

    @property
    def is_verified(self) -> bool:
        return self.is_replayable and not self.problems

    @property
    def summary(self) -> str:
        if self.log.seed is None:
            return (
                "This export carries no seed (the match is running, or a weekly run still "
                "private): it cannot be checked until the seed is revealed."
            )
        if not self.is_replayable:
            return "Some moves of this export are redacted: it cannot be replayed."
        if self.problems:
            return self.problems[0]
        moves = "move" if len(self.log.moves) == 1 else "moves"
        return (
            f"Verified: the seed is the one committed to, all {len(self.log.moves)} {moves} "
            "are legal, and the replay ends exactly as recorded."
        )


def export_verify(log: MatchLog, *, ply: int | None = None) -> Verification:
    """Replay the log from its seed and check it; keep the position after `ply` moves.

    `ply` defaults to the last position. Nothing is trusted: a move the engine cannot apply
    (even one that crashes it) is reported, never raised.
    """
    result = Verification(log=log)
    if not result.is_replayable:
        return result
    assert log.seed is not None
    result.is_commitment_ok = hashlib.sha256(log.seed).hexdigest() == log.commitment
    if not result.is_commitment_ok:
        result.problems.append(
            "The seed does not match the commitment: sha256(seed) is not the seed commitment, "
            "so this is not the deal the server committed to."
        )
        return result
    target = len(log.moves) if ply is None else max(0, min(ply, len(log.moves)))
    try:
        state = log.game.new(log.seats, log.seed, log.options)
    except InvalidOptions as error:
        result.problems.append(f"The match cannot start from these options: {error.message}")
        return result
    except Exception:  # untrusted options: never a crash
        result.problems.append("The match cannot start from these options.")
        return result
    result.state, result.ply = state, 0
    steps = replay_steps(log.game, state, ((move.seat, move.payload) for move in log.moves))
    for move in log.moves:
        try:
            state, events = next(steps)
        except IllegalMove as error:
            result.problems.append(f"Move {move.ply} (seat {move.seat}) is not legal: {error}")
            return result
        except Exception:  # an untrusted payload the engine chokes on is still illegal
            result.problems.append(f"Move {move.ply} (seat {move.seat}) is not a legal move.")
            return result
        result.plies_checked += 1
        if move.ply < target:
            result.log_events.append((move.ply, move.seat, events))
            result.state, result.ply = state, move.ply + 1
    _check_outcome(result, state)
    return result


def _check_outcome(result: Verification, state: Any) -> None:
    log = result.log
    outcome = log.game.outcome(state)
    if outcome is None and log.forfeits:
        seat, reason = log.forfeits[0]
        outcome = log.game.forfeit(state, seat, reason)
    result.replayed_outcome = outcome.to_json() if outcome is not None else None
    result.is_outcome_ok = _same_outcome(result.replayed_outcome, log.outcome)
    if not result.is_outcome_ok:
        result.problems.append(
            f"The recorded outcome ({_outcome_words(log.outcome)}) is not what the replay "
            f"reaches ({_outcome_words(result.replayed_outcome)})."
        )


def _same_outcome(replayed: dict[str, Any] | None, recorded: dict[str, Any] | None) -> bool:
    if replayed is None or recorded is None:
        return replayed is None and recorded is None
    keys = ("winners", "ranking", "reason", "scores")
    return all(replayed.get(key) == recorded.get(key) for key in keys)


def _outcome_words(outcome: Mapping[str, Any] | None) -> str:
    if not outcome:
        return "not over"
    winners = outcome.get("winners")
    if isinstance(winners, list) and winners:
        won = "seat " + " and ".join(str(seat) for seat in winners) + " won"
    else:
        won = "nobody won"
    return f"{won}, {str(outcome.get('reason', '?'))[:30]}"
