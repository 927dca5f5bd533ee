"""The Celery app. Settings come from Django's, under the CELERY_ namespace."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "septica_site.settings")

app = Celery("septica")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
