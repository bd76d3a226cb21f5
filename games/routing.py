from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from games.consumers import MatchConsumer

websocket_urlpatterns = [path("ws/matches/<id:match_id>/", MatchConsumer.as_asgi())]
