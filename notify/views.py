"""The notifications page: what a person was told, newest first, and marking it all read."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from . import reads
from .forms import NotificationChoicesForm


@require_safe
@login_required
def notifications(request):
    return render(request, "notify/notifications.html", {"notifications": reads.latest(request.user)})


@require_POST
@login_required
def mark_all_read(request):
    reads.mark_read(request.user)
    return redirect("notifications")


@require_POST
@login_required
def choices(request):
    """The profile's notification switches (a form of its own on the profile page)."""
    form = NotificationChoicesForm(request.POST, user=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your notification choices are saved."))
    return redirect(reverse("profile") + "#notifications")
