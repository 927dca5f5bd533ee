"""Moderation in Django's admin: read-only lists of tables, seats, matches (with
the full deal), moves, users, reports and the audit log, and the actions
moderators take on them.

Only members of the "Moderators" group (the `games.moderate` permission) and
superusers see any of it; other staff do not. Every action asks for a reason
on its own page, then calls games/actions/moderation.py, which writes the audit log.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Count, Q
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin
from accounts.models import User

from .actions import moderation
from .errors import ServiceError
from .models import ChatLine, Match, ModerationAction, ModerationKind, Move, Report, Seat, Table, TableStatus
from .words.chat import line_words


# --- asking for a reason -----------------------------------------------------------------
class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=moderation.MAX_REASON_CHARS, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Kept in the audit log."),
    )


class AbortForm(ReasonForm):
    reason = forms.CharField(
        label=_("Reason"), max_length=moderation.MAX_REASON_CHARS, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Shown to the players on the table page, and kept in the audit log."),
    )


class SuspensionForm(ReasonForm):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=3650, initial=7)


class MuteForm(ReasonForm):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=moderation.MAX_MUTE_DAYS, initial=3)


def with_reason(title, form_class=ReasonForm):
    """An admin action that first asks for a reason (and what `form_class` adds), then applies
    `apply(request, obj, cleaned_data)` to each selected object and says what was refused."""

    def decorate(apply):
        def action(modeladmin, request, queryset):
            form = form_class(request.POST if "apply" in request.POST else None)
            if form.is_valid():
                return _apply_to_each(modeladmin, request, queryset, apply, form.cleaned_data)
            return TemplateResponse(request, "admin/games/moderation_reason.html", {
                **modeladmin.admin_site.each_context(request),
                "title": title, "form": form, "queryset": queryset, "opts": modeladmin.model._meta,
                "action": request.POST.get("action", apply.__name__), "action_checkbox_name": ACTION_CHECKBOX_NAME,
            })

        action.__name__ = apply.__name__
        return admin.action(description=title, permissions=["moderate"])(action)

    return decorate


def _apply_to_each(modeladmin, request, queryset, apply, data) -> None:
    done = 0
    for obj in queryset:
        try:
            apply(request, obj, data)
            done += 1
        except ServiceError as refusal:
            modeladmin.message_user(request, f"{obj}: {refusal.message}", messages.ERROR)
    if done:
        modeladmin.message_user(request, _("Done for %(n)d, with the reason in the audit log.") % {"n": done})


class ModeratorsOnly:
    """Moderators (and superusers) see these lists; nobody adds, edits or deletes from them."""

    def has_module_permission(self, request):
        return moderation.is_moderator(request.user)

    def has_view_permission(self, request, obj=None):
        return moderation.is_moderator(request.user)

    def has_moderate_permission(self, request):
        return moderation.is_moderator(request.user)

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def admin_link(obj, text=None):
    if obj is None:
        return "—"
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text if text is not None else obj)


def table_links(table_id: int):
    return format_html(
        '<a href="{}">table {}</a> (<a href="{}">page</a>)',
        reverse("admin:games_table_change", args=[table_id]), table_id, reverse("table", args=[table_id]),
    )


# --- tables ----------------------------------------------------------------------------------
class ReportedFilter(admin.SimpleListFilter):
    title = _("reported")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("open", _("Open reports")), ("any", _("Any report")), ("no", _("Never reported"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(reports__resolved_at__isnull=True, reports__isnull=False).distinct()
        if self.value() == "any":
            return queryset.filter(reports__isnull=False).distinct()
        if self.value() == "no":
            return queryset.filter(reports__isnull=True)
        return queryset


ABANDONED_AFTER = timedelta(days=1)


class AbandonedFilter(admin.SimpleListFilter):
    """Running tables a person has left to a bot, or whose turn is long overdue (a stuck clock)."""

    title = _("abandoned")
    parameter_name = "abandoned"

    def lookups(self, request, model_admin):
        return [("yes", _("Abandoned")), ("no", _("Not abandoned"))]

    def queryset(self, request, queryset):
        abandoned = Q(status=TableStatus.PLAYING) & (
            Q(seats__standing_in=True) | Q(match__deadline__lt=timezone.now() - ABANDONED_AFTER)
        )
        if self.value() == "yes":
            return queryset.filter(abandoned).distinct()
        if self.value() == "no":
            return queryset.exclude(pk__in=Table.objects.filter(abandoned).values("pk"))
        return queryset


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return moderation.is_moderator(request.user)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("number", "user", "bot_level", "bot_style", "standing_in", "reserved_for", "joined_at")
    readonly_fields = fields
    show_change_link = True


@admin.register(Table)
class TableAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("id", "rules", "players", "status", "people", "hidden", "closed", "private", "open_reports",
                    "created_by", "created_at")
    list_filter = ("status", "rules", ReportedFilter, AbandonedFilter, "hidden", "closed", "private", "created_at")
    search_fields = ("=id", "created_by__username", "seats__user__username", "seats__user__display_name")
    date_hierarchy = "created_at"
    list_select_related = ("created_by",)
    fields = ("id", "rules", "players", "options", "seconds_per_move", "status", "private", "hidden", "closed",
              "created_by", "created_at", "rematch_of", "match_link", "page_link", "abort_reason")
    readonly_fields = fields
    inlines = [SeatInline]
    actions = ["abort", "remove_from_lobby", "show_in_lobby", "close_to_new_players", "reopen_to_new_players"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            open_report_count=Count("reports", filter=Q(reports__resolved_at__isnull=True), distinct=True)
        ).prefetch_related("seats__user")

    @admin.display(description=_("people"))
    def people(self, table):
        return ", ".join(seat.user.username for seat in table.seats.all() if seat.user_id) or "—"

    @admin.display(description=_("open reports"), ordering="open_report_count")
    def open_reports(self, table):
        return table.open_report_count

    @admin.display(description=_("match and full deal"))
    def match_link(self, table):
        return admin_link(table.match, _("match %(id)s") % {"id": table.pk})

    @admin.display(description=_("table page"))
    def page_link(self, table):
        url = reverse("table", args=[table.pk])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.display(description=_("abort reason"))
    def abort_reason(self, table):
        return table.match.abort_reason or "—"

    @with_reason(_("Abort the table (the match ends without a result)"), AbortForm)
    def abort(request, table, data):
        moderation.abort_table(request.user, table.pk, data["reason"])

    @with_reason(_("Hide from the lobby"))
    def remove_from_lobby(request, table, data):
        moderation.set_table_flag(request.user, table.pk, ModerationKind.HIDE, data["reason"])

    @with_reason(_("Show in the lobby again"))
    def show_in_lobby(request, table, data):
        moderation.set_table_flag(request.user, table.pk, ModerationKind.SHOW, data["reason"])

    @with_reason(_("Close to new players"))
    def close_to_new_players(request, table, data):
        moderation.set_table_flag(request.user, table.pk, ModerationKind.CLOSE, data["reason"])

    @with_reason(_("Open to new players again"))
    def reopen_to_new_players(request, table, data):
        moderation.set_table_flag(request.user, table.pk, ModerationKind.REOPEN, data["reason"])


# --- seats --------------------------------------------------------------------------------------
@admin.register(Seat)
class SeatAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("__str__", "table_link", "number", "user", "bot_level", "standing_in", "table_status")
    list_filter = ("table__status", "table__rules", "standing_in", "bot_level")
    search_fields = ("=table__id", "user__username", "user__display_name")
    list_select_related = ("table", "user")
    readonly_fields = ("table", "number", "user", "reserved_for", "bot_level", "bot_style", "standing_in",
                       "joined_at")
    actions = ["remove_player"]

    @admin.display(description=_("table"), ordering="table_id")
    def table_link(self, seat):
        return table_links(seat.table_id)

    @admin.display(description=_("table status"), ordering="table__status")
    def table_status(self, seat):
        return seat.table.get_status_display()

    @with_reason(_("Remove the player (a bot takes the seat)"))
    def remove_player(request, seat, data):
        moderation.remove_player(request.user, seat.table_id, seat.number, data["reason"])


# --- matches and their moves --------------------------------------------------------------------
class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "move", "actor", "user", "created_at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("__str__", "table_link", "rules", "status", "seq", "to_move", "started_at", "finished_at")
    list_filter = ("table__status", "table__rules", "started_at", "finished_at")
    search_fields = ("=table__id", "table__seats__user__username")
    list_select_related = ("table",)
    fields = ("table_link", "seq", "to_move", "deadline", "started_at", "finished_at", "result", "abort_reason",
              "seed_sha256", "seed", "the_deal")
    readonly_fields = fields
    inlines = [MoveInline]

    @admin.display(description=_("table"), ordering="table_id")
    def table_link(self, match):
        return table_links(match.pk)

    @admin.display(description=_("rule set"), ordering="table__rules")
    def rules(self, match):
        return match.table.rules

    @admin.display(description=_("status"), ordering="table__status")
    def status(self, match):
        return match.table.get_status_display()

    @admin.display(description=_("the full deal (hidden from the players)"))
    def the_deal(self, match):
        """Every hand and the stock as they stand: moderators only, never any player."""
        state = match.state
        if not state:
            return _("Not dealt yet.")
        names = {seat.number: str(seat.user or seat.get_bot_level_display() or "—")
                 for seat in match.table.seats.select_related("user")}
        hands = format_html_join(
            "", "<li>{}: <code>{}</code></li>",
            ((_("Seat %(n)d (%(who)s)") % {"n": number, "who": names.get(number, "—")}, " ".join(hand))
             for number, hand in enumerate(state.get("hands", []))),
        )
        return format_html(
            '<ul class="the-deal">{}</ul><p>{}: <code>{}</code></p>'
            "<details><summary>{}</summary><pre>{}</pre></details>",
            hands, _("Stock, in order"), " ".join(state.get("stock", [])) or "—",
            _("The whole engine snapshot"), json.dumps(state, indent=1),
        )


@admin.register(Move)
class MoveAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("__str__", "table_link", "seq", "seat", "move", "actor", "user", "created_at")
    list_filter = ("actor", "match__table__rules", "created_at")
    search_fields = ("=match__table__id", "user__username")
    list_select_related = ("user",)
    readonly_fields = ("match", "seq", "seat", "move", "actor", "user", "created_at")

    @admin.display(description=_("table"), ordering="match_id")
    def table_link(self, move):
        return table_links(move.match_id)


# --- reports and the audit log ------------------------------------------------------------------
class ResolvedFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", _("Open")), ("resolved", _("Resolved"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("created_at", "reporter", "reported", "table_link", "at_move", "reason", "resolved_at",
                    "resolved_by")
    list_filter = (ResolvedFilter, "table__status", "table__rules", "created_at")
    search_fields = ("reporter__username", "reported__username", "reason", "=table__id")
    date_hierarchy = "created_at"
    list_select_related = ("reporter", "reported", "resolved_by")
    fields = ("created_at", "reporter", "reported", "table_link", "at_move", "reason", "resolved_at", "resolved_by",
              "chat_then")
    readonly_fields = fields
    actions = ["resolve"]

    @admin.display(description=_("the table's chat when the report was made"))
    def chat_then(self, report):
        if report.chat_until is None:
            return _("No chat at the table then.")
        lines = (ChatLine.objects.filter(table_id=report.table_id, pk__lte=report.chat_until)
                 .select_related("author").order_by("pk"))
        return chat_lines_html(lines)

    @admin.display(description=_("table"), ordering="table_id")
    def table_link(self, report):
        return table_links(report.table_id)

    @admin.display(description=_("at move"), ordering="seq")
    def at_move(self, report):
        """The match's move log up to the moment of the report."""
        url = reverse("admin:games_move_changelist") + f"?match__exact={report.table_id}&seq__lt={report.seq}"
        return format_html('<a href="{}">{}</a>', url, _("move %(n)d") % {"n": report.seq})

    @with_reason(_("Resolve the report"))
    def resolve(request, report, data):
        moderation.resolve_report(request.user, report.pk, data["reason"])


