"""No hidden card and no secret seed reaches a viewer who may not know it: the leak sweep
(tests/security/sweep.py) over all five games, and planted leaks it must catch.

Each game plays one match of random legal moves through the services (an AI seat at the
Shield table moves by itself), up to a ply cap, then the seats resign; at every ply every
viewer reads every page, fragment, poll, history view, export, preview, inbox and player
page, and every socket push and email is checked. How long it takes is in
docs/security.md.
"""

from __future__ import annotations

import hashlib

import pytest

from banira import services as banira_services
from banira.models import DeckList, WeeklyChallenge
from games import services
from games.engine import registry
from games.engine.core import Chance, Event
from games.engine.shield.cards import NAMES
from games.models import Match
from games.services import tables
from tests.security.sweep import Leak, Sweep, Viewer, random_move

pytestmark = pytest.mark.django_db

# The ply cap of each match (then its seats resign): enough for every kind of move of the
# game to come up, at about 2 s a ply on a busy 2-core machine (docs/security.md).
PLIES = {"dogblade": 12, "grimhand": 16, "haymaker": 16, "shield": 20, "banira": 16}
PLIES["grimhand-arcana"] = 24  # plays do not end a turn: more plies to the same depth
# Grimhand Arcana: decks (legal under the deck rules) full of the cards that reveal or
# exchange hidden cards, so that random play meets them.
ARCANA_DECKS = [
    [
        "scrying_orb",
        "fate_twist",
        "swap_hands",
        *["fortune_surge", "gamble", "purge", "hex"] * 2,
        "blessing",
    ],
    [
        "scrying_orb",
        "swap_hands",
        "doom_token",
        *["fortune_surge", "piercing_strike", "bleeding_edge", "purge"] * 2,
        "hex_of_weakness",
    ],
]
ARCANA_OPTIONS = {"variant": "arcana", "decks": ARCANA_DECKS, "event": "random"}


def _seed(name: str) -> bytes:
    return hashlib.sha256(f"tests/security/{name}".encode()).digest()


def _lasting_seed(slug: str, seats: int, plies: int) -> bytes:
    """The first test seed whose match lasts `plies` moves under the sweep's random moves
    (Grimhand can meet the Death card on the first draw, and then there is little to see)."""
    game = registry.get(slug)
    for attempt in range(200):
        seed = _seed(f"{slug}/{attempt}")
        state = game.new(seats, seed, {})
        chance = Chance(bytes(32), f"sweep/{slug}")
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            seat = chance.choice(list(game.to_act(state)))
            state, _ = game.apply(state, seat, random_move(chance, game.legal_moves(state, seat)))
        else:
            return seed
    raise AssertionError(f"no test seed gives a {slug} match of {plies} moves")


@pytest.fixture
def table(make_user, django_capture_on_commit_callbacks, monkeypatch):
    """`table(game)`: a started match of `game` with its viewers, under a sweep."""

    def make(game: str, *, ai_seats: int = 0, humans: int = 2) -> Sweep:
        users = [make_user() for _ in range(humans)]
        others = [services.SeatSpec("player", username=user.username) for user in users[1:]]
        others += [services.SeatSpec("ai", ai_level="normal")] * ai_seats
        with django_capture_on_commit_callbacks(execute=True):
            match = services.match_create(
                creator=users[0],
                game_slug=game,
                others=others,
                seed=_lasting_seed(game, humans + ai_seats, PLIES[game]),
            )
            for user in users[1:]:
                services.match_join(match_id=match.pk, user=user)
        match.refresh_from_db()
        return _sweep(match, users, make_user, django_capture_on_commit_callbacks, monkeypatch)

    return make


def _sweep(match, players, make_user, capture, monkeypatch, **kwargs) -> Sweep:
    viewers = [Viewer(f"seat{index}", user, index) for index, user in enumerate(players)]
    viewers += [Viewer("bystander", make_user(), None), Viewer("anonymous", None, None)]
    for viewer in viewers:
        if viewer.user is not None:
            viewer.client.force_login(viewer.user)
    sweep = Sweep(match=match, viewers=viewers, commit_callbacks=capture, **kwargs)
    sweep.capture_pushes(monkeypatch)
    return sweep


