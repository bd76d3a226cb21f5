"""games.admission: the registry social's block check joins, and every path that a block
closes in the games services (invite by name, join by id, join by link, quick pairing, a
seek picked from the list, a rematch). Each refusal says why and writes nothing."""

from __future__ import annotations

import pytest

from games import admission, services
from games.errors import CannotCreate, SeatUnavailable
from games.models import Match, Seat, Seek
from games.services import pairing
from inbox.models import Notification
from social import selectors
from social.models import Block

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def _block(blocker, blocked):
    return Block.objects.create(blocker=blocker, blocked=blocked)


def _counts():
    return (
        Match.objects.count(),
        Seat.objects.count(),
        Notification.objects.count(),
        Seek.objects.filter(status=Seek.Status.PAIRED).count(),
    )


def test_the_registry_runs_checks_in_order_and_ignores_absent_players(alice, bob):
    seen = []

    def check(*, user, others):
        seen.append((user.pk, [other.pk for other in others]))
        return "no" if others else None

    admission.register(check)
    admission.register(check)  # twice changes nothing
    try:
        assert admission.refusal(user=alice, others=[None, alice]) is None
        assert seen == [(alice.pk, [])]  # asked with nobody else at the table (the AI)
        assert admission.refusal(user=alice, others=[bob]) == "no"
        assert seen[-1] == (alice.pk, [bob.pk])
        assert admission.refusal(user=None, others=[bob]) is None  # nobody acting
    finally:
        admission.unregister(check)
    assert admission.refusal(user=alice, others=[bob]) is None  # social's check: no block


def test_social_registers_its_block_check_and_it_works_both_ways(alice, bob, carol):
    assert selectors.block_refusal in admission._checks
    _block(alice, bob)
    assert selectors.blocked_between(alice, bob) and selectors.blocked_between(bob, alice)
    assert not selectors.blocked_between(alice, carol)
    assert selectors.blocked_ids_for(alice) == {bob.pk}
    assert selectors.blocked_ids_for(bob) == {alice.pk}
    assert selectors.blocked_ids_for(carol) == set()
    assert "You have blocked bob" in admission.refusal(user=alice, others=[carol, bob])
    assert admission.refusal(user=bob, others=[alice]) == "alice is not taking matches from you."
    assert admission.refusal(user=carol, others=[alice, bob]) is None


@pytest.mark.parametrize("blocker_is_creator", [True, False])
def test_invite_by_name_is_refused_either_way(alice, bob, blocker_is_creator):
    _block(alice, bob) if blocker_is_creator else _block(bob, alice)
    before = _counts()
    with pytest.raises(CannotCreate) as refused:
        services.match_create(
            creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
        )
    assert "bob" in refused.value.message or "not taking matches" in refused.value.message
    assert _counts() == before


def test_join_by_id_is_refused(alice, bob):
    table = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    _block(alice, bob)
    before = _counts()
    with pytest.raises(SeatUnavailable, match="alice is not taking matches from you"):
        services.match_join(match_id=table.pk, user=bob)
    assert _counts() == before
    assert table.seats.get(index=1).user_id is None
    table.refresh_from_db()
    assert table.status == Match.Status.WAITING


def test_an_invitation_made_before_the_block_cannot_be_accepted(alice, bob):
    table = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    _block(bob, alice)
    with pytest.raises(SeatUnavailable, match="You have blocked alice"):
        services.match_join(match_id=table.pk, user=bob)
    assert table.seats.get(index=1).joined is None


def test_join_by_private_link_is_refused(alice, bob):
    table = services.match_create(
        creator=alice, game_slug="dogblade", opponent="open", time_control="1d", is_private=True
    )
    _block(bob, alice)
    before = _counts()
    with pytest.raises(SeatUnavailable, match="You have blocked alice"):
        services.match_join_by_link(token=table.invite_token, user=bob)
    assert _counts() == before
    assert table.seats.get(index=1).user_id is None


def test_quick_pairing_never_pairs_a_blocked_pair(alice, bob, carol):
    _block(alice, bob)
    first = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    second = pairing.seek_create(user=bob, game_slug="dogblade", time_control="1d")
    assert first.status == second.status == Seek.Status.OPEN  # both wait on
    assert Match.objects.count() == 0
    second = pairing.seek_refresh(user=bob, seek_id=second.pk)
    assert second.status == Seek.Status.OPEN and Match.objects.count() == 0
    third = pairing.seek_create(user=carol, game_slug="dogblade", time_control="1d")
    assert third.status == Seek.Status.PAIRED  # with one of them: the others still pair
    match = third.match
    assert set(match.seats.values_list("user__username", flat=True)) & {"alice", "bob"}


def test_picking_a_blocked_players_seek_from_the_list_is_refused(alice, bob):
    seek = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    _block(alice, bob)
    before = _counts()
    with pytest.raises(CannotCreate, match="alice is not taking matches from you"):
        pairing.seek_accept(user=bob, seek_id=seek.pk)
    assert _counts() == before
    seek.refresh_from_db()
    assert seek.status == Seek.Status.OPEN


def test_the_seek_list_leaves_out_players_blocked_either_way(alice, bob, carol):
    from games.selectors import seek_list

    mine = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    theirs = pairing.seek_create(user=carol, game_slug="shield", time_control="1d")
    assert [seek.pk for seek in seek_list(user=bob)] == [mine.pk, theirs.pk]
    _block(alice, bob)  # alice blocked bob: bob no longer sees her seek
    assert [seek.pk for seek in seek_list(user=bob)] == [theirs.pk]
    _block(bob, carol)  # bob blocked carol: nor hers
    assert seek_list(user=bob) == []
    assert [seek.pk for seek in seek_list(user=carol)] == [mine.pk]  # alice's, unblocked


def test_a_rematch_after_a_block_is_refused(alice, bob, make_match):
    match = make_match(alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    _block(bob, alice)
    before = _counts()
    with pytest.raises(CannotCreate, match="bob is not taking matches from you"):
        services.match_rematch(match_id=match.pk, user=alice)
    assert _counts() == before


@pytest.mark.parametrize("blocker_is_inviter", [True, False])
def test_blocking_withdraws_an_open_invitation_between_the_two_and_nothing_else(
    alice, bob, carol, make_match, blocker_is_inviter
):
    from social import services as social_services

    invitation = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    to_carol = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="carol"
    )
    open_table = services.match_create(creator=bob, game_slug="dogblade", opponent="open")
    under_way = make_match(alice, bob)
    blocker, blocked = (alice, bob) if blocker_is_inviter else (bob, alice)

    social_services.block_create(user=blocker, username=blocked.username)

    statuses = dict(
        Match.objects.filter(
            pk__in=[invitation.pk, to_carol.pk, open_table.pk, under_way.pk]
        ).values_list("pk", "status")
    )
    assert statuses == {
        invitation.pk: Match.Status.CANCELLED,  # withdrawn, as the blocker could by hand
        to_carol.pk: Match.Status.WAITING,
        open_table.pk: Match.Status.WAITING,  # alice has no seat there: nothing to withdraw
        under_way.pk: Match.Status.ACTIVE,  # a match under way plays on
    }
    social_services.block_create(user=blocker, username=blocked.username)  # again: no change
    assert Match.objects.filter(status=Match.Status.CANCELLED).count() == 1
