"""Owning and equipping cosmetics, and what the board shows for each seat."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from progression import services
from progression.errors import NotOwned
from progression.models import Cosmetic, PlayerProgress
from progression.services.demo import demo_content_load


@pytest.fixture
def demo(db):
    return demo_content_load()


def test_equipping_an_item_i_do_not_own_is_refused(alice, demo):
    ember = Cosmetic.objects.get(slug="back-ember")
    with pytest.raises(NotOwned, match="don't own “Ember”"):
        services.cosmetic_equip(user=alice, cosmetic_id=ember.pk)
    assert not PlayerProgress.objects.filter(user=alice, card_back__isnull=False).exists()


def test_equip_an_owned_item_and_back_to_the_starter(alice, demo):
    ember = Cosmetic.objects.get(slug="back-ember")
    services.reward_grant(user=alice, cosmetic=ember)
    assert services.cosmetic_equip(user=alice, cosmetic_id=ember.pk).card_back == ember
    classic = Cosmetic.objects.get(slug="back-classic")
    assert services.cosmetic_equip(user=alice, cosmetic_id=classic.pk).card_back is None


def test_level_two_gives_its_item(finished_match, bob, demo):
    finished_match()  # bob wins: 120 XP, level 2 -> the Verdant card back
    assert bob.cosmetics.filter(cosmetic__slug="back-verdant").exists()


def test_the_board_shows_each_seats_back_and_theme(make_match, alice, bob, demo):
    ember = Cosmetic.objects.get(slug="back-ember")
    crimson = Cosmetic.objects.get(slug="theme-crimson")
    services.reward_grant(user=bob, cosmetic=ember)
    services.reward_grant(user=alice, cosmetic=crimson)
    services.cosmetic_equip(user=bob, cosmetic_id=ember.pk)
    services.cosmetic_equip(user=alice, cosmetic_id=crimson.pk)
    match = make_match(alice, bob)
    html = Template("{% load progression %}{% board_cosmetics match %}").render(
        Context({"match": match})
    )
    assert (
        '#board [data-seat="1"] { --cos-back: url("/static/img/cosmetics/back-ember.svg")' in html
    )
    assert '#board [data-seat="0"] { --cos-table' in html
    assert "#board { --cos-table" in html  # the host's theme dresses the table


def test_the_board_shows_each_seats_avatar_frame(make_match, alice, bob, demo):
    laurel = Cosmetic.objects.filter(kind="avatar_frame").first()
    services.reward_grant(user=bob, cosmetic=laurel)
    services.cosmetic_equip(user=bob, cosmetic_id=laurel.pk)
    match = make_match(alice, bob)
    html = Template("{% load progression %}{% board_cosmetics match %}").render(
        Context({"match": match})
    )
    assert f'#board [data-seat="1"] {{ --cos-frame: url("/static/{laurel.asset}")' in html
    assert "--cos-frame-size" in html and '[data-seat="0"] { --cos-frame' not in html


def test_theme_css_must_be_plain_custom_properties(db):
    item = Cosmetic(kind="board_theme", slug="x", name="X", css="--a: red; } body { x: url(evil)")
    with pytest.raises(Exception, match="not a plain custom property"):
        item.full_clean()
