"""Grimhand Arcana's heuristic for the greedy bot (Normal) and the house's policies.

One move ahead, from the seat's view only, in one unit: HP (an HP of damage dealt is +1,
one lost is -1, the match is `Policy.win`). A main action (draw or attack) ends the turn,
so it is scored as the position it leaves:
- attack: the expected damage through the opponent's defense (its hidden defense cards
  modelled from their public count: mean `MEAN_CARD`, variance `CARD_VARIANCE`, a normal
  approximation), plus the chance that it kills times `win`; lines, combo, Blood Pact,
  Weakness, Fortify and Expose as the view shows them;
- a draw: what the attack total will be worth later (`patience` times its expected
  damage), less the chance of a Death card (the public deaths_left/count, or exactly what a
  Scrying Orb showed) times `death` (`lucky_death` with a Lucky card in the slot), plus,
  for a defense card, how much it lowers the damage and the kill chance of the
  opponent's next attack (modelled from its public counts and lines), and for an arcana
  card (no Death there) the worth of one more ability card.
An ability play does not end the turn and unspent energy is lost at its end, so a play is
worth making when its effect beats keeping the card (`_gain`): every play with a gain is
scored above every main action (`PLAY`), best gain first; the rest below. A nearly full
ability hand (it blocks the safe arcana draw) makes any play worth `clog` more.
Choices: a Scrying Orb's order puts the best card on top and a Death card second (for the
opponent's next draw); a swap gives the lowest card; a discard drops the weakest card.

Policies are weights (`POLICIES`): Normal, the archetypes Aggressive (attacks sooner,
fears less), Defensive (guards, heals) and Gambler (draws and plays the chance cards), and
the boss. Pure: the standard library and `games.engine` only; a view in, a number out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engine.core import Move
from games.engine.grimhand.arcana.state import COMBO_BONUS, COMBO_STREAK, DEATH, LUCKY

NORMAL = "normal"
MEAN_CARD = 6.5  # the mean numbered card (1-12)
CARD_VARIANCE = 12.0
PLAY = 10_000.0  # a play worth making comes before any main action
ABILITY_HAND_LIMIT = 5


@dataclass(frozen=True)
class Policy:
    """The weights of one way of playing Arcana (HP units)."""

    key: str
    win: float = 60.0  # the match, in HP
    death: float = 45.0  # a Death card with an empty Lucky slot
    lucky_death: float = 9.0  # a Death card that takes the Lucky card instead
    patience: float = 0.72  # what damage still to be dealt is worth against damage now
    threat: float = 0.6  # the weight of the opponent's next attack
    arcana: float = 3.5  # one more ability card in hand
    hold: float = 0.5  # keeping an ability card rather than playing it for nothing
    strip: float = 0.5  # per opponent defense card an attack sends to the discard
    gamble: float = 0.0  # a liking for the chance cards (Gamble, Surge, Fate Twist, Swap)
    build: float = 0.0  # the least an attack card is worth: walls fall to many cards
    impatience: int = 80  # after this many own turns, Death weighs less and less
    clog: float = 2.0  # playing any card out of a (nearly) full ability hand


POLICIES: dict[str, Policy] = {
    policy.key: policy
    for policy in (
        Policy(NORMAL),
        Policy("aggressive", death=38.0, patience=0.6, threat=0.35, strip=0.8, arcana=2.5),
        Policy("defensive", patience=0.8, threat=1.0, death=50.0, arcana=3.0),
        Policy("gambler", death=30.0, lucky_death=6.0, arcana=5.0, gamble=3.0, hold=0.2),
        Policy("boss", patience=0.68, threat=0.7, death=48.0),
    )
}


def evaluator(policy: str) -> Callable[[dict[str, Any], Move], float]:
    """The evaluate(view, move) of the policy `policy` (ValueError for an unknown one)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown Arcana policy {policy!r} (known: {', '.join(POLICIES)})")
    weights = POLICIES[policy]

    def evaluate(view: dict[str, Any], move: Move) -> float:
        return score(weights, _situation(view), move)

    return evaluate


# --- What the view says, worked out once per view --------------------------------------------


