"""The notifications' pages (notify/views.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.mark_all_read, name="notifications_read"),
    path("notifications/choices/", views.choices, name="notification_choices"),
]
