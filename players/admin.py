"""Ratings and outcomes in the admin, to look at only: they change when matches end, and
`manage.py recompute_ratings` rebuilds them; an edit by hand would break that replay."""

from __future__ import annotations

from django.contrib import admin

from .models import Outcome, Rating


class ReadOnly:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("user", "rules", "shown", "rated_matches", "mu", "sigma", "last_rated_at")
    list_filter = ("rules",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("rules", "-shown")
    fields = ("user", "rules", "shown", "mu", "sigma", "rated_matches", "last_rated_at")
    readonly_fields = fields


@admin.register(Outcome)
class OutcomeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("match", "user", "rules", "place", "players", "won", "rated", "resigned", "stood_in_turns",
                    "shown_before", "shown_after", "finished_at")
    list_filter = ("rules", "rated", "won", "resigned")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("match", "user", "rules", "seat", "place", "players", "won", "rated", "resigned", "stood_in_turns",
              "finished_at", "mu_before", "sigma_before", "shown_before", "mu_after", "sigma_after", "shown_after")
    readonly_fields = fields
