"""Grimhand Tactics (rules/grimhand-tactics.md): draw from an attack or a defense deck, or
attack with every attack card; a 13 kills unless a Lucky 7 saves you.

Decisions are in docs/rules/grimhand.md. The package splits by sub-domain:
- `state`: the card vocabulary, the per-match `Setup` and the immutable `GrimhandState`;
- `options`: match options and fixed deals, validated into the first state;
- `rules`: the `Grimhand` game object (legal moves, `apply`, outcome);
- `view`: what each seat may know (views, the attack preview, `sample_hidden`).
"""

from games.engine.grimhand.rules import Grimhand
from games.engine.grimhand.state import GrimhandState, Setup

__all__ = ["Grimhand", "GrimhandState", "Setup"]
