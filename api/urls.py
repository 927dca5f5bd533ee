"""Every address under /api/: the NinjaAPI's operations and the docs page.

ninja marks its views csrf_exempt, for its own cookie auth to check CSRF; the
site has none, so here each view loses the mark and Django's CSRF check
applies as it does to every other view (a Bearer token skips it, as ever:
accounts.middleware). A method a path does not answer is a 405 whose Allow
names the methods in the order the views' own require_http_methods did;
septica_site.api_errors turns it into JSON.
"""

from __future__ import annotations

from django.urls import path

from .docs import api_docs
from .routes import site_api

METHODS_IN_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def with_django_csrf(ninja_view):
    def view(request, *args, **kwargs):
        response = ninja_view(request, *args, **kwargs)
        if response.status_code == 405 and "Allow" in response:
            allowed = {method.strip() for method in response["Allow"].split(",")}
            response["Allow"] = ", ".join(method for method in METHODS_IN_ORDER if method in allowed)
        return response

    return view


urlpatterns = [
    *(path(str(pattern.pattern), with_django_csrf(pattern.callback), name=pattern.name)
      for pattern in site_api.urls[0] if pattern.name != "api-root"),
    path("docs/", api_docs, name="api_docs"),
]
