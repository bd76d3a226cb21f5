"""The ladder: every AI level against every other, with decision times per level.

- Levels run Easy→Hard (by default the levels offered to players, in the table's order);
  "oracle", Hard's search on the true state, is a benchmark level a ladder plays only
  when it is named.
- Two-seat games: each unordered pair of levels plays `matches` matches, the harder
  level (later in the list) as "a". Seats alternate and, with pairing, each deal is
  played once with each seat order (the same deals as `matches.simulate`), so every pair
  meets on the same deals too.
- Bigger tables (`seats` above 2): one seat of level "a" against the rest of level "b",
  the lone seat rotating round the table; both directions of each pair are played (a
  lone Hard among Normals is a different match from a lone Normal among Hards), so every
  cell of the table is measured. The lone seat's fair share is 1/seats. `one_way` plays
  only the lone harder level against the easier ones (one Hard and three Normals at
  Shield), a third of the cost.
- One-seat games: each level plays the same `matches` deals alone; the report gives each
  level's score distribution and, for each pair, the mean score difference per deal with
  a 95% interval (paired on the deal, so the luck of the deal cancels out).

Invariants (the standard library, `games.engine` and `games.ai` only):
- Decision time is measured around each bot's `choose` call only (never the engine), per
  level over every move it made in the run: mean and p95 (nearest rank) in milliseconds.
- Everything but the timings and the wall time is reproducible from the seed.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai import levels
from games.ai.base import Bot
from games.ai.play import play_match
from games.ai.simulation.deals import deal_index, match_seed, seat_order
from games.ai.simulation.stats import mean_interval, score_distribution, timing, wilson_interval
from games.engine.core import Chance, Game, Move


class TimedBot:
    """A bot that appends the seconds each of its inner bot's decisions took to `samples`.

    It passes through whatever `play_match` hands the bot (extra keyword arguments such as
    a determinization sampler) and forwards every other attribute, `wants_samples`
    included, so the wrapped bot plays exactly as it would unwrapped.
    """

    def __init__(self, bot: Bot, samples: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.samples = samples

    def __getattr__(self, attribute: str) -> Any:
        if attribute == "bot":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(attribute)
        return getattr(self.bot, attribute)

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        **extra: Any,
    ) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(game, view, legal_moves, chance, **extra)
        self.samples.append(time.perf_counter() - started)
        return move


def pairings(names: Sequence[str], seats: int, one_way: bool = False) -> list[tuple[str, str]]:
    """(a, b) pairs to play: harder level first; both ways round above two seats."""
    pairs = []
    for high in range(len(names)):
        for low in range(high):
            pairs.append((names[high], names[low]))
            if seats > 2 and not one_way:
                pairs.append((names[low], names[high]))
    return pairs


def ladder(
    game: Game,
    names: Sequence[str],
    *,
    seats: int,
    matches: int,
    seed: int,
    max_plies: int,
    paired: bool = True,
    one_way: bool = False,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play the ladder of the levels `names` and tally it.

    `options` are the match options every deal is played with (the game's defaults if None).
    """
    started = time.perf_counter()
    variant = (options or {}).get("variant")  # a game variant's own search (Arcana)
    samples: dict[str, list[float]] = {name: [] for name in names}
    report: dict[str, Any] = {
        "game": game.slug,
        "levels": list(names),
        "seats": seats,
        "matches_per_pair": matches,
        "seed": seed,
        "paired": paired and seats > 1,
        "one_way": one_way and seats > 2,
        "options": dict(options or {}),
        "searches": {name: levels.get(name).describe(game.slug, variant) for name in names},
        "pairs": [],
    }
    if seats == 1:
        report.update(solo_runs(game, names, matches, seed, max_plies, samples, options))
    else:
        report["pairs"] = [
            play_pair(game, a, b, seats, matches, seed, max_plies, paired, samples, options)
            for a, b in pairings(names, seats, one_way)
        ]
    report["decision_ms"] = {name: timing(samples[name]) for name in names}
    report["wall_seconds"] = round(time.perf_counter() - started, 3)
    return report


def _timed(game: Game, name: str, samples: dict[str, list[float]]) -> TimedBot:
    return TimedBot(levels.get(name).bot(game.slug), samples[name])


def play_pair(
    game: Game,
    a: str,
    b: str,
    seats: int,
    matches: int,
    seed: int,
    max_plies: int,
    paired: bool,
    samples: dict[str, list[float]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One seat of level `a` against `seats - 1` of level `b`, the lone seat rotating."""
    names = [a] + [b] * (seats - 1)
    a_wins = b_wins = draws = unfinished = total_plies = 0
    for index in range(matches):
        order = seat_order(seats, index, rotate=True)
        bots: list[Bot] = [_timed(game, names[k], samples) for k in order]
        deal = match_seed(seed, deal_index(seats, index, paired))
        state, plies, _moves = play_match(game, deal, bots, options, max_plies=max_plies)
        total_plies += plies
        outcome = game.outcome(state)
        a_seat = order.index(0)
        a_won = outcome is not None and a_seat in outcome.winners
        b_won = outcome is not None and any(seat != a_seat for seat in outcome.winners)
        if outcome is None:
            unfinished += 1
        elif a_won and not b_won:
            a_wins += 1
        elif b_won and not a_won:
            b_wins += 1
        else:  # nobody won, or a shared win across the two levels
            draws += 1
    return {
        "a": a,
        "b": b,
        "a_wins": a_wins,
        "b_wins": b_wins,
        "draws": draws,
        "unfinished": unfinished,
        "a_share": round(a_wins / matches, 4),
        "ci95": [round(bound, 4) for bound in wilson_interval(a_wins, matches)],
        "mean_plies": round(total_plies / matches, 2),
    }


def solo_runs(
    game: Game,
    names: Sequence[str],
    matches: int,
    seed: int,
    max_plies: int,
    samples: dict[str, list[float]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-seat game: each level plays the same deals; scores and paired differences."""
    runs: dict[str, Any] = {}
    scores_by_level: dict[str, list[int | None]] = {}
    for name in names:
        scores: list[int | None] = []
        endings: dict[str, int] = {}
        completed = unfinished = total_plies = 0
        for index in range(matches):
            bots: list[Bot] = [_timed(game, name, samples)]
            state, plies, _moves = play_match(
                game, match_seed(seed, index), bots, options, max_plies=max_plies
            )
            total_plies += plies
            outcome = game.outcome(state)
            if outcome is None:
                unfinished += 1
                scores.append(None)
                continue
            completed += bool(outcome.winners)
            endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
            scores.append(outcome.scores[0] if outcome.scores is not None else None)
        scores_by_level[name] = scores
        runs[name] = {
            "scores": score_distribution([score for score in scores if score is not None]),
            "completed": completed,
            "completed_share": round(completed / matches, 4),
            "endings": dict(sorted(endings.items())),
            "unfinished": unfinished,
            "mean_plies": round(total_plies / matches, 2),
        }
    differences = []
    for a, b in pairings(names, 1):
        deltas = [
            first - second
            for first, second in zip(scores_by_level[a], scores_by_level[b], strict=True)
            if first is not None and second is not None
        ]
        differences.append({"a": a, "b": b, "runs": len(deltas), **mean_interval(deltas)})
    return {"runs": runs, "score_differences": differences}
