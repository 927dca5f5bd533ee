from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from . import views

# allauth's limits answer with this page (it looks the handler up here).
handler429 = "accounts.views.too_many_requests"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("games.api")),
    path("", include("games.urls")),
    path("", include("tutorial.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # gettext(), ngettext() and interpolate() for the scripts, in the page's language.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
