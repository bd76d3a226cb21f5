from django.urls import path

from accounts import views
from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation, name="vacation"),
    path("profile/sound/", views.sound, name="sound"),
    path("players/<name:username>/", views.player, name="player"),
]
