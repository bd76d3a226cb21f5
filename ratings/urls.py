from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboards/", views.index, name="index"),
    path("leaderboards/<slug:game>/", views.board, name="board"),
]
