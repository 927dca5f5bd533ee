from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from . import health


@require_safe
def home(request):
    return render(request, "home.html")


@never_cache
@require_safe
def healthz(request):
    """200 or 503 within about a second; staff see why, everyone else only "ok" or "down"."""
    report = health.check_all()
    healthy = all(part["ok"] for part in report.values())
    if request.user.is_staff:
        body = {"ok": healthy, **report, "warnings": health.warnings()}
    else:
        body = {"ok": healthy, **health.summary(report)}
    return JsonResponse(body, status=200 if healthy else 503)
