"""The leak sweep: play a match through the services and, at every ply, read everything the
site gives each viewer, checking it against what that viewer may know.

Viewers: every seated player, a signed-in bystander and an anonymous visitor. What each one
gets at each ply: the match page, the board fragment (HTMX), the poll answer, the history
at this ply and one earlier with every `as=` choice, the export, Haymaker's preview (asked
for every card of the deck at once), the home, "my matches", tables, inbox and player
pages, every email sent, and every socket message (`games.notifications` and
`inbox.push` sends, captured with presence forced to "everyone looks", so every board a
push could carry is rendered).

Each body is checked against the knowledge the viewer is entitled to (docs/move-log.md,
"Replays on the site" and "Export"), computed from the engine itself (the game class's own
`view`, so a monkeypatched instance cannot fool the oracle) and the events the viewer may
see:

- a board, page or push: the viewer's view at that ply and the visible events of the log
  it shows; a private run's outsider: nothing;
- a history page: the view of the `as=` it asked for, if the viewer may choose it, else
  nothing (the answer must be a refusal that names no card);
- an export: each move's payload may name only cards its viewer knew once it was made;
- every other page, email and inbox push: no card at all.

A card drawn more often than the knowledge holds it (`lens.faces`), or named at all while
unknown (`lens.mentions`), is a leak; so is the seed (and a weekly run's week seeds), in
any spelling, before it is revealed. And each viewer's board must come out the same when
drawn from a position the engine redealt in everything that viewer cannot see
(`check_non_interference`): that catches leaks that are no card. The first leak raises
`Leak`, with where it was.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import Any
from unittest import mock

from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import replay, selectors, services
from games.engine import registry
from games.engine.core import Chance, Game
from games.models import Match
from tests.security.lenses import Lens, lens_for

UNLIMITED = None  # knowledge once the seed is public: every card may be shown
NOTHING: Counter = Counter()
BOARD_PLY = re.compile(r'id="board"[^>]*?data-ply="(\d+)"')
MOVE_ID = re.compile(r'(?<=name="move_id" value=")[0-9a-f]{32}')  # a fresh one per render


class Leak(AssertionError):
    """Something a viewer may not know reached them."""


@dataclass
class Viewer:
    key: str  # "seat0", "bystander", "anonymous"
    user: Any  # None: anonymous
    seat: int | None  # the seat this viewer holds, if any
    client: Client = field(default_factory=Client)


@dataclass
class Body:
    """One thing the site sent a viewer, and what it is allowed to show."""

    where: str
    text: str
    knowledge: Counter | None  # UNLIMITED, or the cards the viewer may see, counted


def secret_spellings(secret: bytes) -> list[str]:
    hexed = secret.hex()
    b64 = base64.b64encode(secret).decode()
    urlsafe = base64.urlsafe_b64encode(secret).decode()
    return [hexed, hexed.upper(), b64, b64.rstrip("="), urlsafe.rstrip("=")]


class Sweep:
    """One match under watch. Call `round()` at each ply; `play()` does the whole match."""

    def __init__(
        self,
        *,
        match: Match,
        viewers: list[Viewer],
        commit_callbacks: Callable[..., AbstractContextManager[Any]],
        week_secrets: Callable[[], list[bytes]] = list,
        pages_every: int = 8,
        non_interference: bool = True,
    ) -> None:
        self.match = match
        self.game: Game = registry.get(match.game)
        self.lens: Lens = lens_for(match.game, match.options)
        self.viewers = viewers
        self.commit_callbacks = commit_callbacks
        self.week_secrets = week_secrets  # secrets beyond the match's own seed, still hidden
        self.pages_every = pages_every
        self.non_interference = non_interference  # off: the card counts alone (planted leaks)
        self.pushes: list[tuple[str, str]] = []  # (group, html) since the last check
        self.mail_seen = 0
        self.bodies_checked = 0
        self.rounds = 0
        self._knowledge: dict[tuple[int, int | None], Counter] = {}

    # --- the oracle: what a seat may know ------------------------------------------------

    def is_private(self) -> bool:
        """A weekly run before its week ends: its player's alone (read from the row, not
        through the model's properties, which a regression could change)."""
        until = self.match.private_until
        return until is not None and timezone.now() < until

    def is_public(self) -> bool:
        """Over and not private: the seed and every card may be shown to anyone."""
        is_over = self.match.status in (Match.Status.FINISHED, Match.Status.CANCELLED)
        return is_over and not self.is_private()

    def _visible(self, events: Iterable[Any], seat: int | None) -> Iterator[dict[str, Any]]:
        """Events `seat` may see, as data (`visible_to` read here, not through the Event
        class, so a monkeypatched visibility cannot fool the oracle)."""
        for event in events:
            if event.visible_to is None or (seat is not None and seat in event.visible_to):
                yield {"type": event.type, **event.data}

    def knowledge(self, ply: int, seat: int | None) -> Counter:
        """What `seat` (None: a spectator) knows at `ply`: its view, and the visible events
        of the log a board shows there."""
        key = (ply, seat)
        if key not in self._knowledge:
            position = replay.match_position(match=self.match, ply=ply)
            view = type(self.game).view(self.game, position.state, seat)
            events = [e for move in position.tail for e in self._visible(move.events, seat)]
            self._knowledge[key] = self.lens.known(view, events)
        return self._knowledge[key]

    def move_knowledge(self, ply: int, seat: int | None) -> Counter:
        """What `seat` knows once the move of `ply` is made (for that move's payload)."""
        return self.knowledge(ply, seat) | self.knowledge(ply + 1, seat)

    # --- checks ---------------------------------------------------------------------------

    def secrets(self) -> list[str]:
        hidden = [] if self.is_public() else [bytes(self.match.seed)]
        return [
            text for secret in (*hidden, *self.week_secrets()) for text in secret_spellings(secret)
        ]

    def check(self, body: Body, secrets: list[str]) -> None:
        self.bodies_checked += 1
        for secret in secrets:
            if secret in body.text:
                raise Leak(f"{body.where}: the secret seed {secret[:12]}… before it is revealed")
        if body.knowledge is UNLIMITED:
            return
        for card, count in self.lens.faces(body.text).items():
            if count > body.knowledge[card]:
                raise Leak(
                    f"{body.where}: {count} face(s) of {card}, the viewer may know "
                    f"{body.knowledge[card]}{_around(body.text, card)}"
                )
        for card in self.lens.mentions(body.text):
            if not body.knowledge[card]:
                raise Leak(
                    f"{body.where}: names {card}, unknown to the viewer{_around(body.text, card)}"
                )

    def check_export(self, viewer: Viewer, text: str, where: str, secrets: list[str]) -> None:
        document = json.loads(text)
        if "error" in document:  # a refusal: nothing of the match at all
            self.check(Body(where, text, NOTHING), secrets)
            return
        self.check(Body(where, text, UNLIMITED), secrets)  # the seed, in any spelling
        if self.is_public():
            return
        if document["seed"] is not None:
            raise Leak(f"{where}: the seed is exported before it is revealed")
        if "deal" in document["options"]:  # a fixed deal is the hidden order itself
            raise Leak(f"{where}: the fixed deal is exported while the match runs")
        for move in document["moves"]:
            allowed = self.move_knowledge(move["ply"], viewer.seat)
            for card in self.lens.payload_cards(move["payload"]):
                if not allowed[card]:
                    raise Leak(
                        f"{where}: move {move['ply']} names {card}, which the viewer did not know"
                    )

    # --- what the site sends ------------------------------------------------------------

    def _entitled_board(self, viewer: Viewer, ply: int) -> Counter | None:
        if not self._can_view(viewer):
            return NOTHING
        if self.is_public():
            return UNLIMITED
        return self.knowledge(ply, viewer.seat)

    def _can_view(self, viewer: Viewer) -> bool:
        return not self.is_private() or viewer.seat is not None

    def _entitled_history(self, viewer: Viewer, choice: str | None, ply: int) -> Counter | None:
        """The knowledge of the history viewer `choice`, if `viewer` may choose it."""
        if not self._can_view(viewer):
            return NOTHING
        if self.is_public():
            return UNLIMITED
        mine = str(viewer.seat) if viewer.seat is not None else "spectator"
        if choice not in (None, mine):
            return NOTHING  # another seat's eyes, or everything face up: refused
        return self.knowledge(ply, viewer.seat)

    def _get(self, viewer: Viewer, url: str, **headers: Any) -> str:
        response = viewer.client.get(url, **headers)
        if response.status_code >= 500:
            raise AssertionError(f"{viewer.key} GET {url}: {response.status_code}")
        if response.status_code in (301, 302):
            return ""
        return response.content.decode()

    def bodies(self, viewer: Viewer) -> Iterator[tuple[str, str, Counter | None]]:
        """What `viewer` reads this round. A page costs about 0.1 s on a busy machine, so
        what repeats takes turns: the board fragment (the same cached render every push
        carries, and pushes are checked every round) every 4 rounds; beside the default
        history, one more `as=` choice a round, so each is asked within a few plies (and
        all of them at the end)."""
        match, ply = self.match, self.match.ply
        pk = match.pk
        board = reverse("games:board", args=[pk])
        page = reverse("games:match", args=[pk])
        entitled = self._entitled_board(viewer, ply)
        yield page, self._get(viewer, page), entitled
        if self.rounds % 4 == 0 or match.is_finished:  # the very fragment every push carries
            yield f"{board} (htmx)", self._get(viewer, board, HTTP_HX_REQUEST="true"), entitled
        have = f"{board}?have={selectors.board_version(match=match)}"
        yield have, self._get(viewer, have), entitled
        history = reverse("games:history", args=[pk])
        choices = [None, *(str(seat) for seat in range(match.size)), "spectator", "revealed"]
        is_last = match.is_finished
        asked = choices if is_last else [None, choices[1 + self.rounds % (len(choices) - 1)]]
        requests = [(ply, choice) for choice in asked]
        if self.rounds % 3 == 1 and ply > 1:  # and now and then an earlier position
            requests.append((self.rounds % ply, None))
        for at, choice in requests:
            url = f"{history}?ply={at}" + (f"&as={choice}" if choice else "")
            yield url, self._get(viewer, url), self._entitled_history(viewer, choice, at)
        if match.game == "haymaker":
            every = "&".join(f"cards={name}" for name in _haymaker_names())
            url = f"{reverse('games:preview', args=[pk])}?ply={ply}&{every}"
            yield url, self._get(viewer, url, HTTP_HX_REQUEST="true"), entitled
        if self.rounds % self.pages_every == 0 or is_last:
            yield from self._other_pages(viewer)

    def _other_pages(self, viewer: Viewer) -> Iterator[tuple[str, str, Counter | None]]:
        urls = ["/", reverse("games:open_matches")]
        if viewer.user is not None:
            urls += [reverse("games:my_matches"), reverse("inbox:list")]
        urls += [
            reverse("player", args=[seated.user.username])
            for seated in self.viewers
            if seated.user is not None
        ]
        if self.match.game == "banira":
            urls += [reverse("banira:home"), reverse("banira:leaderboard"), reverse("banira:weeks")]
        for url in urls:
            yield url, self._get(viewer, url), NOTHING

    def round(self) -> None:
        """Everything every viewer gets now, and every push and email since the last round."""
        self.match.refresh_from_db()
        if self.non_interference:
            self.check_non_interference()
        secrets = self.secrets()
        for viewer in self.viewers:
            export = reverse("games:export", args=[self.match.pk])
            self.check_export(viewer, self._get(viewer, export), f"{viewer.key} {export}", secrets)
            for where, text, knowledge in self.bodies(viewer):
                self.check(Body(f"{viewer.key} {where}", text, knowledge), secrets)
        self.check_pushes(secrets)
        self.check_mail(secrets)
        self.rounds += 1

    def check_non_interference(self) -> None:
        """A board must not change when only what its viewer cannot know changes.

        Each viewer's board (each seat's, the spectators') is drawn twice: from the real
        position, and from one the engine's `sample_hidden` redealt (every card the viewer
        has not seen, the draw order, the seed: the engine's non-interference tests prove
        the view is the same). Any difference in the HTML is a leak, cards or not (a hand's
        total, a preview worked out from the real hand, a count)."""
        from games import rendering
        from games.selectors import matches as reads

        match = self.match
        if self.is_public():
            return
        position = replay.match_position(match=match)
        now = timezone.now()  # both boards of a pair are drawn at this moment (the clocks)
        seats = {seat.index: seat for seat in match.seats.all()}
        viewers: list[int | None] = [v.seat for v in self.viewers if v.seat is not None]
        if not self.is_private():
            viewers.append(None)
        for seat in viewers:
            chance = Chance(bytes(32), f"sweep/sample/{match.ply}/{seat}")
            state = position.state
            for unseen_by in [seat] if seat is not None else range(match.size):
                state = self.game.sample_hidden(state, unseen_by, chance)
            boards = []
            for drawn_from in (position, replace(position, state=state)):
                with (
                    mock.patch.object(reads, "match_position", lambda _p=drawn_from, **_: _p),
                    mock.patch.object(timezone, "now", lambda: now),
                ):
                    context = rendering.board_context(match=match, seat=seats.get(seat))
                    boards.append(MOVE_ID.sub("", rendering.draw(context)))
            if boards[0] != boards[1]:
                at = next(i for i, (a, b) in enumerate(zip(*boards, strict=False)) if a != b)
                raise Leak(
                    f"the board of seat {seat} at ply {match.ply} changes with cards it cannot "
                    f"see: …{boards[0][max(0, at - 150) : at + 80]}… against "
                    f"…{boards[1][max(0, at - 150) : at + 80]}…"
                )

    def check_pushes(self, secrets: list[str]) -> None:
        seat_group = re.compile(rf"match-{self.match.pk}-seat-(\d+)")
        for group, text in self.pushes:
            where = f"push to {group}"
            if group == f"match-{self.match.pk}-watch" or seat_group.fullmatch(group):
                found = seat_group.fullmatch(group)
                seat = int(found.group(1)) if found else None
                ply = int(BOARD_PLY.search(text).group(1))
                if self.is_private() and seat is None:
                    knowledge: Counter | None = NOTHING
                elif self.is_public():
                    knowledge = UNLIMITED
                else:
                    knowledge = self.knowledge(ply, seat)
            else:  # a user's inbox: a count and a toast, never a card
                knowledge = NOTHING
            self.check(Body(where, text, knowledge), secrets)
        self.pushes.clear()

    def check_mail(self, secrets: list[str]) -> None:
        for message in mail.outbox[self.mail_seen :]:
            texts = [message.subject, message.body]
            texts += [content for content, _ in getattr(message, "alternatives", ())]
            for text in texts:
                self.check(Body(f"email to {message.to}", text, NOTHING), secrets)
        self.mail_seen = len(mail.outbox)

    # --- playing --------------------------------------------------------------------------

    def capture_pushes(self, monkeypatch: Any) -> None:
        """Record every socket send, and render every board a push could carry."""
        from games import notifications, presence
        from inbox import push

        def record(group: str, message: Mapping[str, Any]) -> None:
            self.pushes.append((group, message["html"]))

        monkeypatch.setattr(notifications, "group_send", record)
        monkeypatch.setattr(push, "group_send", record)
        monkeypatch.setattr(
            presence, "looking", lambda **_: presence.Looking(frozenset(), False, is_unknown=True)
        )

    def user_of(self, seat: int) -> Any:
        return next(v.user for v in self.viewers if v.seat == seat)

    def step(self, chance: Chance) -> None:
        """One random legal move of a human seat to act (the AI seats move by themselves)."""
        match = self.match
        humans = [v.seat for v in self.viewers if v.seat is not None]
        seat = chance.choice([s for s in match.seats_to_act if s in humans])
        state = replay.match_position(match=match).state
        move = self.coached(seat) or random_move(chance, self.game.legal_moves(state, seat))
        with self.commit_callbacks(execute=True):
            services.move_submit(
                match_id=match.pk, user=self.user_of(seat), ply=match.ply, move=move
            )
        match.refresh_from_db()

    def coached(self, seat: int) -> dict[str, Any] | None:
        """In a tutorial, the move its coach points at: any other is taken back
        (games.boards.tutorial), so the sweep walks the scripted line, then plays at random."""
        from games.boards import tutorial_for

        tutorial = tutorial_for(self.match.tutorial) if self.match.tutorial else None
        if tutorial is None or seat != tutorial.player_seat:
            return None
        return tutorial.expected_move(self.match.ply)

    def finish(self) -> None:
        """Resign the seated viewers, one by one, until the match is over."""
        for viewer in [v for v in self.viewers if v.seat is not None]:
            if self.match.status != Match.Status.ACTIVE:
                return
            with self.commit_callbacks(execute=True):
                services.match_resign(match_id=self.match.pk, user=viewer.user)
            self.match.refresh_from_db()

    def play(self, *, plies: int, seed: str) -> None:
        """A round at every ply: the deal, each move up to `plies`, then the end."""
        chance = Chance(bytes(32), seed)
        self.round()
        while self.match.status == Match.Status.ACTIVE and self.match.ply < plies:
            self.step(chance)
            self.round()
        if self.match.status == Match.Status.ACTIVE:
            self.finish()
            self.round()


def random_move(chance: Chance, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal move: first a kind of move, then one of that kind. (Uniform over the
    moves, Shield's setup would pick shields over and over and rarely reach an attack.)"""
    kind = chance.choice(sorted({move["type"] for move in moves}))
    return chance.choice([move for move in moves if move["type"] == kind])


def _around(text: str, card: str) -> str:
    at = text.find(card)
    return f" — …{text[max(0, at - 120) : at + 60]}…" if at >= 0 else ""


def _haymaker_names() -> list[str]:
    return [rank + suit for suit in "CDHS" for rank in ("A", *map(str, range(2, 11)))]
