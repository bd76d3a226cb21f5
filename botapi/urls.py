from django.urls import path

from botapi import views
from botapi.api import api
from config import inputs  # noqa: F401 - registers the <id:> converter

# No app namespace: ninja reverses its own URLs under its namespace alone ("botapi-v1").
urlpatterns = [
    path("profile/tokens/", views.tokens, name="botapi_tokens"),
    path("profile/tokens/<id:token_id>/revoke/", views.token_revoke, name="botapi_token_revoke"),
    path("profile/bot/", views.bot, name="botapi_bot"),
    path("api/v1/", api.urls),
]
