"""community.services.chat_post: who may write where, the limits, and what a refusal
leaves behind (nothing)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from community import selectors, services
from community.errors import ChatRefused, NotAllowed, NotFound, TooFast
from community.models import ChatMessage, Sanction
from games.models import Match
from social.models import Block

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_a_seated_player_writes_in_the_seats_room_and_it_is_pushed_after_the_commit(
    alice, bob, make_match, django_capture_on_commit_callbacks
):
    match = make_match(alice, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        line = services.chat_post(match_id=match.pk, user=alice, text="  good   luck  ")
    assert len(callbacks) == 1  # the push, after the commit only
    line.refresh_from_db()
    assert (line.room, line.text, line.sender_id) == ("seats", "good luck", alice.pk)
    assert [m.text for m in selectors.messages_for(match=match, room="seats", user=bob)] == [
        "good luck"
    ]


def test_a_spectator_writes_in_the_spectators_room_which_the_players_do_not_read(
    alice, bob, carol, make_match
):
    match = make_match(alice, bob)
    services.chat_post(match_id=match.pk, user=carol, text="go alice")
    assert selectors.room_for(match=match, user=carol) == "watch"
    assert selectors.chat_panel(match=match, user=alice).lines == []
    assert [m.text for m in selectors.chat_panel(match=match, user=carol).lines] == ["go alice"]


def test_an_emote_is_its_fixed_line(alice, bob, make_match):
    match = make_match(alice, bob)
    line = services.chat_post(match_id=match.pk, user=bob, emote="gg", text="ignored")
    assert line.emote == "gg" and "Good game" in line.text


@pytest.mark.parametrize(
    ("text", "emote", "error", "words"),
    [
        ("", "", ChatRefused, "empty"),
        ("   \n ", "", ChatRefused, "empty"),
        ("x" * 301, "", ChatRefused, "at most 300 characters; yours has 301"),
        ("", "shrug", ChatRefused, "emote does not exist"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_writes_nothing(
    alice, bob, make_match, text, emote, error, words
):
    match = make_match(alice, bob)
    with pytest.raises(error, match=words):
        services.chat_post(match_id=match.pk, user=alice, text=text, emote=emote)
    assert not ChatMessage.objects.exists()


def test_three_hundred_characters_are_allowed(alice, bob, make_match):
    match = make_match(alice, bob)
    assert len(services.chat_post(match_id=match.pk, user=alice, text="y" * 300).text) == 300


def test_a_match_one_may_not_see_or_that_does_not_exist_has_no_chat(alice, bob, carol, make_match):
    match = make_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(private_until=timezone.now() + timedelta(days=1))
    with pytest.raises(NotFound, match="no chat you can write in"):
        services.chat_post(match_id=match.pk, user=carol, text="hi")
    with pytest.raises(NotFound):
        services.chat_post(match_id=987654, user=alice, text="hi")
    assert not ChatMessage.objects.exists()


def test_a_visitor_cannot_chat(alice, bob, make_match):
    from django.contrib.auth.models import AnonymousUser

    match = make_match(alice, bob)
    with pytest.raises(NotAllowed, match="Sign in"):
        services.chat_post(match_id=match.pk, user=AnonymousUser(), text="hi")
    assert not ChatMessage.objects.exists()


def test_a_muted_player_cannot_chat_until_the_mute_ends(alice, bob, make_match, make_user):
    match = make_match(alice, bob)
    staff = make_user("mod")
    mute = services.sanction_impose(
        user=alice,
        kind="mute",
        expires=timezone.now() + timedelta(hours=1),
        reason="insults",
        by=staff,
    )
    with pytest.raises(NotAllowed, match="You are muted until .*: insults"):
        services.chat_post(match_id=match.pk, user=alice, text="hi")
    assert not ChatMessage.objects.exists()
    assert selectors.chat_panel(match=match, user=alice).muted_reason == "insults"
    services.sanction_lift(sanction=mute, by=staff)
    services.chat_post(match_id=match.pk, user=alice, text="sorry")
    assert ChatMessage.objects.count() == 1


def test_a_ban_does_not_mute(alice, bob, make_match, make_user):
    match = make_match(alice, bob)
    Sanction.objects.create(
        user=alice, kind="ban", reason="x", expires=timezone.now() + timedelta(hours=1)
    )
    services.chat_post(match_id=match.pk, user=alice, text="still here")


def test_chat_off_shows_nothing_and_sends_nothing(alice, bob, make_match):
    match = make_match(alice, bob)
    services.chat_post(match_id=match.pk, user=bob, text="hello")
    services.chat_switch(user=alice, is_on=False)
    panel = selectors.chat_panel(match=match, user=alice)
    assert not panel.is_on and panel.lines == []
    assert not selectors.chat_reaches(user=alice, sender_id=bob.pk)
    with pytest.raises(ChatRefused, match="Your chat is off"):
        services.chat_post(match_id=match.pk, user=alice, text="hi")
    assert ChatMessage.objects.count() == 1
    services.chat_switch(user=alice, is_on=True)
    assert [m.text for m in selectors.chat_panel(match=match, user=alice).lines] == ["hello"]


def test_the_pace_is_limited(alice, bob, make_match):
    match = make_match(alice, bob)
    for number in range(services.PACE_LINES):
        services.chat_post(match_id=match.pk, user=alice, text=f"line {number}")
    with pytest.raises(TooFast, match="Slow down"):
        services.chat_post(match_id=match.pk, user=alice, text="one more")
    assert ChatMessage.objects.count() == services.PACE_LINES
    services.chat_post(match_id=match.pk, user=bob, text="bob is not slowed by alice")
    ChatMessage.objects.update(created=timezone.now() - timedelta(seconds=services.PACE_SECONDS))
    services.chat_post(match_id=match.pk, user=alice, text="later")


def test_a_block_hides_lines_both_ways(alice, bob, carol, make_match):
    match = make_match(alice, bob)
    services.chat_post(match_id=match.pk, user=alice, text="from alice")
    services.chat_post(match_id=match.pk, user=bob, text="from bob")
    Block.objects.create(blocker=alice, blocked=bob)
    assert [m.text for m in selectors.messages_for(match=match, room="seats", user=alice)] == [
        "from alice"
    ]
    assert [m.text for m in selectors.messages_for(match=match, room="seats", user=bob)] == [
        "from bob"
    ]
    assert not selectors.chat_reaches(user=alice, sender_id=bob.pk)
    assert not selectors.chat_reaches(user=bob, sender_id=alice.pk)
    assert selectors.chat_reaches(user=carol, sender_id=bob.pk)
    assert not selectors.chat_reaches(user=alice, sender_id=alice.pk)  # the page has it


def test_a_removed_line_is_no_longer_shown(alice, bob, make_match, make_user):
    match = make_match(alice, bob)
    line = services.chat_post(match_id=match.pk, user=alice, text="rude")
    services.message_remove(message=line, by=make_user("mod"))
    assert selectors.messages_for(match=match, room="seats", user=bob) == []


def test_a_waiting_table_has_a_chat_for_the_players_seated_so_far(alice, bob):
    from games import services as games_services

    table = games_services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    table.refresh_from_db()
    assert table.status == "waiting"
    services.chat_post(match_id=table.pk, user=alice, text="anyone?")
    assert selectors.room_for(match=table, user=alice) == "seats"
    assert selectors.room_for(match=table, user=bob) == "watch"
