from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_vacation"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="sound_volume",
            field=models.PositiveSmallIntegerField(default=60),
        ),
        migrations.AddField(
            model_name="profile",
            name="sound_muted",
            field=models.BooleanField(default=False),
        ),
    ]
