from django.urls import path

from banira import views
from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters

app_name = "banira"

urlpatterns = [
    path("banira/", views.home, name="home"),
    path("banira/practice/", views.practice, name="practice"),
    path("banira/weekly/", views.weekly_start, name="weekly_start"),
    path("banira/leaderboard/", views.leaderboard, name="leaderboard"),
    path("banira/weeks/", views.weeks, name="weeks"),
    path("banira/weeks/<date:week>/deck.json", views.week_deck, name="week_deck"),
]
