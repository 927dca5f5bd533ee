"""Reporting another player from the table page: a plain form, queued for the moderators."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import actions
from ..actions import moderation


@require_POST
def report_player(request, table_id: int):
    table_url = reverse("table", args=[table_id])
    if not request.user.is_authenticated:
        return redirect_to_login(table_url)
    seat = request.POST.get("seat", "")
    try:
        moderation.report_player(
            request.user, table_id, int(seat) if seat.isdigit() else None, request.POST.get("reason")
        )
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("Thank you: a moderator will look at your report."))
    return redirect(table_url)


urlpatterns = [
    path("tables/<int:table_id>/report/", report_player, name="report_player"),
]