# --- chat -------------------------------------------------------------------------------------
def chat_lines_html(lines):
    """Lines as a list for moderators: every name and word escaped by format_html."""
    return format_html('<ol class="chat-lines">{}</ol>', format_html_join(
        "", "<li><time>{}</time> <b>{}</b> ({}): {}</li>",
        ((f"{line.created_at:%Y-%m-%d %H:%M:%S}", line.author.shown_name, line.get_room_display(),
          line_words(line.phrase, line.text)) for line in lines)))


@admin.register(ChatLine)
class ChatLineAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("created_at", "table_link", "room", "author", "phrase", "text")
    list_filter = ("room", "created_at")
    search_fields = ("=table__id", "author__username", "text")
    date_hierarchy = "created_at"
    list_select_related = ("author",)
    fields = ("created_at", "table_link", "room", "author", "phrase", "text")
    readonly_fields = fields

    def lookup_allowed(self, lookup, value, request=None):
        # One table's or one person's lines, linked from the user page (a filter listing everyone would not do).
        return lookup in ("table__id__exact", "author__id__exact") or super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("table"), ordering="table_id")
    def table_link(self, line):
        return table_links(line.table_id)


@admin.register(ModerationAction)
class ModerationActionAdmin(ModeratorsOnly, admin.ModelAdmin):
    """The audit log: read only, even for superusers (no add, change or delete)."""

    list_display = ("created_at", "moderator", "kind", "table_link", "seq", "user", "seat", "until", "reason")
    list_filter = ("kind", "created_at")
    search_fields = ("reason", "moderator__username", "user__username", "=table__id")
    date_hierarchy = "created_at"
    list_select_related = ("moderator", "user")
    readonly_fields = ("created_at", "moderator", "kind", "table", "seq", "user", "seat", "until", "report",
                       "reason")

    @admin.display(description=_("table"), ordering="table_id")
    def table_link(self, action):
        return table_links(action.table_id) if action.table_id else "—"


