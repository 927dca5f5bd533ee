"""Websocket routes; each app adds its own."""

from games.routing import websocket_urlpatterns as games_websockets

websocket_urlpatterns: list = [*games_websockets]
