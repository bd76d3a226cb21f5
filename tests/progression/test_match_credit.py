"""A finished match credits its human players once: XP, coins, season XP, quests."""

from __future__ import annotations

import pytest

from games import effects
from games import services as match_services
from progression import levels, services
from progression.models import CoinEntry, DailyQuest, MatchCredit, PlayerProgress, SeasonProgress
from tests.concurrency import race
from tests.conftest import EXAMPLE_DEAL, requires_postgres
from tests.progression.conftest import play_out


def test_finishing_credits_winner_and_loser_in_the_result_transaction(finished_match, alice, bob):
    match = finished_match()
    assert match.outcome["winners"] == [1]  # bob
    bob_credit = MatchCredit.objects.get(match=match, user=bob)
    alice_credit = MatchCredit.objects.get(match=match, user=alice)
    assert bob_credit.xp == levels.FINISH_XP + levels.WIN_XP == 120
    assert alice_credit.xp == levels.FINISH_XP
    assert PlayerProgress.objects.get(user=bob).xp == 120
    assert PlayerProgress.objects.get(user=bob).level == 2  # 100 XP is level 2
    assert PlayerProgress.objects.get(user=bob).coins == (
        levels.FINISH_COINS + levels.WIN_COINS + levels.default_level_coins(2)
    )


def test_processing_again_changes_nothing(finished_match, bob):
    match = finished_match()
    before = PlayerProgress.objects.get(user=bob).xp
    assert services.match_result_process(match_id=match.pk) == []
    assert services.match_result_process(match_id=match.pk) == []
    assert PlayerProgress.objects.get(user=bob).xp == before
    assert MatchCredit.objects.filter(match=match).count() == 2


def test_a_running_or_cancelled_match_earns_nothing(make_match, alice, bob):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    assert services.match_result_process(match_id=match.pk) == []
    assert not MatchCredit.objects.exists()


def test_quests_and_season_xp_count_from_the_match(finished_match, bob, quest_templates, season):
    services.quests_today(user=bob)
    finished_match()
    quests = {q.template.name: q for q in DailyQuest.objects.filter(user=bob)}
    assert quests["Win one"].is_completed
    assert quests["Play 2 matches"].progress == 1
    assert quests["Strike 100"].progress == 60  # bob's 30/120 monster struck twice for 30
    credit = MatchCredit.objects.get(user=bob)
    assert credit.xp == 120 + 60  # the win and the "Win one" quest
    assert SeasonProgress.objects.get(user=bob, season=season).xp == 120 + 60
    assert any("Quest complete: Win one" in line for line in credit.lines)


def test_a_resigned_player_earns_nothing_the_winner_does(make_match, alice, bob):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    for ply, user in enumerate((alice, bob)):
        match_services.move_submit(match_id=match.pk, user=user, ply=ply, move={"type": "attack"})
    match_services.match_resign(match_id=match.pk, user=alice)
    assert MatchCredit.objects.get(match=match, user=alice).xp == 0
    assert PlayerProgress.objects.get(user=alice).xp == 0
    assert MatchCredit.objects.get(match=match, user=bob).xp == 120


def test_a_win_without_a_move_earns_nothing(make_match, alice, bob):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    match_services.match_resign(match_id=match.pk, user=alice)
    assert MatchCredit.objects.get(match=match, user=bob).xp == 0
    assert "no move" in MatchCredit.objects.get(match=match, user=bob).lines[0]


def test_against_the_ai_xp_is_halved(alice):
    match = match_services.match_create(
        creator=alice, game_slug="dogblade", opponent="ai", options=EXAMPLE_DEAL
    )
    match = play_out(match)
    credit = MatchCredit.objects.get(match=match, user=alice)
    assert credit.xp == int(levels.FINISH_XP * levels.REDUCED)
    assert "vs AI" in credit.lines[0]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_processing_twice_concurrently_credits_once(
    make_user, make_match, quest_templates, season, monkeypatch
):
    host, guest = make_user(), make_user()
    # Finish without the in-transaction credit, as if it had failed and been left to the task:
    # the slot progression registered at games.effects' "match_finished" does nothing.
    monkeypatch.setitem(
        effects._hooks["match_finished"], "progression.credit", lambda *, match: None
    )
    match = play_out(make_match(host, guest, options=EXAMPLE_DEAL))
    monkeypatch.undo()
    assert not MatchCredit.objects.exists()

    results = race(4, lambda _: services.match_result_process(match_id=match.pk))

    assert sorted(len(made) for made in results) == [0, 0, 0, 2]
    assert MatchCredit.objects.filter(match=match).count() == 2
    winner = PlayerProgress.objects.get(user=guest)
    assert winner.xp == 120 + 60  # the win and the "Win one" quest, once
    assert SeasonProgress.objects.get(user=guest).xp == 180
    assert DailyQuest.objects.get(user=guest, template__name="Play 2 matches").progress == 1
    assert CoinEntry.objects.filter(user=guest, reason="match").count() == 1
    assert CoinEntry.objects.filter(user=guest, reason="quest").count() == 1
