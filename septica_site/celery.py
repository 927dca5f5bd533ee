"""The Celery app. Settings come from Django's, under the CELERY_ namespace."""

import os

from celery import Celery
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "septica_site.settings")


class RedisChannel(kombu_redis.Channel):
    """kombu's Redis channel, whose close gets through when Redis is gone.

    A worker that loses Redis closes its channel twice (celery 5.7.0: its
    connection is collected, then closed). The first close stops at the
    dead BRPOP socket, before the channel counts as closed; by the second the
    collected transport has let go of its client, and handing back the
    messages the worker held (countdown tasks, tasks running) raises
    AttributeError, which the worker does not survive. Closing again at once,
    with the dead socket already dropped, lets the first close finish: the
    messages go back to the queue if Redis answers, and otherwise stay in its
    unacknowledged set for the visibility timeout to deliver again.
    tests/site/test_worker_survives_redis.py fails once kombu or celery no
    longer needs this.
    """

    def close(self):
        try:
            super().close()
        except self.connection_errors:
            if self.closed:
                raise
            super().close()


class RedisTransport(kombu_redis.Transport):
    Channel = RedisChannel


app = Celery("septica")
app.config_from_object("django.conf:settings", namespace="CELERY")
if app.conf.broker_url.startswith(("redis://", "rediss://")):
    app.conf.broker_transport = f"{__name__}:RedisTransport"
app.autodiscover_tasks()
