"""Grimhand Arcana matches stored before "no two arcana draws in a row" keep their rules.

Their options name no rules edition, and the engine plays an Arcana match that names none
under today's edition (2), which refuses an arcana draw right after another. Every stored
Arcana match without one is stamped edition 1, the rules it was created under, so its log
replays and its remaining moves are judged as before (docs/rules/grimhand.md, Arcana,
"Editions"). Edition 1 allows every move edition 2 does, so a match already played under
edition 2 replays the same under 1. The reverse takes the stamp off again.
"""

from django.db import migrations

FIRST_EDITION = 1  # written out: a migration keeps meaning what it meant when written


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(game="grimhand").only("pk", "options").iterator():
        options = match.options
        if isinstance(options, dict) and options.get("variant") == "arcana":
            if "edition" not in options:
                match.options = {**options, "edition": FIRST_EDITION}
                match.save(update_fields=["options"])


def backwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(game="grimhand").only("pk", "options").iterator():
        options = match.options
        if isinstance(options, dict) and options.get("edition") == FIRST_EDITION:
            match.options = {key: value for key, value in options.items() if key != "edition"}
            match.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_lobby_and_pairing"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