@pytest.fixture
def banira_run(make_user, django_capture_on_commit_callbacks, monkeypatch):
    """`banira_run(weekly)`: a practice run (or this week's first real run) under a sweep."""
    banira_services.deck_list_load_default()
    DeckList.objects.update(is_active=True)

    def make(*, weekly: bool) -> Sweep:
        player = make_user()
        # The same deals every run: the week's seeds and the practice seed are fixed.
        fixed = iter(_seed(f"banira/{number}") for number in range(4))
        with django_capture_on_commit_callbacks(execute=True), monkeypatch.context() as patched:
            for module, name in ((banira_services.secrets, "token_bytes"), (tables.os, "urandom")):
                real = getattr(module, name)
                patched.setattr(module, name, _seeds_of_32(fixed, real))
            if weekly:
                match = banira_services.weekly_run_start(user=player)
            else:
                match = banira_services.run_start_practice(user=player)
        match.refresh_from_db()

        def week_secrets() -> list[bytes]:
            hidden = WeeklyChallenge.objects.filter(is_revealed=False)
            return [
                bytes(seed) for week in hidden for seed in (week.seed_1, week.seed_2, week.seed_3)
            ]

        return _sweep(
            match,
            [player],
            make_user,
            django_capture_on_commit_callbacks,
            monkeypatch,
            week_secrets=week_secrets,
        )

    return make


def _seeds_of_32(fixed, real):
    """32 random bytes (a seed) from `fixed`; any other size from `real`."""
    return lambda size: next(fixed) if size == 32 else real(size)


@pytest.mark.parametrize("game", ["dogblade", "grimhand", "haymaker"])
def test_two_player_games_leak_nothing(table, game):
    sweep = table(game)
    sweep.play(plies=PLIES[game], seed=f"sweep/{game}")
    assert sweep.match.status == Match.Status.FINISHED
    assert sweep.rounds >= min(PLIES[game], sweep.match.ply)
    assert sweep.bodies_checked > 100 * sweep.rounds / 4


def _arcana_seed(plies: int) -> bytes:
    """The first test seed whose Arcana match lasts `plies` moves under the sweep's random
    moves and plays a Scrying Orb and a Swap Hands before then."""
    game = registry.get("grimhand")
    for attempt in range(400):
        seed = _seed(f"grimhand-arcana/{attempt}")
        state = game.new(2, seed, ARCANA_OPTIONS)
        chance = Chance(bytes(32), "sweep/grimhand-arcana")
        played = set()
        for _ in range(plies):
            if game.outcome(state) is not None:
                break
            seat = chance.choice(list(game.to_act(state)))
            move = random_move(chance, game.legal_moves(state, seat))
            played.add(move.get("card"))
            state, _ = game.apply(state, seat, move)
        else:
            if {"scrying_orb", "swap_hands"} <= played:
                return seed
    raise AssertionError(f"no test seed gives an Arcana match of {plies} moves")