@dataclass(frozen=True)
class Situation:
    view: dict[str, Any]
    seat: int
    me: dict[str, Any]
    them: dict[str, Any]
    attack: float  # my attack total if I attack now (0: I cannot)
    can_attack: bool
    defense_mean: float  # the opponent's defense against it
    defense_variance: float
    threat_mean: float  # the opponent's next attack on me
    threat_variance: float
    guard: float  # my defense against it
    my_status: Mapping[str, int]
    their_status: Mapping[str, int]


_last: list[Any] = [None, None]  # (view, its Situation): the view object is kept alive


def _situation(view: dict[str, Any]) -> Situation:
    if _last[0] is view:
        situation: Situation = _last[1]
        return situation
    situation = _work_out(view)
    _last[0], _last[1] = view, situation
    return situation


def _statuses(player: Mapping[str, Any]) -> dict[str, int]:
    return {entry["key"]: int(entry["amount"]) for entry in player["statuses"]}


def _line_value(view: Mapping[str, Any], player: Mapping[str, Any], line: str) -> int:
    cards = view["cards"]
    return sum(int(cards[card]["value"]) for card in player["lines"][line] if card in cards)


def _work_out(view: dict[str, Any]) -> Situation:
    seat = view["seat"]
    me, them = view["players"][seat], view["players"][1 - seat]
    mine, theirs = _statuses(me), _statuses(them)
    preview = view["preview"]
    attack = float(preview["attack_total"]) if preview else 0.0
    attack += _line_bonus(view, me)
    unknown = them["hand_count"]["defense"]
    known = float(preview["defense_known"]) if preview else 0.0
    if not preview:
        known = _line_value(view, them, "defense") + them["modifiers"]["defense"]
    mean = known + unknown * MEAN_CARD + theirs.get("fortify", 0)
    variance = unknown * CARD_VARIANCE
    if "expose" in theirs:
        keep = 1 - theirs["expose"] / 100
        mean, variance = mean * keep, variance * keep * keep
    cards = them["hand_count"]["attack"]
    threat = (
        cards * MEAN_CARD
        + them["modifiers"]["attack"]
        + _line_value(view, them, "attack")
        + theirs.get("pact", 0)
        - theirs.get("weakness", 0)
        + (COMBO_BONUS if them["streak"] >= COMBO_STREAK else 0)
    )
    if not (cards or them["lines"]["attack"]):
        threat = MEAN_CARD * 0.5  # nothing to attack with yet: a card or two away
    hand = me["hand"]["defense"] or []
    guard = (
        sum(hand)
        + me["modifiers"]["defense"]
        + _line_value(view, me, "defense")
        + mine.get("fortify", 0)
    )
    return Situation(
        view=view,
        seat=seat,
        me=me,
        them=them,
        attack=attack,
        can_attack=preview is not None,
        defense_mean=max(0.0, mean),
        defense_variance=variance,
        threat_mean=max(0.0, threat),
        threat_variance=(cards + 1) * CARD_VARIANCE,
        guard=float(guard),
        my_status=mine,
        their_status=theirs,
    )


def _line_bonus(view: Mapping[str, Any], me: Mapping[str, Any]) -> float:
    """What my attack line's clash effects add that the preview leaves out (Chain Slash)."""
    cards = view["cards"]
    line = me["lines"]["attack"]
    count = len(line) + me["hand_count"]["attack"]
    bonus = 0.0
    for card_id in line:
        card = cards.get(card_id)
        if card is not None and card["effect"] == "chain":
            bonus += card["params"]["bonus"] * max(0, count - 1)
    return bonus


# --- The normal approximation ---------------------------------------------------------------


def _at_least(margin: float, variance: float) -> float:
    """P(X >= 0) for X with mean `margin` and `variance` (exact when the variance is 0)."""
    if variance <= 0:
        return 1.0 if margin >= 0 else 0.0
    return 0.5 * math.erfc(-(margin + 0.5) / math.sqrt(2 * variance))


def _expected_excess(margin: float, variance: float) -> float:
    """E[max(0, X)] for X normal with mean `margin` and `variance`."""
    if variance <= 0:
        return max(0.0, margin)
    spread = math.sqrt(variance)
    z = margin / spread
    density = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    return margin * 0.5 * math.erfc(-z / math.sqrt(2)) + spread * density


