from django.urls import path

from botapi import streams, views
from botapi.api import api
from config import inputs  # noqa: F401 - registers the <id:> converter

# No app namespace: ninja reverses its own URLs under its namespace alone ("botapi-v1").
urlpatterns = [
    path("profile/tokens/", views.tokens, name="botapi_tokens"),
    path("profile/tokens/<id:token_id>/revoke/", views.token_revoke, name="botapi_token_revoke"),
    path("profile/bot/", views.bot, name="botapi_bot"),
    # The streams are plain async views (ninja answers whole documents): before the API.
    path("api/v1/stream/events", streams.events, name="botapi_events_stream"),
    path("api/v1/matches/<id:match_id>/stream", streams.match_stream, name="botapi_match_stream"),
    path("api/v1/", api.urls),
]
