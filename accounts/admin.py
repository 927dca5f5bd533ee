from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (_("Septica"), {"fields": ("display_name", "preferred_language")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "email", "usable_password", "password1", "password2")}),
    )
    list_display = ("username", "display_name", "email", "preferred_language", "is_staff", "is_active", "date_joined")
    search_fields = ("username", "display_name", "email")


class TokenStateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "revoked"

    def lookups(self, request, model_admin):
        return [("no", _("Active")), ("yes", _("Revoked"))]

    def queryset(self, request, queryset):
        if self.value() == "no":
            return queryset.filter(revoked_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(revoked_at__isnull=False)
        return queryset


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created_at", "last_used_at", "revoked_at")
    list_filter = (TokenStateFilter,)
    list_select_related = ("user",)
    search_fields = ("name", "hint", "user__username")
    fields = ("user", "name", "hint", "key_hash", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "hint", "key_hash", "created_at", "last_used_at")
    actions = ["revoke"]

    def has_add_permission(self, request):
        # A token's secret is shown once to its owner; the admin never sees one.
        return False

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        revoked = sum(token.revoke() for token in queryset)
        self.message_user(request, _("%(count)d token(s) revoked.") % {"count": revoked})