def _damage(s: Situation, attack: float) -> float:
    return _expected_excess(attack - s.defense_mean, s.defense_variance)


def _incoming(s: Situation, policy: Policy, guard: float) -> float:
    """The weighted harm of the opponent's next attack against my defense `guard`."""
    margin = s.threat_mean - guard
    harm = _expected_excess(margin, s.threat_variance)
    kill = _at_least(margin - s.me["hp"], s.threat_variance)
    return policy.threat * (harm + kill * policy.win * 0.5)


# --- Moves -------------------------------------------------------------------------------------


def score(policy: Policy, s: Situation, move: Move) -> float:
    kind = move["type"]
    if kind == "attack":
        return _attack(policy, s)
    if kind == "draw":
        return _draw(policy, s, move["deck"])
    if kind == "play":
        gain = _gain(policy, s, move)
        return PLAY + gain if gain > 0 else -PLAY + gain
    if kind == "choose":
        return _choice(s, move)
    return 0.0  # pass: only ever the one legal move


def _attack(policy: Policy, s: Situation) -> float:
    attack = s.attack
    cards = s.view["cards"]
    for card_id in s.me["lines"]["attack"]:
        card = cards.get(card_id)
        if card and card["effect"] == "berserk" and attack < s.defense_mean:
            attack += card["value"] * (card["params"]["multiplier"] - 1) * 0.7
    margin = attack - s.defense_mean
    kill = _at_least(margin - s.them["hp"], s.defense_variance)
    damage = _damage(s, attack)
    blocked = 1 - _at_least(margin - 1, s.defense_variance)
    for card_id in s.me["lines"]["attack"]:
        card = cards.get(card_id)
        if card and card["effect"] == "cursed":
            damage -= blocked * card["params"]["self_damage"]
        if card and card["effect"] == "bleed":
            damage += (1 - blocked) * card["params"]["amount"] * card["params"]["turns"] * 0.8
    damage -= _counter_risk(s, blocked)
    strip = policy.strip * s.them["hand_count"]["defense"]
    score = kill * policy.win * 3 + (1 - kill) * (damage + strip)
    return float(score - _incoming(s, policy, s.guard))


def _counter_risk(s: Situation, blocked: float) -> float:
    cards = s.view["cards"]
    return float(
        sum(
            blocked * cards[card]["params"]["damage"]
            for card in s.them["lines"]["defense"]
            if card in cards and cards[card]["effect"] == "counter"
        )
    )


def _death_risk(policy: Policy, s: Situation, deck: str) -> float:
    """The expected cost of the Death card the next draw from `deck` may be."""
    pile = s.view["decks"][deck]
    known = pile["known_top"]
    if known:
        chance = 1.0 if known[0] == DEATH else 0.0
    elif pile["count"]:
        chance = pile["death_chance"]
    else:
        discard = pile["discard"]
        chance = discard.count(DEATH) / len(discard) if discard else 0.0
    cost = policy.lucky_death if s.me["lucky"] else policy.death
    return chance * cost * _late(policy, s)


def _late(policy: Policy, s: Situation) -> float:
    """1, falling after `impatience` own turns: a long match must not stall on safe draws."""
    late = s.me["turns_taken"] - policy.impatience
    return 1.0 if late <= 0 else policy.impatience / (policy.impatience + 2 * late)


def _next_card(s: Situation, deck: str) -> float:
    """The value the next card from `deck` will add (what a Scrying Orb showed, if any)."""
    known = s.view["decks"][deck]["known_top"]
    if known and known[0] != DEATH:
        value = float(known[0])
        if value == LUCKY and not s.me["lucky"]:
            return 0.0  # it goes to the Lucky slot
        return value
    return MEAN_CARD


