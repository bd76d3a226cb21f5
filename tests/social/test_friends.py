"""Follows, the friends page, presence shown only with consent, the friends filter of "My
matches" and "Open tables", and bad input (follow yourself, an unknown player, across a
block): a clear message and nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import presence
from games import services as games_services
from social import selectors, services
from social.errors import Blocked, NoSuchPlayer, NotWithYourself
from social.models import Block, Follow, Visibility
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def _messages(response):
    return [str(message) for message in response.context["messages"]]


def test_follow_and_unfollow_from_the_player_page(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("player", args=["bob"]))
    assert b'data-testid="follow"' in page.content and b'data-testid="challenge"' in page.content
    response = client.post(reverse("social:follow", args=["bob"]), follow=True)
    assert "You follow bob: a friend now." in _messages(response)
    assert b'data-testid="unfollow"' in response.content
    assert Follow.objects.filter(follower=alice, followed=bob).count() == 1
    client.post(reverse("social:follow", args=["bob"]))  # a double click changes nothing
    assert Follow.objects.count() == 1
    response = client.post(reverse("social:unfollow", args=["bob"]), follow=True)
    assert "You no longer follow bob." in _messages(response)
    assert Follow.objects.count() == 0


def test_the_header_account_menu_links_a_signed_in_player_to_their_friends(client, alice):
    assert 'data-testid="header-friends"' not in client.get("/").content.decode()
    client.force_login(alice)
    page = client.get("/").content.decode()
    friends = reverse("social:friends")
    assert 'aria-controls="account-panel" data-testid="account-toggle">alice</button>' in page
    panel = page.split('id="account-panel"', 1)[1].split("</div>", 1)[0]
    assert f'href="{friends}" data-testid="header-friends"' in panel
    assert f'href="{reverse("profile")}"' in panel and "Log out" in panel
    assert client.get(friends).status_code == 200


def test_a_visitor_sees_no_buttons_and_cannot_post(client, bob):
    page = client.get(reverse("player", args=["bob"]))
    assert page.status_code == 200 and b'data-testid="social-panel"' not in page.content
    response = client.post(reverse("social:follow", args=["bob"]))
    assert response.status_code == 302 and "login" in response["Location"]
    assert Follow.objects.count() == 0


def test_following_yourself_or_nobody_is_refused_and_writes_nothing(client, alice):
    with pytest.raises(NotWithYourself, match="You cannot follow yourself."):
        services.follow_create(user=alice, username="alice")
    with pytest.raises(NoSuchPlayer, match="There is no player called “zed”."):
        services.follow_create(user=alice, username="zed")
    client.force_login(alice)
    response = client.post(reverse("social:follow", args=["alice"]), follow=True)
    assert "You cannot follow yourself." in _messages(response)
    response = client.post(reverse("social:follow", args=["zed"]))
    assert response.status_code == 404 and "There is no player called" in response.text
    for name in ("block", "challenge"):
        assert client.post(reverse(f"social:{name}", args=["zed"])).status_code == 404
    assert client.get(reverse("social:challenge", args=["zed"])).status_code == 404
    assert Follow.objects.count() == Block.objects.count() == 0


def test_no_follow_across_a_block_and_a_block_ends_follows(alice, bob):
    services.follow_create(user=alice, username="bob")
    services.follow_create(user=bob, username="alice")
    services.block_create(user=bob, username="alice")
    assert Follow.objects.count() == 0
    with pytest.raises(Blocked, match="bob is not taking follows from you."):
        services.follow_create(user=alice, username="bob")
    with pytest.raises(Blocked, match="You have blocked alice: unblock them on their page"):
        services.follow_create(user=bob, username="alice")
    assert Follow.objects.count() == 0
    services.block_delete(user=bob, username="alice")
    services.follow_create(user=alice, username="bob")
    assert Follow.objects.count() == 1


def test_block_and_unblock_from_the_player_page(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("social:block", args=["bob"]), follow=True)
    assert any("You blocked bob" in text for text in _messages(response))
    assert b'data-testid="unblock"' in response.content
    assert b'data-testid="challenge"' not in response.content
    assert selectors.blocked_between(alice, bob)
    friends = client.get(reverse("social:friends"))
    assert b'data-testid="blocked"' in friends.content and b"bob" in friends.content
    response = client.post(reverse("social:unblock", args=["bob"]), follow=True)
    assert "You unblocked bob." in _messages(response)
    assert not selectors.blocked_between(alice, bob)
    response = client.post(reverse("social:block", args=["alice"]), follow=True)
    assert "You cannot block yourself." in _messages(response)
    assert Block.objects.count() == 0


def test_the_friends_page_lists_whom_i_follow(client, alice, bob, carol):
    client.force_login(alice)
    assert b'data-testid="no-friends"' in client.get(reverse("social:friends")).content
    services.follow_create(user=alice, username="bob")
    services.follow_create(user=bob, username="alice")
    services.follow_create(user=carol, username="alice")  # carol follows me: not my friend
    page = client.get(reverse("social:friends"))
    friends = page.context["friends"]
    assert [friend.username for friend in friends] == ["bob"]
    assert friends[0].follows_back and friends[0].is_online is None


def test_online_is_shown_only_with_consent(client, alice, bob, make_match):
    match = make_match(alice, bob)
    services.follow_create(user=alice, username="bob")
    presence.presence_touch(user_id=bob.pk, match_id=match.pk, channel="bobs-page")
    client.force_login(alice)
    assert client.get(reverse("social:friends")).context["friends"][0].is_online is None
    page = client.get(reverse("player", args=["bob"]))
    assert b'data-testid="online-status"' not in page.content
    client.force_login(bob)
    response = client.post(reverse("social:online_setting"), {"shows_online": "on"}, follow=True)
    assert "Your friends now see when you are online." in _messages(response)
    assert Visibility.objects.get(user=bob).shows_online
    client.force_login(alice)
    friend = client.get(reverse("social:friends")).context["friends"][0]
    assert friend.is_online is True
    page = client.get(reverse("player", args=["bob"]))
    assert b"Online</span> now" in page.content
    presence.presence_leave(user_id=bob.pk, match_id=match.pk, channel="bobs-page")
    assert client.get(reverse("social:friends")).context["friends"][0].is_online is False
    client.force_login(bob)
    client.post(reverse("social:online_setting"), {})  # unticked: consent withdrawn
    presence.presence_touch(user_id=bob.pk, match_id=match.pk, channel="bobs-page")
    client.force_login(alice)
    assert client.get(reverse("social:friends")).context["friends"][0].is_online is None


def test_the_friends_filter_of_my_matches(client, alice, bob, carol, make_match):
    with_bob = make_match(alice, bob)
    with_carol = make_match(alice, carol)
    services.follow_create(user=alice, username="bob")
    client.force_login(alice)
    every = client.get(reverse("games:my_matches")).context["groups"]["their_turn"]
    every += client.get(reverse("games:my_matches")).context["groups"]["my_turn"]
    assert {m.pk for m in every} == {with_bob.pk, with_carol.pk}
    page = client.get(reverse("games:my_matches") + "?friends=1")
    groups = page.context["groups"]
    assert {m.pk for group in groups.values() for m in group} == {with_bob.pk}
    assert b"Show everyone" in page.content


def test_the_friends_filter_of_open_tables(client, alice, bob, carol):
    by_bob = games_services.match_create(creator=bob, game_slug="dogblade", opponent="open")
    by_carol = games_services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    services.follow_create(user=alice, username="bob")
    client.force_login(alice)
    assert {m.pk for m in client.get(reverse("games:open_matches")).context["matches"]} == {
        by_bob.pk,
        by_carol.pk,
    }
    page = client.get(reverse("games:open_matches") + "?friends=1")
    assert [m.pk for m in page.context["matches"]] == [by_bob.pk]
    client.logout()  # a visitor has no friends: the filter is ignored, never an error
    page = client.get(reverse("games:open_matches") + "?friends=1")
    assert page.status_code == 200 and len(page.context["matches"]) == 2


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_follows_and_blocks_sent_at_once_are_written_once(alice, bob):
    results = race(4, lambda _: services.follow_create(user=alice, username="bob").pk)
    assert len(set(results)) == 1 and Follow.objects.count() == 1
    results = race(4, lambda _: services.block_create(user=bob, username="alice").pk)
    assert len(set(results)) == 1 and Block.objects.count() == 1
    assert Follow.objects.count() == 0


def test_open_tables_leave_out_hosts_kept_apart_by_a_block(client, alice, bob, carol):
    by_bob = games_services.match_create(creator=bob, game_slug="dogblade", opponent="open")
    by_carol = games_services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    services.block_create(user=alice, username="bob")
    services.block_create(user=carol, username="alice")
    client.force_login(alice)
    assert client.get(reverse("games:open_matches")).context["matches"] == []
    client.force_login(bob)  # bob sees carol's table (no block between them), not alice's
    assert [m.pk for m in client.get(reverse("games:open_matches")).context["matches"]] == [
        by_carol.pk
    ]
    client.force_login(carol)
    assert [m.pk for m in client.get(reverse("games:open_matches")).context["matches"]] == [
        by_bob.pk
    ]
