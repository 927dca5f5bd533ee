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
    report = health.check_all()
    status = 200 if all(part["ok"] for part in report.values()) else 503
    return JsonResponse({"ok": status == 200, **report}, status=status)
