from django.contrib import admin
from django.urls import include, path

from config import health
from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("healthz", health.ready, name="healthz"),  # readiness: database, Redis, broker
    path("healthz/live", health.live, name="healthz-live"),  # liveness: the process answers
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("banira.urls")),
    path("", include("progression.urls")),
    path("notifications/", include("inbox.urls")),
    path("", include("ratings.urls")),
]

handler400 = "games.views.bad_request"
handler403 = "games.views.permission_denied"
handler404 = "games.views.page_not_found"
handler500 = "games.views.server_error"
