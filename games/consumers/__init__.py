"""Websocket consumers: one socket per viewer, each sent its own viewer's views.

Group messages carry ids and seqs only; every consumer rebuilds what its own
viewer may see from the database (see games/after_commit/publish.py for what is sent).
"""

from .lists import LobbyConsumer, MyMatchesConsumer
from .table import TableConsumer

__all__ = ["LobbyConsumer", "MyMatchesConsumer", "TableConsumer"]
