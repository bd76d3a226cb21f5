"""AI seats store the level's id from games.ai.levels, no longer the name of a bot.

"random" becomes "easy", "greedy" "normal" and "ismcts" "hard" (Hard plays flat Monte
Carlo in most games, not ISMCTS). The tutorial's "tutorial" and human seats' "" keep
theirs. The reverse gives the old names back. The names are written out here, not read
from games.ai.levels: a migration must keep meaning what it meant when it was written.
"""

from django.db import migrations

RENAMED = {"random": "easy", "greedy": "normal", "ismcts": "hard"}


def rename(apps, mapping):
    Seat = apps.get_model("games", "Seat")
    for old, new in mapping.items():
        Seat.objects.filter(ai_level=old).update(ai_level=new)


def forwards(apps, schema_editor):
    rename(apps, RENAMED)


def backwards(apps, schema_editor):
    rename(apps, {new: old for old, new in RENAMED.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_clocks_and_rematch"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
