"""Everything that follows a change to a match, in order: the one place that names it.

The services (`games.services`) call these functions inside the transaction that made the
change, with the match row locked. Read this module top to bottom to know what a move, a
resignation, a timeout, a new table or a pause sets off; nothing else reacts to a change
(no Django signals).

Inside the transaction (commits or rolls back with the change itself):
1. `match_finished`, in the order `HOOKS` names: the rating (`ratings.services.match_rate`),
   then progression's credit (XP, coins, quests, achievements:
   `progression.services.match_result_record`), then Arcana's PvE fight record and
   first-clear reward (`arcana.pve.fight_result_record`). Each runs exactly once per match
   and player, each in its own savepoint so that a bug there is logged and never undoes
   the result.
Those apps stand above `games`, which imports none of them: each hands its step to
`hook_register` from its `AppConfig.ready`, into the slot `HOOKS` names for it here.

After the commit (`transaction.on_commit(robust=True)`: each may fail, be lost or run twice
without harm; a failure is logged, never an error for what was committed). During a request
they wait for its answer to go out (`config.after_response`): a move's answer is the
mover's board, drawn first, and the rest follows in the same thread a moment later.
2. `match_changed`: the socket pushes (each connected seat its own board, spectators theirs
   when someone watches), then the AI / auto-play task when an automatic seat is to act.
   A result's credit (step 1) is committed before these run, so the board pushed at the
   end shows what the match earned, with the player's header level bar out of band
   (`games.rendering.board_html`).
3. `turn_ended`, a hook (`HOOKS`): the seat's "your turn" notices until its turn ended stop
   counting as unread (`inbox.services.turn_ended`);
4. inbox notices and reminders, sent by task name (`task_send`: inbox sits above games):
   `match_finished` (the result), `turn_started` (the "your turn" reminder, for a player
   who does not have the match open), `seat_invited`, `pause_requested`, `match_ruled` (an
   admin aborted or adjudicated the match: why).

The services call `match_changed` before `match_finished` and the clock's `turn_*`, so the
after-commit work runs in the order above: pushes, the AI task, then the inbox's.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable
from typing import Any

from django.db import transaction

from config.after_response import after_response
from config.celery_app import task_send

# Set while automatic seats are being played in a loop, so each move's after-commit step
# does not start another loop (with eager Celery that would recurse once per move).
automation_running: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "automation", default=False
)


def _after_commit(step: Callable[..., Any], *, timed: bool = False) -> None:
    """Run `step` once the change is committed and, during a request, once its answer has
    gone out (config.after_response): the player who moved has their board first. `timed`:
    `step` gets the commit's moment (`time.perf_counter()`) as `committed_at`."""

    def committed() -> None:
        if timed:
            at = time.perf_counter()
            after_response(lambda: step(committed_at=at))
        else:
            after_response(step)

    transaction.on_commit(committed, robust=True)


# --- hooks: what apps above `games` do at a step ----------------------------------------------

# Each step's hooks, named in the order they run: the one list of what an app above `games`
# does at a change. `games` imports none of these apps (no import circle, no arrow back up):
# each registers its hook under its name here, in its AppConfig.ready. A slot with no hook
# (an app not installed) is skipped; `tests/architecture/test_hooks.py` checks every slot is
# filled on the site.
HOOKS: dict[str, tuple[str, ...]] = {
    # hook(match=...): the match (locked, just saved as finished) has a result.
    "match_finished": ("ratings.rate", "progression.credit", "arcana.pve"),
    # hook(match=..., seat=..., ended=...): a seat's turn ended at `ended`; after the commit.
    "turn_ended": ("inbox.turn_notices",),
}
HOOK_STEPS = tuple(HOOKS)
_hooks: dict[str, dict[str, Callable[..., None]]] = {step: {} for step in HOOK_STEPS}


def hook_register(step: str, name: str, hook: Callable[..., None]) -> None:
    """Run `hook` at `step` in the slot `HOOKS` names `name`: inside the change's
    transaction ("match_finished"), or once it is committed ("turn_ended").

    The hook's contract is its step's. Inside the transaction: the Match row is locked;
    never raise (do the work in a savepoint of your own, log a failure and retry after the
    commit); write at most once per change. After the commit: a failure is logged, and the
    change stands. Registering a name again replaces its hook (`ready` may run twice)."""
    if step not in HOOKS:
        raise ValueError(f"No step {step!r} to hook into (the steps: {', '.join(HOOK_STEPS)}).")
    if name not in HOOKS[step]:
        raise ValueError(
            f"No slot {name!r} at {step!r}: name it in games.effects.HOOKS, where its order is"
            f" decided (the slots: {', '.join(HOOKS[step])})."
        )
    _hooks[step][name] = hook


