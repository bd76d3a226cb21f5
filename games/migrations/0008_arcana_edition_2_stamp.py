"""Grimhand Arcana matches stored under edition 2 keep its rules.

Edition 3 (docs/rules/grimhand.md, Arcana, "Open tops") shows each numbered deck's top
card to everyone, and the engine plays an Arcana match that names no edition under today's.
The site has written the edition into every Arcana match it created since edition 2, but a
match that names none was played under edition 2 until now: it is stamped edition 2, so a
running match neither starts showing its tops halfway nor meets fatigue, and its log
replays under the rules it was played by. The reverse has nothing to undo: before this
migration, naming no edition meant edition 2.
"""

from django.db import migrations

SECOND_EDITION = 2  # written out: a migration keeps meaning what it meant when written


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(game="grimhand").only("pk", "options").iterator():
        options = match.options
        if isinstance(options, dict) and options.get("variant") == "arcana":
            if "edition" not in options:
                match.options = {**options, "edition": SECOND_EDITION}
                match.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_arcana_edition"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False),
    ]