def _draw(policy: Policy, s: Situation, deck: str) -> float:
    combo = COMBO_BONUS if s.me["streak"] >= COMBO_STREAK else 0
    later = s.attack - combo  # any draw but an attack card breaks the streak
    guard = s.guard
    if deck == "arcana":
        held = s.me["arcana_count"]
        worth = policy.arcana * (1 - held / (ABILITY_HAND_LIMIT + 1)) + policy.gamble * 0.3
        if not s.me["arcana_deck_count"]:
            worth *= 0.5  # only the spent cards again, reshuffled
        worth *= _late(policy, s)
        return float(policy.patience * _damage(s, later) + worth - _incoming(s, policy, guard))
    risk = _death_risk(policy, s, deck)
    card = _next_card(s, deck) - s.my_status.get("hex", 0)
    full = len(s.me["hand"][deck] or []) >= s.view["options"]["hand_limit"]
    if deck == "attack":
        card -= s.my_status.get("mist", 0)
        if full:
            card -= min(s.me["hand"]["attack"])
        streak = s.me["streak"] + 1
        later = s.attack - combo + card + (COMBO_BONUS if streak >= COMBO_STREAK else 0)
    else:
        card += s.my_status.get("guardian", 0)
        if full:
            card -= min(s.me["hand"]["defense"])
        guard += max(0.0, card)
    value = policy.patience * _damage(s, later) - risk - _incoming(s, policy, guard)
    if deck == "attack":
        build = policy.build + 2.0 * (1 - _late(policy, s))  # late: build up and break walls
        value = max(value, policy.patience * _damage(s, s.attack - combo) + build - risk)
    return value


# --- Ability plays ---------------------------------------------------------------------------


def _gain(policy: Policy, s: Situation, move: Move) -> float:
    """What playing the card now is worth over keeping it (> 0: play it)."""
    card = _card(s, move["card"])
    if card is None:
        return -1.0
    value = card["value"]
    worth = _EFFECT_WORTH.get(card["effect"])
    gain = worth(policy, s, card, move) if worth is not None else 0.0
    if card["slot"] == "attack":
        gain += policy.patience * (_damage(s, s.attack + value) - _damage(s, s.attack)) + 0.5
    elif card["slot"] == "defense":
        gain += _incoming(s, policy, s.guard) - _incoming(s, policy, s.guard + value) + 0.5
    if s.me["arcana_count"] >= ABILITY_HAND_LIMIT - 1:
        gain += policy.clog  # a full ability hand cannot draw: spend a card now
    return gain - policy.hold


def _card(s: Situation, card_id: str) -> dict[str, Any] | None:
    card: dict[str, Any] | None = s.view["cards"].get(card_id)
    return card