# --- users: suspensions and bans ----------------------------------------------------------------
class SuspensionFilter(admin.SimpleListFilter):
    title = _("may play")
    parameter_name = "restricted"

    def lookups(self, request, model_admin):
        return [("suspended", _("Suspended")), ("banned", _("Banned")), ("free", _("May play"))]

    def queryset(self, request, queryset):
        suspended = Q(suspended_until__gt=timezone.now())
        if self.value() == "suspended":
            return queryset.filter(suspended, banned=False)
        if self.value() == "banned":
            return queryset.filter(banned=True)
        if self.value() == "free":
            return queryset.exclude(suspended).filter(banned=False)
        return queryset


# accounts.admin registers the user admin; moderation extends it here so that
# accounts need not know about tables.
admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets,
                 (_("Moderation"), {"fields": ("suspended_until", "banned", "chat_muted_until", "chat_lines_link")}))
    readonly_fields = ("suspended_until", "banned", "chat_muted_until", "chat_lines_link")
    list_display = (*UserAdmin.list_display, "suspended_until", "banned", "chat_muted_until")
    list_filter = (SuspensionFilter, *UserAdmin.list_filter)
    actions = ["suspend", "ban", "lift", "mute", "unmute"]

    @admin.display(description=_("chat lines"))
    def chat_lines_link(self, user):
        url = reverse("admin:games_chatline_changelist") + f"?author__id__exact={user.pk}"
        return format_html('<a href="{}">{}</a>', url, _("What they wrote at tables"))

    @with_reason(_("Mute from chat"), MuteForm)
    def mute(request, user, data):
        moderation.mute(request.user, user.pk, data["days"], data["reason"])

    @with_reason(_("Lift the mute from chat"))
    def unmute(request, user, data):
        moderation.unmute(request.user, user.pk, data["reason"])

    def has_moderate_permission(self, request):
        return moderation.is_moderator(request.user)

    @with_reason(_("Suspend from playing"), SuspensionForm)
    def suspend(request, user, data):
        until = timezone.now() + timedelta(days=data["days"])
        moderation.suspend_user(request.user, user.pk, data["reason"], until)

    @with_reason(_("Ban from playing"))
    def ban(request, user, data):
        moderation.ban_user(request.user, user.pk, data["reason"])

    @with_reason(_("Lift the suspension or ban"))
    def lift(request, user, data):
        moderation.lift_suspension(request.user, user.pk, data["reason"])
