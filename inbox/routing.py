from django.urls import path

from inbox.consumers import NotificationConsumer

websocket_urlpatterns = [path("ws/notifications/", NotificationConsumer.as_asgi())]
