"""Owned items in the admin: see what a player owns, grant (audited) and revoke for a
reason (progression.services.cosmetic_revoke, audited), and nothing written on bad input."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from progression import services
from progression.errors import ProgressionError
from progression.models import Cosmetic, Ownership, PlayerProgress

pytestmark = pytest.mark.django_db

OWNED = reverse("admin:progression_ownership_changelist")
PROGRESS = reverse("admin:progression_playerprogress_changelist")


@pytest.fixture
def ember(db):
    return Cosmetic.objects.create(
        kind=Cosmetic.Kind.CARD_BACK, slug="ember-test", name="Ember Test", asset="img/x.svg"
    )


@pytest.fixture
def owned(alice, ember):
    services.reward_grant(user=alice, cosmetic=ember, note="Level 3")
    services.cosmetic_equip(user=alice, cosmetic_id=ember.pk)
    return Ownership.objects.get(user=alice, cosmetic=ember)


def _audit(user) -> list[str]:
    progress = PlayerProgress.objects.get(user=user)
    kind = ContentType.objects.get_for_model(PlayerProgress)
    rows = LogEntry.objects.filter(content_type=kind, object_id=str(progress.pk))
    return [row.get_change_message() for row in rows.order_by("pk")]


def test_the_player_page_and_the_list_show_what_a_player_owns(admin_client, alice, owned):
    progress = PlayerProgress.objects.get(user=alice)
    page = admin_client.get(reverse("admin:progression_playerprogress_change", args=[progress.pk]))
    assert page.status_code == 200 and "Ember Test" in page.content.decode()
    listing = admin_client.get(OWNED, {"user__id__exact": alice.pk})
    assert listing.status_code == 200
    assert "Ember Test" in listing.content.decode() and "Level 3" in listing.content.decode()


def test_revoke_asks_a_reason_takes_the_item_back_unequips_and_audits(
    admin_client, admin_user, alice, owned
):
    data = {"action": "revoke", "_selected_action": [owned.pk]}
    form = admin_client.post(OWNED, data)
    assert form.status_code == 200 and "Revoke items" in form.content.decode()
    done = admin_client.post(OWNED, {**data, "apply": "1", "reason": "Granted by mistake"})
    assert done.status_code == 302
    assert not Ownership.objects.filter(pk=owned.pk).exists()
    assert PlayerProgress.objects.get(user=alice).card_back is None
    assert _audit(alice) == ["Revoked “Ember Test” (from: Level 3). Reason: Granted by mistake"]
    assert LogEntry.objects.get().user == admin_user


def test_an_empty_reason_revokes_nothing(admin_client, alice, owned):
    data = {"action": "revoke", "_selected_action": [owned.pk], "apply": "1", "reason": " "}
    response = admin_client.post(OWNED, data)
    assert response.status_code == 200 and "required" in response.content.decode()
    assert Ownership.objects.filter(pk=owned.pk).exists()
    assert PlayerProgress.objects.get(user=alice).card_back_id == owned.cosmetic_id
    assert not LogEntry.objects.exists()


def test_revoking_twice_takes_it_back_once(alice, owned, ember):
    assert services.cosmetic_revoke(user=alice, cosmetic_id=ember.pk) is not None
    assert services.cosmetic_revoke(user=alice, cosmetic_id=ember.pk) is None
    assert not Ownership.objects.filter(user=alice).exists()


def test_starter_and_unknown_items_cannot_be_revoked(alice, ember):
    starter = Cosmetic.objects.create(
        kind=Cosmetic.Kind.CARD_BACK, slug="plain", name="Plain", asset="img/p.svg", is_starter=True
    )
    with pytest.raises(ProgressionError, match="starter item"):
        services.cosmetic_revoke(user=alice, cosmetic_id=starter.pk)
    with pytest.raises(ProgressionError, match="no such item"):
        services.cosmetic_revoke(user=alice, cosmetic_id=ember.pk + 999)


def test_a_grant_from_the_admin_is_audited(admin_client, alice, ember):
    row = PlayerProgress.objects.get_or_create(user=alice)[0]
    data = {"action": "grant_reward", "_selected_action": [row.pk], "apply": "1"}
    data |= {"xp": 0, "coins": 50, "season_xp": 0, "cosmetic": ember.pk, "note": "Bug bounty"}
    assert admin_client.post(PROGRESS, data).status_code == 302
    assert Ownership.objects.filter(user=alice, cosmetic=ember, source="Bug bounty").exists()
    assert _audit(alice) == ["Granted 50 coins, “Ember Test”. Note: Bug bounty"]


def test_rows_cannot_be_added_edited_or_deleted_around_the_services(admin_client, owned):
    assert admin_client.get(reverse("admin:progression_ownership_add")).status_code == 403
    delete = {"action": "delete_selected", "_selected_action": [owned.pk], "post": "yes"}
    admin_client.post(OWNED, delete)
    assert Ownership.objects.filter(pk=owned.pk).exists()
