"""Load the engine's default pool of ability cards (idempotent)."""

from django.db import migrations


def load_pool(apps, schema_editor):
    from arcana.default_pool import load_default_pool

    load_default_pool(apps.get_model("arcana", "ArcanaCard"))


class Migration(migrations.Migration):
    dependencies = [("arcana", "0001_initial")]

    operations = [migrations.RunPython(load_pool, migrations.RunPython.noop)]
