"""`User.takes_push` kept true to the person's push subscriptions, however a row comes or goes."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from .models import PushSubscription


def refresh_takes_push(*user_ids: int | None) -> None:
    people = [user_id for user_id in user_ids if user_id is not None]
    if people:
        get_user_model().objects.filter(pk__in=people).update(
            takes_push=Exists(PushSubscription.objects.filter(user=OuterRef("pk")))
        )


@receiver(pre_save, sender=PushSubscription)
def subscription_saving(sender, instance, **kwargs) -> None:
    # The same device (endpoint) signed in as somebody else moves to them: the one before may have none left.
    instance._owner_before = (
        PushSubscription.objects.filter(pk=instance.pk).values_list("user_id", flat=True).first() if instance.pk else None
    )


@receiver(post_save, sender=PushSubscription)
def subscription_saved(sender, instance, **kwargs) -> None:
    refresh_takes_push(instance.user_id, getattr(instance, "_owner_before", None))


@receiver(post_delete, sender=PushSubscription)
def subscription_deleted(sender, instance, **kwargs) -> None:
    refresh_takes_push(instance.user_id)
