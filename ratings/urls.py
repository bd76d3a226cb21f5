from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboards/", views.index, name="index"),
    path("leaderboards/<str:game>/", views.board, name="board"),
]
