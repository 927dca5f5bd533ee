"""The installable web app: its manifest and its service worker."""

from django.http import HttpResponse


def service_worker(request):
    return HttpResponse("", status=501)


def web_manifest(request):
    return HttpResponse("", status=501)
