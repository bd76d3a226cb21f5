from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from config import csp_reports, health, pwa, scrape
from progression import cosmetic_art
from web import views

# The admin logs in through the site's own login (allauth): one login page, with its
# throttling of failed attempts (ACCOUNT_RATE_LIMITS), for staff too (docs/security.md).
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]  # wrapped

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.ready, name="healthz"),  # readiness: database, Redis, broker
    path("healthz/live", health.live, name="healthz-live"),  # liveness: the process answers
    path("metrics", scrape.scrape, name="metrics"),  # Prometheus; closed unless configured
    path("csp-report", csp_reports.report, name="csp-report"),  # what browsers blocked
    path("manifest.webmanifest", pwa.manifest, name="manifest"),  # the installable app
    path("sw.js", pwa.service_worker, name="service-worker"),  # at the root: scope is "/"
    path("offline/", pwa.offline, name="offline"),  # shown by the service worker offline
    path("admin/", admin.site.urls),
    # Uploads on the local storage (cosmetic art); a remote storage serves its own URLs.
    path("media/<path:path>", cosmetic_art.media_serve, name="media"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("banira.urls")),
    path("", include("arcana.urls")),
    path("", include("progression.urls")),
    path("notifications/", include("inbox.urls")),
    path("", include("social.urls")),
    path("", include("ratings.urls")),
    path("community/", include("community.urls")),
    path("", include("botapi.urls")),  # /api/v1/ and /profile/tokens/ (docs/bot-api.md)
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
handler429 = "config.ratelimit.handler429"  # allauth's limits answer through it too