def hooks(step: str) -> list[str]:
    """The names of the hooks registered at `step`, in the order they run."""
    return [name for name in HOOKS[step] if name in _hooks[step]]


def _run(step: str, **kwargs: Any) -> None:
    for name in HOOKS[step]:
        hook = _hooks[step].get(name)
        if hook is not None:
            hook(**kwargs)


# --- 1. a result (inside the transaction) -----------------------------------------------------


def match_finished(*, match: Any) -> None:
    """The match (locked, just saved as finished) has a result: its rating, its credit and
    Arcana's fight record (`HOOKS`), then the result notices after the commit."""
    _run("match_finished", match=match)
    match_id = match.pk
    _after_commit(lambda: task_send("inbox.tasks.notify_finished", match_id))


# --- 2. turns (the notices settled and the reminders, after the commit) ----------------------


def turn_ended(*, match: Any, seat: Any, ended: Any) -> None:
    """`seat`'s turn ended at `ended` (it moved, or no longer acts): once that is committed,
    the "turn_ended" hooks (inbox: the seat's turn notices until then are no longer news)."""
    _after_commit(lambda: _run("turn_ended", match=match, seat=seat, ended=ended))


def turn_started(*, match: Any, seat: Any) -> None:
    """`seat`'s clock has started: remind its player once the change is committed, unless
    the player has the match open. A player looking at the board sees the turn; should they
    leave without moving, the beat's scan (`inbox.services.reminders_send_due`, every
    minute) reminds them then. So a live game costs no task per move. Never in a solo run;
    against the AI only, never at once: the AI answers in a moment, and the beat reminds a
    player who left the board a minute on (`inbox.centre`)."""
    from games import presence, selectors

    if seat.is_ai or seat.user_id is None or seat.turn_started is None:
        return
    if selectors.is_solo(match=match) or selectors.is_against_ai_only(
        match=match, user_id=seat.user_id
    ):
        return  # a solo run: never; against the AI: the beat's, a minute on, if not looking
    seat_id, user_id, match_id = seat.pk, seat.user_id, match.pk
    started = seat.turn_started.isoformat()

    def remind() -> None:
        if not presence.is_present(user_id=user_id, match_id=match_id):
            task_send("inbox.tasks.remind_turn", seat_id, started)

    _after_commit(remind)


# --- 3. every change (after the commit) -------------------------------------------------------


def match_changed(*, match: Any, mover_page: str = "") -> None:
    """Anything on the match's boards changed: push them, then let automatic seats play.
    `mover_page`: the socket of the page whose move made the change, which has its new
    board as the answer (`notifications.match_changed`)."""

    # The pushes' lag is counted from the commit (config.metrics).
    _after_commit(
        lambda committed_at: _push_and_advance(
            match, committed_at=committed_at, mover_page=mover_page
        ),
        timed=True,
    )


def _push_and_advance(match: Any, *, committed_at: float, mover_page: str) -> None:
    from games import notifications, selectors

    if "seats" not in getattr(match, "_prefetched_objects_cache", {}):
        # The move path hands over the match it locked, with the very seats it changed;
        # other paths change seats through their own queries: read them as committed.
        match = selectors.match_get(match_id=match.pk)
        if match is None:
            return
    notifications.match_changed(match=match, committed_at=committed_at, mover_page=mover_page)
    if automation_running.get():
        return
    if match.status == match.Status.ACTIVE and selectors.automatic_seat_to_act(match=match):
        task_send("games.tasks.advance_automatic_seats", match.pk)


# --- 4. tables and pauses (notices after the commit) ------------------------------------------


def seat_invited(*, match: Any, seat: Any) -> None:
    """A named player was invited to a seat (a new table or a rematch)."""
    seat_id = seat.pk
    _after_commit(lambda: task_send("inbox.tasks.notify_invitation", seat_id))


def pause_requested(*, match: Any, seat: Any) -> None:
    """A player asked to pause; the others must agree."""
    match_id, votes, asked_at = match.pk, match.pause_votes, match.updated.isoformat()
    _after_commit(lambda: task_send("inbox.tasks.notify_pause", match_id, votes, asked_at))


# --- 5. an admin's ruling (notices after the commit) -------------------------------------------


def match_ruled(*, match: Any) -> None:
    """An admin aborted or adjudicated the match (games.services.adjudication): each player
    hears what was decided and why. An adjudicated result has already gone through
    `match_finished` (ratings, progression, the result notice); an aborted match is
    cancelled: unrated, no credit, nothing else follows."""
    match_id = match.pk
    _after_commit(lambda: task_send("inbox.tasks.notify_ruled", match_id))
