"""The practice page: a whole match against bots, played on the device."""

from django.http import HttpResponse


def practice_page(request):
    return HttpResponse("practice: under construction", status=501)
