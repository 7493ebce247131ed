"""/learn/ and /learn/<slug>/: the lessons."""

from django.urls import path

from games.lessons import views

app_name = "lessons"

urlpatterns = [
    path("learn/", views.index, name="index"),
    path("learn/<slug:slug>/", views.lesson_page, name="lesson"),
]
