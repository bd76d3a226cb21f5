from django.urls import path

from banira import views

app_name = "banira"

urlpatterns = [
    path("banira/", views.home, name="home"),
    path("banira/practice/", views.practice, name="practice"),
]
