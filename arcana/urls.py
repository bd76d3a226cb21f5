from django.urls import path

from arcana import views
from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters

app_name = "arcana"

urlpatterns = [
    path("arcana/", views.collection, name="collection"),
    path("arcana/upgrade/", views.upgrade, name="upgrade"),
    path("arcana/decks/", views.decks, name="decks"),
    path("arcana/decks/new/", views.deck_new, name="deck_new"),
    path("arcana/decks/check/", views.deck_check, name="deck_check"),
    path("arcana/decks/<id:deck_id>/", views.deck_edit, name="deck_edit"),
    path("arcana/decks/<id:deck_id>/delete/", views.deck_delete, name="deck_delete"),
    path("arcana/path/", views.path_page, name="path"),
    path("arcana/path/fight/", views.path_fight, name="path_fight"),
]
