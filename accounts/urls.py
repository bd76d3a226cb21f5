from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation, name="vacation"),
    path("players/<str:username>/", views.player, name="player"),
]
