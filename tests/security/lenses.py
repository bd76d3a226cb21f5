"""How each game's cards show up in what the site sends, and which cards a viewer may know.

A lens reads one game's cards three ways:

- `faces(body)`: the card faces drawn in a body, one per face (the board partials put one
  `data-card` or card-art marker on each face). Counted: a body may draw card c at most as
  often as the viewer's knowledge holds c. Grimhand and Dog Blade cards render by value
  (many cards share "Attack 5" or a 50/60 monster), so only counts can tell a leaked copy
  from a known one.
- `mentions(body)`: every spelling of a card, faces included (labels, short forms like
  "7♥", log lines like "takes an Attack 5 into hand", JSON names in buttons and exports).
  Checked for presence: a body may name card c only if the viewer knows c at all.
- `known(view, events)`: the viewer's knowledge, counted: the cards face up in their own
  engine `view` and in the events they may see. Piles the view lists only as "exists
  somewhere, order hidden" (BaniraCards' `unseen`) are not face-up knowledge: a face drawn
  from there is a leaked draw order.

Card keys: Grimhand "attack-5"; Haymaker and Shield the card names ("7H", "QS"); Dog Blade
"atk/max hp" ("50/60"); BaniraCards the card id of the deck list.

When a board learns a new way to draw or name a card, add its marker here: the sweep
(tests/security/test_leak_sweep.py) only sees what a lens can read.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Cards = Counter  # card key -> how many


def _walk(value: Any) -> Iterator[Any]:
    """Every scalar and every mapping inside a JSON-able value (mappings first, then their
    contents)."""
    if isinstance(value, Mapping):
        yield value
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk(item)
    else:
        yield value


@dataclass(frozen=True)
class Lens:
    slug: str
    faces: Callable[[str], Cards]
    mentions: Callable[[str], Cards]
    known: Callable[[Mapping[str, Any], Iterable[Mapping[str, Any]]], Cards]
    payload_cards: Callable[[Mapping[str, Any]], list[str]] = lambda payload: []
    catalogue: frozenset[str] = field(default=frozenset())  # every card key (for reports)


# --- standard playing cards (Haymaker, Shield) ------------------------------------------------

SUIT_LETTERS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
RANK_WORDS = {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K"}


def _playing_cards(slug: str, ranks: str) -> Lens:
    """`ranks`: the deck's ranks as a regex alternation, e.g. "A|10|[2-9]"."""
    name = rf"(?:{ranks})[CDHS]"
    word = "|".join(word for word, letter in RANK_WORDS.items() if re.fullmatch(ranks, letter))
    face = re.compile(rf'data-card="({name})"')
    bare = re.compile(rf"(?<![\w-])({name})(?![\w-])")  # "7H" in JSON, values, hx-vals
    label = re.compile(rf"\b({word}|10|[2-9]) of (clubs|diamonds|hearts|spades)\b")
    short = re.compile(rf"(?<![\w-])({ranks})([♣♦♥♠])")
    is_card = re.compile(name).fullmatch

    def faces(body: str) -> Cards:
        return Counter(face.findall(body))

    def mentions(body: str) -> Cards:
        found = Counter(bare.findall(body))
        found.update(
            RANK_WORDS.get(rank, rank) + SUIT_LETTERS[suit] for rank, suit in label.findall(body)
        )
        found.update(rank + SUIT_SYMBOLS[suit] for rank, suit in short.findall(body))
        return found

    def known(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Cards:
        # Card names are the only strings of these shapes in views and events: every one
        # the viewer was given is a card it may know.
        cards: Cards = Counter()
        for document in (view, *events):
            cards.update(v for v in _walk(document) if isinstance(v, str) and is_card(v))
        return cards

    def payload_cards(payload: Mapping[str, Any]) -> list[str]:
        return [v for v in _walk(payload) if isinstance(v, str) and is_card(v)]

    return Lens(slug, faces, mentions, known, payload_cards)


HAYMAKER = _playing_cards("haymaker", "A|10|[2-9]")
SHIELD = _playing_cards("shield", "A|10|[2-9]|J|Q|K")


# --- Grimhand: two decks of numbered cards ----------------------------------------------------

_GH_FACE = re.compile(r'data-card="(?:discard-)?(attack|defense)-(\d{1,2})"')
_GH_TEXT = re.compile(r"\b(Attack|Defense) (\d{1,2})\b")


def _gh_faces(body: str) -> Cards:
    return Counter(f"{kind}-{value}" for kind, value in _GH_FACE.findall(body))


def _gh_mentions(body: str) -> Cards:
    found = _gh_faces(body)
    found.update(f"{kind.lower()}-{value}" for kind, value in _GH_TEXT.findall(body))
    return found


def _gh_known(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Cards:
    cards: Cards = Counter()
    for player in view.get("players", ()):
        for kind, values in (player.get("hand") or {}).items():
            cards.update(f"{kind}-{value}" for value in values or ())
    for kind, deck in view.get("decks", {}).items():
        cards.update(f"{kind}-{value}" for value in deck.get("discard") or ())
    for event in events:
        kind = event.get("deck")
        if "value" in event:
            cards[f"{kind}-{event['value']}"] += 1
        for value in event.get("values") or ():
            cards[f"{kind}-{value}"] += 1
        for value in event.get("attack") or ():  # an attack shows both sides' cards
            cards[f"attack-{value}"] += 1
        for value in event.get("defense") or ():
            cards[f"defense-{value}"] += 1
        if event.get("type") == "death_card":
            cards[f"{kind}-13"] += 1
        if event.get("type") == "lucky_slotted":
            cards[f"{kind}-7"] += 1
    return cards


GRIMHAND = Lens("grimhand", _gh_faces, _gh_mentions, _gh_known)


# --- Grimhand Arcana: the numbered cards, and ability cards by id -----------------------------

_ARC_FACE = re.compile(r'data-card="ability-([a-z0-9_]+)"')
_ARC_IDS = (
    _ARC_FACE,
    re.compile(r'data-testid="(?:ability|play|target|discard)-([a-z0-9_]+)"'),
    re.compile(r'name="card" value="([a-z0-9_]+)"'),
    re.compile(r'(?:&quot;|"|\\")card(?:&quot;|"|\\"): ?(?:&quot;|"|\\")([a-z0-9_]+)'),
)
_ARC_ART = re.compile(r"img/grimhand/arcana/([a-z]+)\.svg")


def arcana(pool: list[Mapping[str, Any]]) -> Lens:
    """Grimhand Arcana's lens for a match's card pool: the numbered cards as Grimhand's
    (plus the tops a Scrying Orb showed its player), and each ability card ("ability:<id>")
    by its face, its id in forms, buttons and JSON, its art (an effect's art stands for
    every card with that effect) and its name (except names a status shares, such as Hex
    and Blood Pact: their ids still give them away)."""
    ids = {card["id"] for card in pool}
    by_effect: dict[str, set[str]] = {}
    for card in pool:
        by_effect.setdefault(card["effect"], set()).add(card["id"])
    from games.engine.grimhand.arcana.statuses import STATUSES

    statuses = {status.name for status in STATUSES.values()}
    names: dict[str, set[str]] = {}
    for card in pool:
        if card["name"] not in statuses:
            names.setdefault(html.escape(card["name"]), set()).add(card["id"])
    by_name = re.compile(
        r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b"
    )

    def faces(body: str) -> Cards:
        found = _gh_faces(body)
        found.update(f"ability:{card}" for card in _ARC_FACE.findall(body) if card in ids)
        return found

    def mentions(body: str) -> Cards:
        found = _gh_mentions(body)
        for pattern in _ARC_IDS:
            found.update(f"ability:{card}" for card in pattern.findall(body) if card in ids)
        for effect in _ARC_ART.findall(body):
            found.update(f"ability:{card}" for card in by_effect.get(effect, ()))
        for name in by_name.findall(body):
            found.update(f"ability:{card}" for card in names[name])
        return found

    def known(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Cards:
        events = list(events)
        cards = _gh_known(view, events)
        for kind, deck in view.get("decks", {}).items():
            cards.update(f"{kind}-{value}" for value in deck.get("known_top") or ())
        for player in view.get("players", ()):
            held = [card["id"] for card in player.get("arcana") or ()]
            held += player.get("arcana_discard") or []
            for line in (player.get("lines") or {}).values():
                held += line
            if player.get("lucky_card"):
                held.append(player["lucky_card"])
            cards.update(f"ability:{card}" for card in held)
        for event in events:
            if event.get("card") in ids:
                cards[f"ability:{event['card']}"] += 1
            for card in event.get("abilities") or ():  # an attack shows both lines
                cards[f"ability:{card}"] += 1
            for card in event.get("guards") or ():
                cards[f"ability:{card}"] += 1
        return cards

    def payload_cards(payload: Mapping[str, Any]) -> list[str]:
        found = []
        if payload.get("card") in ids:
            found.append(f"ability:{payload['card']}")
        if payload.get("type") == "choose" and "value" in payload:  # a card given in a swap
            found.append(f"{payload.get('deck')}-{payload['value']}")
        return found

    catalogue = frozenset(f"ability:{card}" for card in ids)
    return Lens("grimhand", faces, mentions, known, payload_cards, catalogue)


# --- Dog Blade: monsters by their stats -------------------------------------------------------

_DB_FACE = re.compile(r'alt="(?:A )?(\d{2})/(\d{2,3})(?: monster)?"')
# "a fresh 50/60 monster", "50/60 monster is defeated", alt="50/60" (never "20/150 XP").
_DB_TEXT = re.compile(r"(?<![\w/.-])([1-6]0)/((?:[3-9]|1[0-5])0)(?= monster|\")")


def _db_faces(body: str) -> Cards:
    return Counter(f"{atk}/{hp}" for atk, hp in _DB_FACE.findall(body))


def _db_mentions(body: str) -> Cards:
    found = _db_faces(body)
    found.update(f"{atk}/{hp}" for atk, hp in _DB_TEXT.findall(body))
    return found


def _db_known(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Cards:
    cards: Cards = Counter()
    for side in view.get("sides", ()):
        active = side.get("active")
        if active:
            cards[f"{active['atk']}/{active['max_hp']}"] += 1
        cards.update(f"{atk}/{hp}" for atk, hp in side.get("defeated") or ())
    for event in events:
        if "card" in event:
            atk, hp = event["card"]
            cards[f"{atk}/{hp}"] += 1
    return cards


DOGBLADE = Lens("dogblade", _db_faces, _db_mentions, _db_known)


# --- BaniraCards: the cards of a deck list, by id ---------------------------------------------

_BN_FACE = re.compile(r'<span class="bn-card[^"]*" data-card="([^"]+)"')
_BN_ID = re.compile(r'(?:data-card|value)="([^"]+)"')
# The view's face-up places; `unseen` (the deck and the overflow, in deck-list order) is not.
_BN_FACE_UP = ("field", "hand", "discard", "last_play")


def banira(deck: list[Mapping[str, Any]]) -> Lens:
    """The lens of one deck list: a card's id, and its name (names may repeat)."""
    ids = {card["id"] for card in deck}
    names: dict[str, set[str]] = {}
    for card in deck:
        names.setdefault(html.escape(card["name"]), set()).add(card["id"])
    by_name = re.compile("|".join(re.escape(name) for name in sorted(names, key=len, reverse=True)))

    def faces(body: str) -> Cards:
        return Counter(card for card in _BN_FACE.findall(body) if card in ids)

    def mentions(body: str) -> Cards:
        found = Counter(card for card in _BN_ID.findall(body) if card in ids)
        for name in by_name.findall(body):  # a name stands for every card that bears it
            found.update(names[name])
        return found

    def known(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Cards:
        cards: Cards = Counter()
        face_up = [view.get(place) for place in _BN_FACE_UP]
        for slot in view.get("field") or ():
            cards.update(card for card in slot.get("stack") or () if card in ids)
        for document in (*face_up, *events):
            cards.update(
                item["id"]
                for item in _walk(document)
                if isinstance(item, Mapping) and item.get("id") in ids
            )
        return cards

    def payload_cards(payload: Mapping[str, Any]) -> list[str]:
        card = payload.get("card")
        return [card] if card in ids else []

    return Lens("banira", faces, mentions, known, payload_cards, frozenset(ids))


def lens_for(slug: str, options: Mapping[str, Any]) -> Lens:
    if slug == "grimhand" and options.get("variant") == "arcana":
        from games.engine.grimhand.arcana.cards import DEFAULT_POOL

        return arcana(options.get("pool") or [card.to_json() for card in DEFAULT_POOL])
    if slug == "banira":
        from games.engine.banira.default_deck import DEFAULT_DECK

        return banira(options.get("deck") or DEFAULT_DECK)
    return {"grimhand": GRIMHAND, "haymaker": HAYMAKER, "shield": SHIELD, "dogblade": DOGBLADE}[
        slug
    ]
