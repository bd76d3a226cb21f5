"""The header's sound settings (accounts.services.sound_update, POST /profile/sound/): kept
on the player's profile; bad input answers 400 with a readable message and writes nothing."""

import pytest
from django.urls import reverse

from accounts import services as accounts
from accounts.errors import SoundRefused
from accounts.models import Profile

URL = reverse("sound")


def _profile(user):
    return Profile.objects.get(user=user)


def test_the_volume_and_mute_are_kept_on_the_profile(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"volume": "35", "muted": "on"})
    assert response.status_code == 200
    assert response.json() == {"volume": 35, "muted": True}
    profile = _profile(alice)
    assert (profile.sound_volume, profile.sound_muted) == (35, True)
    client.post(URL, {"volume": "80", "muted": "off"})
    profile = _profile(alice)
    assert (profile.sound_volume, profile.sound_muted) == (80, False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"volume": "101"}, "from 0 to 100"),
        ({"volume": "-4"}, "digits 0 to 9"),
        ({"volume": "loud"}, "whole number"),
        ({"volume": "1e2"}, "whole number"),
        ({"volume": ""}, "whole number"),
        ({}, "whole number"),
        ({"volume": "40", "muted": "maybe"}, "Mute must be on or off"),
        ({"volume": "9" * 400}, "from 0 to 100"),
    ],
)
def test_bad_input_gets_a_clear_message_and_writes_nothing(client, alice, data, message):
    client.force_login(alice)
    before = _profile(alice)
    response = client.post(URL, data)
    assert response.status_code == 400
    assert message in response.json()["error"]
    after = _profile(alice)
    assert (after.sound_volume, after.sound_muted) == (before.sound_volume, before.sound_muted)


def test_the_service_refuses_a_volume_out_of_range(alice):
    accounts.profile_ensure(user=alice)
    for volume in (-1, 101, True, "50"):
        with pytest.raises(SoundRefused):
            accounts.sound_update(user=alice, volume=volume, muted=False)
    assert _profile(alice).sound_volume == 60


def test_only_a_signed_in_player_posts_and_only_by_post(client, alice):
    assert client.post(URL, {"volume": "10"}).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(URL).status_code == 405
