from django.urls import path

from community import views

app_name = "community"

urlpatterns = [
    path("matches/<id:match_id>/chat/", views.chat_post, name="chat_post"),
    path("matches/<id:match_id>/chat/panel/", views.chat_panel, name="chat_panel"),
    path("matches/<id:match_id>/chat/switch/", views.chat_switch, name="chat_switch"),
    path("report/", views.report, name="report"),
]
