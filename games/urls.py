from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from games import history_views, views

app_name = "games"
urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("games/<slug:slug>/rules/", views.rules, name="rules"),
    path("games/<slug:slug>/tutorial/", views.tutorial, name="tutorial"),
    path("play/quick/", views.quick_pair, name="quick_pair"),
    path("play/quick/<id:seek_id>/", views.seek, name="seek"),
    path("play/quick/<id:seek_id>/poll/", views.seek_poll, name="seek_poll"),
    path("play/quick/<id:seek_id>/cancel/", views.seek_cancel, name="seek_cancel"),
    path("play/quick/<id:seek_id>/accept/", views.seek_accept, name="seek_accept"),
    path("tables/", views.open_matches, name="open_matches"),
    path("tables/private/<name:token>/", views.private_table, name="private_table"),
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<id:match_id>/", views.match, name="match"),
    path("matches/<id:match_id>/board/", views.board, name="board"),
    path("matches/<id:match_id>/move/", views.move, name="move"),
    path("matches/<id:match_id>/preview/", views.move_preview, name="preview"),
    path("matches/<id:match_id>/resign/", views.resign, name="resign"),
    path("matches/<id:match_id>/join/", views.join, name="join"),
    path("matches/<id:match_id>/cancel/", views.cancel, name="cancel"),
    path("matches/<id:match_id>/fill/", views.fill_with_ai, name="fill"),
    path("matches/<id:match_id>/autoplay/", views.autoplay, name="autoplay"),
    path("matches/<id:match_id>/pause/", views.pause, name="pause"),
    path("matches/<id:match_id>/pause/withdraw/", views.pause_withdraw, name="pause_withdraw"),
    path("matches/<id:match_id>/resume/", views.resume, name="resume"),
    path("matches/<id:match_id>/rematch/", views.rematch, name="rematch"),
    path("matches/<id:match_id>/history/", history_views.replay, name="history"),
    path("matches/<id:match_id>/export", history_views.export, name="export"),
    path("verify/", history_views.verify, name="verify"),
]
