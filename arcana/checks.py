"""The admin's "check with the engine": AI matches with a card in the pool, and what they
say of it (a balancing aid, not a verdict).

The matches are the balance report's (games.ai.simulation.balance, the same code as
`manage.py simulate grimhand --options '{"variant": "arcana"}' --balance`): Normal against
Normal, deals in pairs with the seats swapped, each seat a random legal deck from the pool.
The pool is the enabled cards with the checked card as it is now (disabled or not). Its
play rate is the share of the seats whose deck held it that played it; its win-rate
effect the win share of those seats minus that of the seats without it, with a 95%
interval. `CHECK_MATCHES` keeps the action within a few seconds, so the interval is wide:
a hint, where the full report (thousands of matches) is the measure.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from arcana import selectors
from arcana.engine import card_problem, text_of
from arcana.models import ArcanaCard
from games.ai.simulation.balance import balance
from games.engine import registry

CHECK_MATCHES = 100  # about a second on one core (measured: 40 in 0.14 s)
CHECK_LEVELS = ("normal", "normal")
MAX_PLIES = 2_000
MAX_CARDS = 5  # cards one action checks (each takes a few seconds)


@dataclass(frozen=True)
class CardCheck:
    card: ArcanaCard
    problem: str | None
    row: dict[str, Any] | None = None
    matches: int = 0
    seconds: float = 0.0

    @property
    def is_valid(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        name = f"“{self.card.name}” ({self.card.card_id})"
        if self.problem:
            return f"{name} cannot be played: {self.problem}"
        row = self.row or {}
        if not row.get("in_decks"):
            return f"{name} is valid, but no deck held it in {self.matches} AI matches."
        delta, interval = row["delta"], row["ci95"]
        effect = (
            "win-rate effect unknown (every seat held it)"
            if delta is None
            else f"win rate {100 * delta:+.1f} points with it "
            f"(95% interval {100 * interval[0]:+.0f} to {100 * interval[1]:+.0f})"
        )
        return (
            f"{name} is valid. Over {self.matches} AI matches (Normal v Normal, "
            f"{self.seconds:.1f} s): in {row['in_decks']} decks, played by "
            f"{100 * (row['play_rate'] or 0):.0f}% of them ({row['plays']} plays); {effect}."
        )


def check_pool(card: ArcanaCard) -> list[dict[str, Any]]:
    """The enabled pool with `card` as it stands now in it."""
    pool = [c for c in selectors.pool_cards() if c["id"] != card.card_id]
    mine = card.to_engine_card()
    mine["text"] = mine.get("text") or text_of(mine)
    return sorted([*pool, mine], key=lambda c: c["id"])


def card_check(*, card: ArcanaCard, matches: int = CHECK_MATCHES) -> CardCheck:
    """Validate `card` with the engine, then play `matches` AI matches with it in the pool.
    Seeds come from the card's id, so a check is repeatable."""
    problem = card_problem(card.to_engine_card())
    if problem:
        return CardCheck(card, problem)
    seed = int.from_bytes(hashlib.sha256(f"arcana-check/{card.card_id}".encode()).digest()[:8])
    report = balance(
        registry.get("grimhand"),
        CHECK_LEVELS,
        matches=matches,
        seed=seed,
        max_plies=MAX_PLIES,
        options={"variant": "arcana", "pool": check_pool(card)},
    )
    row = next((r for r in report["cards"] if r["card"] == card.card_id), None)
    return CardCheck(card, None, row, matches, report["wall_seconds"])
