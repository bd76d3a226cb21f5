"""The PvE path (arcana.path, arcana.pve): stages open in order, a fight is an unrated
Arcana match against the house with the stage's boss, event and decks, a win clears its
stage and gives its reward exactly once, a loss counts as an attempt, and bad input is a
message with nothing written."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from arcana import pve, selectors
from arcana.models import ArcanaDeck, CardGrant, Collector, OwnedCard, PathFight, PathStageRecord
from arcana.path import STAGES, stage_get
from games import effects, services
from games.engine.core import Outcome
from games.engine.grimhand.arcana.bosses import BOSSES
from games.engine.grimhand.arcana.cards import ARCHETYPE_DECKS
from games.models import Match
from games.services._shared import finish, locked
from progression.models import PlayerProgress
from ratings.services import match_is_rated
from tests.arcana.conftest import AGGRESSIVE, give

pytestmark = pytest.mark.django_db


def _clear(user, *keys: str) -> None:
    """Mark stages cleared (as a win would), without their rewards."""
    from django.utils import timezone

    for key in keys:
        PathStageRecord.objects.update_or_create(
            user=user, stage=key, defaults={"wins": 1, "cleared": timezone.now()}
        )


def _win(match: Match, winner: int = 0) -> Match:
    """Finish `match` as the engine would report seat `winner`'s win: through the real
    finish (games.effects.match_finished and every consequence)."""
    with transaction.atomic():
        row = locked(match.pk)
        finish(row, Outcome((winner,), ((winner,), (1 - winner,)), "hp"))
    row.refresh_from_db()
    return row


def _states(user) -> dict[str, str]:
    return {row.stage.key: row.state for row in selectors.path_for(user=user)}


def _written() -> tuple[int, ...]:
    return (
        Match.objects.count(),
        PathFight.objects.count(),
        PathStageRecord.objects.count(),
        CardGrant.objects.filter(source__startswith="Arcana path").count(),
    )


# --- the table --------------------------------------------------------------------------------


def test_the_path_has_seven_stages_three_archetypes_and_three_bosses() -> None:
    assert len(STAGES) >= 7
    assert {stage.house for stage in STAGES if not stage.boss} == set(ARCHETYPE_DECKS)
    assert {stage.boss for stage in STAGES if stage.boss} == set(BOSSES)
    assert any(stage.event == "random" for stage in STAGES)
    assert all(stage.xp and stage.shards for stage in STAGES)


# --- unlock order -----------------------------------------------------------------------------


def test_only_the_first_stage_is_open_at_first(starter) -> None:
    states = _states(starter)
    assert states[STAGES[0].key] == "open"
    assert {states[stage.key] for stage in STAGES[1:]} == {"locked"}


def test_winning_a_stage_opens_the_next_only(starter) -> None:
    match = pve.fight_start(user=starter, stage_key=STAGES[0].key)
    _win(match)
    states = _states(starter)
    assert states[STAGES[0].key] == "cleared"
    assert states[STAGES[1].key] == "open"
    assert {states[stage.key] for stage in STAGES[2:]} == {"locked"}


def test_a_locked_stage_cannot_be_fought(starter) -> None:
    before = _written()
    with pytest.raises(pve.StageLocked, match="opens when you beat"):
        pve.fight_start(user=starter, stage_key=STAGES[2].key)
    assert _written() == before


def test_a_cleared_stage_can_be_fought_again(starter) -> None:
    _clear(starter, STAGES[0].key)
    match = pve.fight_start(user=starter, stage_key=STAGES[0].key)
    assert match.arcana_fight.stage == STAGES[0].key


# --- the match --------------------------------------------------------------------------------


def test_an_archetype_stage_is_an_arcana_match_against_that_house(starter) -> None:
    stage = STAGES[0]
    match = pve.fight_start(user=starter, stage_key=stage.key)
    deck = ArcanaDeck.objects.get(owner=starter, name="Starter")
    assert match.options["variant"] == "arcana"
    assert match.options["decks"] == [deck.card_ids, stage.house]
    assert match.options["boss"] is None
    assert match.options["event"] == stage.event
    assert match.options["pool"] == selectors.pool_cards()
    seats = list(match.seats.all())
    assert seats[0].user == starter and seats[1].is_ai and seats[1].ai_level == stage.ai_level
    assert stage.ai_level == "arc_aggressive"  # the house's own level, not offered in the lobby
    assert match.status == Match.Status.ACTIVE


def test_a_boss_stage_brings_the_boss_and_its_event(starter) -> None:
    stage = stage_get("plague_witch")
    _clear(starter, *[s.key for s in STAGES[: STAGES.index(stage)]])
    match = pve.fight_start(user=starter, stage_key=stage.key)
    assert match.options["boss"] == "plague_witch"
    assert match.options["decks"][1] is None  # the boss's own deck, from the engine
    assert match.options["event"] == "blood_moon"
    from games import replay

    state = replay.match_position(match=match).state
    assert state.setup.boss.key == "plague_witch"
    assert state.hp[1] == BOSSES["plague_witch"].hp  # the boss's HP, from the engine


def test_my_chosen_deck_and_my_levels_go_into_the_match(starter) -> None:
    give(starter, *set(AGGRESSIVE), level=2)
    deck = ArcanaDeck.objects.create(owner=starter, name="Red", card_ids=AGGRESSIVE)
    match = pve.fight_start(user=starter, stage_key=STAGES[0].key, deck_id=deck.pk)
    assert match.options["decks"][0] == AGGRESSIVE
    assert set(match.options["levels"][0].values()) == {2}  # unrated: my own levels
    assert match.arcana_fight.deck_name == "Red"


def test_a_fight_in_play_is_returned_not_doubled(starter) -> None:
    first = pve.fight_start(user=starter, stage_key=STAGES[0].key)
    assert pve.fight_start(user=starter, stage_key=STAGES[0].key) == first
    assert PathFight.objects.count() == 1


def test_a_path_match_is_unrated(starter) -> None:
    match = _win(pve.fight_start(user=starter, stage_key=STAGES[0].key))
    assert match_is_rated(match=match) is False


# --- the consequence --------------------------------------------------------------------------


def test_a_win_clears_the_stage_and_gives_its_reward_exactly_once(starter) -> None:
    stage = stage_get("bone_warden")
    _clear(starter, *[s.key for s in STAGES[: STAGES.index(stage)]])
    OwnedCard.objects.filter(user=starter, card__card_id=stage.card).delete()
    shards_before = selectors.shards_of(user=starter)
    match = _win(pve.fight_start(user=starter, stage_key=stage.key))
    effects.match_finished(match=match)  # the consequence again: a retry, a replay
    pve.fight_settle(match_id=match.pk)  # and the task
    record = PathStageRecord.objects.get(user=starter, stage=stage.key)
    assert record.cleared is not None and record.wins == 1 and record.attempts == 0
    fight = PathFight.objects.get(match=match)
    assert fight.result == PathFight.Result.WON and fight.settled is not None
    assert f"+{stage.xp} XP" in fight.lines
    progress = PlayerProgress.objects.get(user=starter)
    # The match's own credit (progression) plus the stage's XP, once.
    from progression.models import MatchCredit

    credit = MatchCredit.objects.get(match=match, user=starter)
    assert progress.xp == credit.xp + stage.xp
    owned = OwnedCard.objects.get(user=starter, card__card_id=stage.card)
    assert owned.copies == 1
    path_grants = CardGrant.objects.filter(user=starter, source=f"Arcana path: {stage.title}")
    assert path_grants.filter(card__isnull=False).count() == 1
    assert path_grants.filter(shards=stage.shards).count() == 1
    assert Collector.objects.get(user=starter).shards >= shards_before + stage.shards


def test_a_second_win_of_a_cleared_stage_gives_nothing_more(starter) -> None:
    stage = STAGES[0]
    _win(pve.fight_start(user=starter, stage_key=stage.key))
    grants = CardGrant.objects.filter(source__startswith="Arcana path").count()
    xp = PlayerProgress.objects.get(user=starter).xp
    again = _win(pve.fight_start(user=starter, stage_key=stage.key))
    record = PathStageRecord.objects.get(user=starter, stage=stage.key)
    assert record.wins == 2
    assert CardGrant.objects.filter(source__startswith="Arcana path").count() == grants
    from progression.models import MatchCredit

    match_xp = MatchCredit.objects.get(match=again, user=starter).xp
    assert PlayerProgress.objects.get(user=starter).xp == xp + match_xp
    assert PathFight.objects.get(match=again).lines == []


def test_a_loss_records_an_attempt_and_opens_nothing(starter) -> None:
    match = pve.fight_start(user=starter, stage_key=STAGES[0].key)
    services.match_resign(match_id=match.pk, user=starter)  # the real finish path
    pve.fight_settle(match_id=match.pk)  # again: nothing more
    record = PathStageRecord.objects.get(user=starter, stage=STAGES[0].key)
    assert record.attempts == 1 and record.wins == 0 and record.cleared is None
    assert PathFight.objects.get(match=match).result == PathFight.Result.LOST
    assert _states(starter)[STAGES[1].key] == "locked"
    assert not CardGrant.objects.filter(source__startswith="Arcana path").exists()


def test_a_house_win_is_a_loss(starter) -> None:
    match = _win(pve.fight_start(user=starter, stage_key=STAGES[0].key), winner=1)
    assert PathFight.objects.get(match=match).result == PathFight.Result.LOST


def test_other_matches_are_no_fights(starter, bob) -> None:
    match = services.match_create(creator=starter, game_slug="grimhand", opponent="ai")
    _win(match)
    assert pve.fight_settle(match_id=match.pk) is None
    assert not PathStageRecord.objects.exists()


# --- bad input --------------------------------------------------------------------------------


def test_no_such_stage_writes_nothing(starter) -> None:
    before = _written()
    with pytest.raises(pve.NotFound):
        pve.fight_start(user=starter, stage_key="dragon")
    assert _written() == before


def test_another_players_deck_writes_nothing(starter, bob) -> None:
    deck = ArcanaDeck.objects.create(owner=bob, name="Bob's", card_ids=AGGRESSIVE)
    before = _written()
    with pytest.raises(pve.NotFound):
        pve.fight_start(user=starter, stage_key=STAGES[0].key, deck_id=deck.pk)
    assert _written() == before


def test_an_illegal_deck_writes_nothing(starter) -> None:
    deck = ArcanaDeck.objects.create(owner=starter, name="Bad", card_ids=AGGRESSIVE)  # not owned
    before = _written()
    with pytest.raises(pve.ArcanaError, match="cannot be played"):
        pve.fight_start(user=starter, stage_key=STAGES[0].key, deck_id=deck.pk)
    assert _written() == before


# --- the page ---------------------------------------------------------------------------------


def test_the_page_shows_every_stage_with_its_state_boss_and_reward(client, starter) -> None:
    _clear(starter, STAGES[0].key)
    client.force_login(starter)
    response = client.get(reverse("arcana:path"))
    assert response.status_code == 200
    html = response.content.decode()
    for stage in STAGES:
        assert f'data-testid="stage-{stage.key}" data-state=' in html
    assert 'data-testid="stage-raider" data-state="cleared"' in html
    assert 'data-testid="stage-warden" data-state="open"' in html
    assert 'data-testid="stage-bone_warden" data-state="locked"' in html
    assert BOSSES["bone_warden"].twist in html and "The Bone Warden" in html
    assert 'data-testid="fight-warden"' in html
    assert 'data-testid="fight-bone_warden"' not in html


def test_the_page_lists_my_recent_fights_with_their_rewards(client, starter) -> None:
    _win(pve.fight_start(user=starter, stage_key=STAGES[0].key))
    client.force_login(starter)
    html = client.get(reverse("arcana:path")).content.decode()
    assert f"{STAGES[0].title}</a>" in html and f"+{STAGES[0].xp} XP" in html


def test_the_fight_button_creates_the_match_and_goes_to_it(client, starter) -> None:
    client.force_login(starter)
    deck = ArcanaDeck.objects.get(owner=starter, name="Starter")
    response = client.post(
        reverse("arcana:path_fight"), {"stage": STAGES[0].key, "deck": str(deck.pk)}
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.arcana_fight.user == starter


@pytest.mark.parametrize(
    ("form", "status"),
    [
        ({"stage": "bone_warden"}, 403),
        ({"stage": "nothing"}, 404),
        ({"stage": "raider", "deck": "999999"}, 404),
        ({"stage": "raider", "deck": "x"}, 400),
        ({"stage": "raider", "deck": "9" * 40}, 400),
        ({"stage": "r" * 500}, 400),
        ({}, 404),
    ],
)
def test_bad_fight_requests_are_a_message_and_nothing_written(
    client, starter, form, status
) -> None:
    client.force_login(starter)
    before = _written()
    response = client.post(reverse("arcana:path_fight"), form)
    assert response.status_code == status
    assert _written() == before


def test_the_page_asks_for_a_login(client) -> None:
    response = client.get(reverse("arcana:path"))
    assert response.status_code == 302