def _pierce(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    cut = s.defense_mean * card["params"]["percent"] / 100
    return policy.patience * (_damage(s, s.attack + cut) - _damage(s, s.attack))


def _chain(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    others = len(s.me["lines"]["attack"]) + s.me["hand_count"]["attack"]
    return float(policy.patience * card["params"]["bonus"] * others)


def _cursed(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    blocked = 1 - _at_least(s.attack + card["value"] - s.defense_mean - 1, s.defense_variance)
    return float(-blocked * card["params"]["self_damage"])


def _bleed(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    hits = _at_least(s.attack + card["value"] - s.defense_mean - 1, s.defense_variance)
    return float(policy.patience * hits * card["params"]["amount"] * card["params"]["turns"] * 0.8)


def _threat_cut(policy: Policy, s: Situation, amount: float) -> float:
    return _incoming(s, policy, s.guard) - _incoming(s, policy, s.guard + amount)


def _mist(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return 0.5 * _threat_cut(policy, s, card["params"]["amount"])


def _guardian(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return float(0.4 * card["params"]["amount"])


def _carryover(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return float(0.3 * card["value"] * card["params"]["percent"] / 100)


def _counter(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return float(0.3 * card["params"]["damage"])


def _shamrock(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    healed = min(card["params"]["heal"], s.me["max_hp"] - s.me["hp"])
    return float(policy.death - policy.lucky_death - 20 + healed)  # the slot: a saved match


def _blessing(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return float(min(card["params"]["heal"], s.me["max_hp"] - s.me["hp"])) - 1.0


def _pact(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    if not s.can_attack or s.me["hp"] <= card["params"]["hp_cost"] + 10:
        return -5.0
    boost = _damage(s, s.attack + card["value"]) - _damage(s, s.attack)
    cost = card["params"]["hp_cost"]
    return float(policy.patience * boost - cost + (2.0 if policy.gamble else 0))


def _weakness(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    if "weakness" in s.their_status:
        return -1.0
    return _threat_cut(policy, s, card["params"]["amount"])


def _hex(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return -1.0 if "hex" in s.their_status else 0.35 * card["params"]["amount"] + 0.3


def _mirror(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    if "mirror" in s.my_status:
        return -1.0
    harm = _expected_excess(s.threat_mean - s.guard, s.threat_variance)
    return float(harm * card["params"]["percent"] / 100 * 1.5 * policy.threat)


def _doom(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return -1.0 if s.them["lucky"] or "doom" in s.their_status else 1.5


def _scry(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    pile = s.view["decks"][move["deck"]]
    face_up = pile["face_up"]  # the top everyone sees (edition 3): the orb shows the rest
    if len(pile["known_top"]) > face_up:
        return -1.0  # scried already
    below = pile["count"] - face_up
    draws = max(0, min(card["params"]["count"] - face_up, below))
    deaths_below = pile["deaths_left"] - pile["known_top"][:face_up].count(DEATH)
    worth = (deaths_below / below * draws * policy.death * 0.5 if draws else 0.0) + 0.5
    return float(worth + (0.5 if move["deck"] == "attack" else 0.0))


def _twist(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return policy.gamble - 1.0


def _draws(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    room = ABILITY_HAND_LIMIT - (s.me["arcana_count"] - 1)
    return (policy.arcana + policy.gamble) * min(1, room - 1) * 0.8 if room > 1 else -1.0


def _swap(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    return policy.gamble * 0.5 - 1.0


def _purge(policy: Policy, s: Situation, card: Mapping[str, Any], move: Move) -> float:
    deck, value = move["deck"], move["value"]
    return float((MEAN_CARD - value) * 0.6 - _death_risk(policy, s, deck) - 1.0)


_Worth = Callable[[Policy, Situation, Mapping[str, Any], Move], float]
_EFFECT_WORTH: dict[str, _Worth] = {
    "pierce": _pierce,
    "chain": _chain,
    "cursed": _cursed,
    "bleed": _bleed,
    "mist": _mist,
    "guardian": _guardian,
    "carryover": _carryover,
    "counter": _counter,
    "shamrock": _shamrock,
    "blessing": _blessing,
    "pact": _pact,
    "weakness": _weakness,
    "hex": _hex,
    "mirror": _mirror,
    "doom": _doom,
    "scry": _scry,
    "twist": _twist,
    "surge": _draws,
    "gamble": _draws,
    "swap": _swap,
    "purge": _purge,
}


# --- Choices ----------------------------------------------------------------------------------


def _choice(s: Situation, move: Move) -> float:
    pending = (s.view["pending"] or {}).get("mine") or {}
    if "order" in move:
        cards = pending.get("cards") or []
        return _scry_order([cards[i] for i in move["order"]], s, pending.get("deck", "attack"))
    if "card" in move:  # a discard after Fortune Surge: drop the weakest
        card = _card(s, move["card"])
        return -_keep_value(card)
    if move.get("deck") == "none":
        return 0.0
    value = float(move["value"])  # a swap: give the card that helps the opponent least
    return -value - (1.0 if move["deck"] == "attack" else 0.0)


def _scry_order(top: list[int], s: Situation, deck: str) -> float:
    """An order for the top cards, top first: a good card for me, then a Death card."""
    if not top:
        return 0.0
    first = top[0]
    if first == DEATH:
        return -100.0
    worth = 12.0 if first == LUCKY and not s.me["lucky"] else float(first)
    if len(top) > 1 and top[1] == DEATH:
        worth += 20.0
    return worth + 0.1 * sum(value for value in top[2:] if value != DEATH)


_KEEP = {"shamrock": 9.0, "scry": 6.0, "pact": 5.0, "weakness": 5.0, "mirror": 4.0}


def _keep_value(card: Mapping[str, Any] | None) -> float:
    if card is None:
        return 0.0
    return float(_KEEP.get(card["effect"], 0.0) + float(card["value"]) * 0.5 - card["cost"] * 0.3)


def with_weights(policy: str, **weights: Any) -> Policy:
    """A policy with some weights changed (tuning runs)."""
    return replace(POLICIES[policy], **weights)


evaluate = evaluator(NORMAL)
