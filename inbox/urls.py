from django.urls import path

from config import inputs  # noqa: F401 - registers the <id:>, <name:>, <date:> converters
from inbox import views

app_name = "inbox"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_all_read, name="read_all"),
    path("settings/", views.notification_settings, name="settings"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("<id:notification_id>/", views.notification_open, name="open"),
    path("<id:notification_id>/read/", views.mark_read, name="read"),
]
