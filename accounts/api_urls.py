from django.urls import path

from . import api

urlpatterns = [
    path("me", api.me, name="api_me"),
    path("me/preferences", api.preferences, name="api_preferences"),
]
