"""Load the engine's default deck as the active "Classic" deck list (idempotent)."""

from django.db import migrations


def load_classic(apps, schema_editor):
    from banira.default_pool import load_default_deck

    load_default_deck(
        apps.get_model("banira", "CardDefinition"),
        apps.get_model("banira", "DeckList"),
        apps.get_model("banira", "DeckEntry"),
    )


class Migration(migrations.Migration):
    dependencies = [("banira", "0001_initial")]

    operations = [migrations.RunPython(load_classic, migrations.RunPython.noop)]
