"""Web push end to end: the site encrypts for the browser's keys, signs with its VAPID key,
and a real HTTP push service on 127.0.0.1 receives what the browser would decrypt."""

from __future__ import annotations

import json
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

from notify import push
from notify.models import NotificationKind, PushSubscription
from notify.notifications import notify
from notify.tasks import deliver_push
from tests.notify.push_service import Browser, PushService


def your_move(user):
    return notify(user, NotificationKind.YOUR_MOVE, title="Your move at Table 12 (Septica)",
                  body="Alice played.", url="/tables/12/", tag="table-12")


def test_the_browser_decrypts_the_title_body_link_and_tag(bob, push_service, sent_tasks):
    browser = Browser()
    push_service.subscribe(bob, browser)
    notification = your_move(bob)

    assert deliver_push(notification.pk) == 1

    [received] = push_service.received
    assert browser.decrypt(received) == {"title": "Your move at Table 12 (Septica)", "body": "Alice played.",
                                         "url": "/tables/12/", "tag": "table-12"}
    assert received.headers["content-encoding"] == "aes128gcm"
    assert int(received.headers["ttl"]) > 0


def test_the_request_is_signed_with_the_site_key_the_api_hands_out(bob, client, push_service, sent_tasks):
    push_service.subscribe(bob, Browser())
    deliver_push(your_move(bob).pk)

    authorization = push_service.received[0].headers["authorization"]
    key = client.get("/api/push/key").json()["public_key"]
    assert f"k={key}" in authorization
    assert Vapid.verify(authorization)
    token = authorization.split("t=")[1].split(",")[0]
    claims = json.loads(push.b64url_decode(token.split(".")[1]))
    assert claims["aud"] == push_service.url("")
    assert claims["sub"].startswith("mailto:")


def test_running_the_task_twice_sends_once(bob, push_service, sent_tasks):
    push_service.subscribe(bob, Browser())
    notification = your_move(bob)

    assert deliver_push(notification.pk) == 1
    assert deliver_push(notification.pk) == 0

    assert len(push_service.received) == 1


def test_every_device_of_the_person_gets_it_and_nobody_else(alice, bob, push_service, sent_tasks):
    phone, laptop, alices = Browser(), Browser(), Browser()
    push_service.subscribe(bob, phone, "/push/phone")
    push_service.subscribe(bob, laptop, "/push/laptop")
    push_service.subscribe(alice, alices, "/push/alice")

    deliver_push(your_move(bob).pk)

    assert sorted(received.path for received in push_service.received) == ["/push/laptop", "/push/phone"]


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_service_says_is_gone_is_deleted(bob, status, sent_tasks, reach_the_local_push_services):
    with PushService(status=status) as service:
        service.subscribe(bob, Browser())
        assert deliver_push(your_move(bob).pk) == 0
    assert not PushSubscription.objects.filter(user=bob).exists()


def test_a_service_that_fails_keeps_the_subscription_and_a_retry_sends(bob, sent_tasks, reach_the_local_push_services):
    with PushService(status=500) as service:
        service.subscribe(bob, Browser())
        notification = your_move(bob)
        assert deliver_push(notification.pk) == 0
        service.status = 201
        assert deliver_push(notification.pk) == 1
    assert PushSubscription.objects.filter(user=bob).exists()


def test_the_delivery_is_queued_after_commit_only_for_people_with_a_device(
        alice, bob, push_service, sent_tasks, django_capture_on_commit_callbacks):
    push_service.subscribe(bob, Browser())
    with django_capture_on_commit_callbacks(execute=True):
        notification = your_move(bob)
        your_move(alice)
        assert sent_tasks == []

    assert sent_tasks == [("notify.deliver_push", (notification.pk,), {})]


def test_a_newer_notification_of_the_same_table_replaces_the_unread_one(bob, sent_tasks):
    your_move(bob)
    newer = your_move(bob)

    assert list(bob.notifications.all()) == [newer]


def test_the_key_made_in_var_is_kept_and_shared(settings, tmp_path):
    keys = []

    def read():
        keys.append(push._from_file(tmp_path / "vapid.json"))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len({push._public_of(key) for key in keys}) == 1
    assert push.public_key() == push._public_of(keys[0])
    assert oct((tmp_path / "vapid.json").stat().st_mode)[-3:] == "600"


def test_a_configured_key_is_used_raw_or_pem(settings):
    key = Vapid()
    key.generate_keys()
    raw = push.b64url(key.private_key.private_numbers().private_value.to_bytes(32, "big"))
    for configured in (raw, key.private_pem().decode()):
        settings.VAPID_PRIVATE_KEY = configured
        push.vapid.cache_clear()
        assert push.public_key() == push._public_of(key)


def test_a_public_key_that_is_not_the_private_keys_half_is_refused(settings):
    settings.VAPID_PRIVATE_KEY = push.b64url(bytes(range(1, 33)))
    settings.VAPID_PUBLIC_KEY = "BAAA"
    with pytest.raises(ImproperlyConfigured):
        push.vapid()


def test_a_persons_row_says_whether_a_device_of_theirs_takes_push(alice, bob, push_service):
    """The move path reads `takes_push` with the seat instead of querying the devices on every move."""
    from accounts.models import User
    from notify.models import PushSubscription

    browser = Browser()
    push_service.subscribe(bob, browser)
    assert User.objects.get(pk=bob.pk).takes_push and not User.objects.get(pk=alice.pk).takes_push

    subscription = PushSubscription.objects.get(user=bob)
    subscription.user = alice  # the same browser, signed in as Alice (subscribe's update_or_create saves so)
    subscription.save()
    assert User.objects.get(pk=alice.pk).takes_push and not User.objects.get(pk=bob.pk).takes_push  # the device changed hands

    PushSubscription.objects.filter(user=alice).delete()
    assert not User.objects.get(pk=alice.pk).takes_push
