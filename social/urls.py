from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from social import views

app_name = "social"
urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/online/", views.online_setting, name="online_setting"),
    path("players/<name:username>/follow/", views.follow, name="follow"),
    path("players/<name:username>/unfollow/", views.unfollow, name="unfollow"),
    path("players/<name:username>/block/", views.block, name="block"),
    path("players/<name:username>/unblock/", views.unblock, name="unblock"),
    path("players/<name:username>/challenge/", views.challenge, name="challenge"),
]
