from django.conf import settings
from django.contrib import admin
from django.http import FileResponse
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

from . import views

# allauth's limits answer with this page (it looks the handler up here).
handler429 = "accounts.views.too_many_requests"
# 503 when the database did not answer, Django's 500 otherwise.
handler500 = "septica_site.outage.server_error"


@require_safe
@cache_control(public=True, max_age=7 * 24 * 3600)
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links; they get the icon, not a 404 in every log."""
    return FileResponse((settings.BASE_DIR / "static" / "favicon.ico").open("rb"), content_type="image/x-icon")


urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("api/", include("api.urls")),  # the JSON API, its OpenAPI document and its docs page
    path("", include("games.urls")),
    path("", include("tutorial.urls")),
    path("", include("practice.urls")),
    path("", include("players.urls")),
    path("", include("notify.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # gettext(), ngettext() and interpolate() for the scripts, in the page's language.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
