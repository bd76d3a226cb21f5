from django.urls import path

from games import history_views, views

app_name = "games"
urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("games/<slug:slug>/rules/", views.rules, name="rules"),
    path("games/<slug:slug>/tutorial/", views.tutorial, name="tutorial"),
    path("tables/", views.open_matches, name="open_matches"),
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/board/", views.board, name="board"),
    path("matches/<int:match_id>/move/", views.move, name="move"),
    path("matches/<int:match_id>/preview/", views.move_preview, name="preview"),
    path("matches/<int:match_id>/resign/", views.resign, name="resign"),
    path("matches/<int:match_id>/join/", views.join, name="join"),
    path("matches/<int:match_id>/cancel/", views.cancel, name="cancel"),
    path("matches/<int:match_id>/fill/", views.fill_with_ai, name="fill"),
    path("matches/<int:match_id>/autoplay/", views.autoplay, name="autoplay"),
    path("matches/<int:match_id>/pause/", views.pause, name="pause"),
    path("matches/<int:match_id>/pause/withdraw/", views.pause_withdraw, name="pause_withdraw"),
    path("matches/<int:match_id>/resume/", views.resume, name="resume"),
    path("matches/<int:match_id>/rematch/", views.rematch, name="rematch"),
    path("matches/<int:match_id>/history/", history_views.replay, name="history"),
    path("matches/<int:match_id>/export", history_views.export, name="export"),
    path("verify/", history_views.verify, name="verify"),
]