def test_grimhand_arcana_leaks_nothing(make_user, django_capture_on_commit_callbacks, monkeypatch):
    """Neither seat's ability hand, ability deck or deck list, nor the cards a Scrying Orb
    shows its player, nor a Swap Hands pick before both are made, reaches the other seat
    or a spectator: pages, fragments, pushes, exports, and the board redealt."""
    users = [make_user(), make_user()]
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(
            creator=users[0],
            game_slug="grimhand",
            opponent="player",
            invitee_username=users[1].username,
            options=ARCANA_OPTIONS,
            seed=_arcana_seed(PLIES["grimhand-arcana"]),
        )
        services.match_join(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    sweep = _sweep(match, users, make_user, django_capture_on_commit_callbacks, monkeypatch)
    sweep.play(plies=PLIES["grimhand-arcana"], seed="sweep/grimhand-arcana")
    assert sweep.match.status == Match.Status.FINISHED
    payloads = list(sweep.match.moves.values_list("payload", flat=True))
    played = {payload.get("card") for payload in payloads if payload["type"] == "play"}
    assert {"scrying_orb", "swap_hands"} <= played, played
    assert sum(payload["type"] == "choose" for payload in payloads) >= 3


def test_shield_with_four_seats_leaks_nothing(table):
    sweep = table("shield", humans=3, ai_seats=1)
    sweep.play(plies=PLIES["shield"], seed="sweep/shield")
    assert sweep.match.status == Match.Status.FINISHED
    assert sweep.match.size == 4


@pytest.mark.parametrize(
    "game", ["haymaker", "grimhand", "grimhand-arcana", "dogblade", "shield", "banira"]
)
def test_tutorials_leak_nothing(make_user, django_capture_on_commit_callbacks, monkeypatch, game):
    """A tutorial deals a fixed deal (options["deal"]) against the scripted tutor; the sweep
    plays the coached moves (any other is taken back), then random ones where the script
    lets go."""
    player = make_user()
    fixed = iter([_seed(f"tutorial/{game}")])  # the seed of the hits and reshuffles
    with django_capture_on_commit_callbacks(execute=True), monkeypatch.context() as patched:
        patched.setattr(tables.os, "urandom", _seeds_of_32(fixed, tables.os.urandom))
        match = services.tutorial_start(user=player, game_slug=game)
    match.refresh_from_db()
    sweep = _sweep(match, [player], make_user, django_capture_on_commit_callbacks, monkeypatch)
    sweep.play(plies=PLIES[game], seed=f"sweep/tutorial/{game}")
    assert sweep.match.is_finished


@pytest.mark.parametrize("weekly", [False, True], ids=["practice", "weekly"])
def test_banira_runs_leak_nothing(banira_run, weekly):
    sweep = banira_run(weekly=weekly)
    sweep.play(plies=PLIES["banira"], seed=f"sweep/banira/{weekly}")
    assert sweep.match.is_finished
    assert sweep.match.is_private_now == weekly  # a weekly run stays its player's, seed too


# --- planted leaks: the sweep must catch each ---------------------------------------------


def _leaky_view(monkeypatch, game_slug: str, plant) -> None:
    """Make the site's engine `view` (the registry's instance) add what `plant` exposes."""
    game = registry.get(game_slug)
    honest = type(game).view

    def view(state, seat):
        return plant(state, honest(game, state, seat), seat)

    monkeypatch.setattr(game, "view", view)


def _grimhand_opponent_hand(state, view, seat):
    other = 1 - seat if seat is not None else 1
    player = view["players"][other]
    player["hand"] = {
        kind: list(state.hands[other][index]) for index, kind in enumerate(("attack", "defense"))
    }
    return view


def _haymaker_opponent_hand(state, view, seat):
    from games.engine.haymaker.cards import names

    other = 1 - seat if seat is not None else 1
    view["players"][other]["revealed"] = names(state.hands[other])
    return view


def _shield_next_card(state, view, seat):
    if state.deck:
        view["discard_top"] = NAMES[state.deck[0]]
    return view


def _banira_next_card(state, view, seat):
    if state.deck:
        view["discard"] = [*view["discard"], state.setup.cards[state.deck[0]].to_json()]
    return view


def _dogblade_next_monster(state, view, seat):
    for side in view["sides"]:
        index = side["seat"]
        upcoming = state.decks[index][state.drawn[index] :]
        if upcoming:
            side["defeated"] = [*side["defeated"], list(upcoming[0])]
    return view


PLANTS = {
    "grimhand": _grimhand_opponent_hand,
    "haymaker": _haymaker_opponent_hand,
    "shield": _shield_next_card,
    "dogblade": _dogblade_next_monster,
}


CARD_LEAK = r"face\(s\) of \S+, the viewer may know|names \S+, unknown to the viewer"
CHANGES = "changes with cards it cannot see"


@pytest.mark.parametrize("detector", ["cards", "non-interference"])
@pytest.mark.parametrize("game", sorted(PLANTS))
def test_a_view_showing_hidden_cards_is_caught(table, monkeypatch, game, detector):
    """A regression that lets hidden cards into the template context: the opponent's hand
    face up, or the next card of the draw pile on show. Each detector catches it alone."""
    sweep = table(game, humans=3 if game == "shield" else 2)
    sweep.non_interference = detector == "non-interference"
    _leaky_view(monkeypatch, game, PLANTS[game])
    with pytest.raises(Leak, match=CHANGES if sweep.non_interference else CARD_LEAK):
        sweep.play(plies=8, seed=f"sweep/{game}")


@pytest.mark.parametrize("detector", ["cards", "non-interference"])
def test_a_banira_draw_order_shown_is_caught(banira_run, monkeypatch, detector):
    sweep = banira_run(weekly=False)
    sweep.non_interference = detector == "non-interference"
    _leaky_view(monkeypatch, "banira", _banira_next_card)
    with pytest.raises(Leak, match=CHANGES if sweep.non_interference else r"face\(s\) of"):
        sweep.play(plies=8, seed="sweep/banira/plant")


@pytest.mark.parametrize("game", ["grimhand", "haymaker", "shield"])
def test_an_event_shown_to_everyone_is_caught(table, monkeypatch, game):
    """A log that forgets `visible_to`: the opponent's draw, or a secret pick, in words."""
    sweep = table(game, humans=3 if game == "shield" else 2)
    monkeypatch.setattr(Event, "is_visible_to", lambda event, seat: True)
    with pytest.raises(Leak, match="unknown to the viewer"):
        sweep.play(plies=8, seed=f"sweep/{game}")


def _grimhand_true_damage(state, view, seat):
    """The attack preview worked out from the opponent's real defense hand."""
    preview = view.get("preview")
    if preview and seat is not None:
        defense = sum(state.hands[1 - seat][1])
        damage = max(0, preview["attack_total"] - defense)
        preview.update(damage_min=damage, damage_max=damage)
    return view


def test_a_preview_from_the_real_hand_is_caught(table, monkeypatch):
    """No card shows, but the preview's damage gives the hidden defense away: the board
    drawn from a redealt position differs."""
    sweep = table("grimhand")
    _leaky_view(monkeypatch, "grimhand", _grimhand_true_damage)
    with pytest.raises(Leak, match=CHANGES):
        sweep.play(plies=PLIES["grimhand"], seed="sweep/grimhand")


def test_a_seed_shown_early_is_caught(table, monkeypatch):
    sweep = table("dogblade")
    monkeypatch.setattr(Match, "is_seed_revealed", property(lambda match: True))
    with pytest.raises(Leak, match="secret seed"):
        sweep.play(plies=4, seed="sweep/dogblade")


def _arcana_opponent_abilities(state, view, seat):
    """The other seat's ability hand, face up (as the view gives a seat its own)."""
    other = 1 - seat if seat is not None else 1
    cards = state.setup.cards[other]
    view["players"][other]["arcana"] = [cards[card].to_json() for card in state.abilities[other]]
    return view


@pytest.mark.parametrize("detector", ["cards", "non-interference"])
def test_an_arcana_ability_hand_shown_is_caught(
    make_user, django_capture_on_commit_callbacks, monkeypatch, detector
):
    users = [make_user(), make_user()]
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(
            creator=users[0],
            game_slug="grimhand",
            opponent="player",
            invitee_username=users[1].username,
            options=ARCANA_OPTIONS,
            seed=_seed("grimhand-arcana/plant"),
        )
        services.match_join(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    sweep = _sweep(match, users, make_user, django_capture_on_commit_callbacks, monkeypatch)
    sweep.non_interference = detector == "non-interference"
    _leaky_view(monkeypatch, "grimhand", _arcana_opponent_abilities)
    with pytest.raises(Leak, match=CHANGES if sweep.non_interference else CARD_LEAK):
        sweep.play(plies=4, seed="sweep/grimhand-arcana")
