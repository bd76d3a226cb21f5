from django.urls import path

from inbox import views

app_name = "inbox"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_all_read, name="read_all"),
    path("settings/", views.notification_settings, name="settings"),
    path("<int:notification_id>/", views.notification_open, name="open"),
    path("<int:notification_id>/read/", views.mark_read, name="read"),
]
