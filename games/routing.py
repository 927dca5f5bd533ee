"""Websocket routes of the games app (see games/consumers/)."""

from django.urls import path

from .consumers import LobbyConsumer, MyMatchesConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", MyMatchesConsumer.as_asgi()),
]
