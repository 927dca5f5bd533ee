"""The profile's choice of what a person is told, and how (NotificationOptOut rows: none, all on)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Channel, NotificationKind, NotificationOptOut

# The switches there are: every kind by push; by e-mail, the reminders (the "your move"
# e-mail is the profile's own "E-mail me when it is my move"; the site e-mails nothing else).
SWITCHES = [(kind, Channel.PUSH) for kind in NotificationKind] + [(NotificationKind.REMINDER, Channel.EMAIL)]
LABELS = {
    (NotificationKind.YOUR_MOVE, Channel.PUSH): _("Your move"),
    (NotificationKind.REMINDER, Channel.PUSH): _("Time running out for a move"),
    (NotificationKind.CHALLENGE, Channel.PUSH): _("A challenge for you"),
    (NotificationKind.FINISHED, Channel.PUSH): _("A match of yours finished while you were away"),
    (NotificationKind.REMINDER, Channel.EMAIL): _("E-mail me when time for a move is running out (if no device of mine takes notifications)"),
}


def field_name(kind: str, channel: str) -> str:
    return f"{channel}_{kind}"


class NotificationChoicesForm(forms.Form):
    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        off = set(NotificationOptOut.objects.filter(user=user).values_list("kind", "channel"))
        for kind, channel in SWITCHES:
            self.fields[field_name(kind, channel)] = forms.BooleanField(
                label=LABELS[(kind, channel)], required=False, initial=(kind, channel) not in off)

    def push_fields(self):
        return [self[field_name(kind, channel)] for kind, channel in SWITCHES if channel == Channel.PUSH]

    def email_fields(self):
        return [self[field_name(kind, channel)] for kind, channel in SWITCHES if channel == Channel.EMAIL]

    def save(self) -> None:
        for kind, channel in SWITCHES:
            if self.cleaned_data[field_name(kind, channel)]:
                NotificationOptOut.objects.filter(user=self.user, kind=kind, channel=channel).delete()
            else:
                NotificationOptOut.objects.get_or_create(user=self.user, kind=kind, channel=channel)
