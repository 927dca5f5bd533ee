"""Follows and blocks between people: each change one transaction, each refusal a code and a sentence.

A block also ends any follow between the two, both ways: someone you keep
from your tables and challenges should not see your open tables either, and
you asked not to hear of them. A blocked person cannot follow the blocker.
Bots sit in seats and are no accounts, so nobody can follow or block one.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import Block, Follow
from .reads import person


class RelationRefused(Exception):
    """A follow or block the site refuses; `status` is the HTTP answer, `code` what scripts read."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def other_person(username: str, viewer):
    """The person named, who is not the viewer: refused when unknown (or banned) and when it is the viewer."""
    found = person(username, viewer)
    if found is None:
        raise RelationRefused(404, "no_such_player", _("There is no such player."))
    if found.pk == viewer.pk:
        raise RelationRefused(400, "yourself", _("You cannot do that to yourself."))
    return found


def follow(viewer, username: str):
    followed = other_person(username, viewer)
    if Block.objects.filter(blocker=followed, blocked=viewer).exists():
        raise RelationRefused(403, "not_accepted",
                              _("%(name)s does not accept followers from you.") % {"name": followed.shown_name})
    Follow.objects.get_or_create(follower=viewer, followed=followed)  # twice at once: get_or_create reads the winner
    return followed


def unfollow(viewer, username: str):
    followed = other_person(username, viewer)
    Follow.objects.filter(follower=viewer, followed=followed).delete()
    return followed


def block(viewer, username: str):
    blocked = other_person(username, viewer)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=viewer, blocked=blocked)
        Follow.objects.filter(Q(follower=viewer, followed=blocked) | Q(follower=blocked, followed=viewer)).delete()
    return blocked


def unblock(viewer, username: str):
    blocked = other_person(username, viewer)
    Block.objects.filter(blocker=viewer, blocked=blocked).delete()
    return blocked


def follows(viewer, other) -> bool:
    return viewer.is_authenticated and Follow.objects.filter(follower=viewer, followed=other).exists()


def blocks(viewer, other) -> bool:
    return viewer.is_authenticated and Block.objects.filter(blocker=viewer, blocked=other).exists()


def blocked_by_any(user_id: int, people_ids) -> list[int]:
    """Which of `people_ids` block the person `user_id`."""
    return list(Block.objects.filter(blocked_id=user_id, blocker_id__in=list(people_ids))
                .values_list("blocker_id", flat=True))


def followed_people(viewer):
    """The people `viewer` follows who may still be seen (not banned), by name."""
    return list(get_user_model().objects.filter(followers__follower=viewer, is_active=True, banned=False)
                .order_by("username"))
