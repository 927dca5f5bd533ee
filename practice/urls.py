"""Practice against bots on the device, and the installable web app around it."""

from django.urls import path

from . import pwa, views

urlpatterns = [
    path("practice/", views.practice_page, name="practice"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.web_manifest, name="web_manifest"),
]
