from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from progression import views

app_name = "progression"

urlpatterns = [
    path("progress/", views.home, name="home"),
    path("progress/quests/<id:quest_id>/reroll/", views.quest_reroll, name="quest_reroll"),
    path("progress/time-zone/", views.time_zone, name="time_zone"),
    path("progress/season/", views.season, name="season"),
    path("progress/season/claim/", views.claim, name="claim"),
    path("progress/season/premium/", views.premium, name="premium"),
    path("progress/collection/", views.collection, name="collection"),
    path("progress/collection/equip/", views.equip, name="equip"),
    path("progress/achievements/", views.achievements, name="achievements"),
]
