"""A new chat line, announced to the table's sockets once it is stored; and a reader's
changed settings, announced to that reader's table sockets.

The group message carries the line's fields (chat is not secret), not its
words: each socket words it for its own reader, in their language, and
drops it for a reader who blocks its author (games/chat_reads.py). A socket
keeps what it read of its reader's blocks and `chat_text`, since a line
reaches every socket of a table and reading them again for each would cost a
query per socket per line; when they change (a block, an unblock, the
preference) the reader's sockets hear it after commit and read them again
before the next line.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from players.models import Block

from . import publish


def line_said(table_id: int, fields: dict) -> None:
    publish.publish([(publish.match_group(table_id), {"type": "chat.line", "line": fields})])


def reader_group(user_id: int) -> str:
    """The group of a person's table sockets, which word and filter chat lines for them."""
    return f"reader.{user_id}"


def reader_changed(user_id: int) -> None:
    publish.publish([(reader_group(user_id), {"type": "reader.changed"})])


@receiver([post_save, post_delete], sender=Block, dispatch_uid="chat-reader-blocks")
def _blocks_changed(sender, instance, **kwargs) -> None:
    transaction.on_commit(lambda: reader_changed(instance.blocker_id))


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="chat-reader-chat-text")
def _chat_text_changed(sender, instance, update_fields=None, created=False, **kwargs) -> None:
    if not created and (update_fields is None or "chat_text" in update_fields):
        transaction.on_commit(lambda: reader_changed(instance.pk))
