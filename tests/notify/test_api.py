"""The push and notifications API: a device subscribes with its keys, forged ones are refused
and store nothing; a person reads their notifications and marks them read."""

from __future__ import annotations

import json

import pytest

from notify.models import NotificationKind, PushSubscription
from notify.notifications import notify
from notify.push import b64url
from tests.notify.push_service import Browser


def subscription(**changes) -> dict:
    browser = Browser()
    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc123", "keys": browser.keys()}
    body.update(changes)
    return body


def post(client, url, body, method="post"):
    return getattr(client, method)(url, data=json.dumps(body), content_type="application/json")


def test_a_device_subscribes_and_unsubscribes(client, bob):
    client.force_login(bob)
    body = subscription()

    answer = post(client, "/api/push/subscriptions", body)

    assert answer.status_code == 201
    stored = PushSubscription.objects.get(user=bob)
    assert (stored.endpoint, stored.p256dh, stored.auth) == (body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"])
    assert post(client, "/api/push/subscriptions", {"endpoint": body["endpoint"]}, "delete").json() == {"deleted": 1}
    assert not PushSubscription.objects.exists()


def test_subscribing_again_from_the_same_browser_keeps_one_row(client, bob):
    client.force_login(bob)
    body = subscription()
    post(client, "/api/push/subscriptions", body)
    post(client, "/api/push/subscriptions", {**body, "keys": Browser().keys()})

    assert PushSubscription.objects.filter(user=bob).count() == 1


def test_someone_cannot_unsubscribe_anothers_device(client, alice, bob):
    client.force_login(bob)
    body = subscription()
    post(client, "/api/push/subscriptions", body)
    client.force_login(alice)

    assert post(client, "/api/push/subscriptions", {"endpoint": body["endpoint"]}, "delete").json() == {"deleted": 0}
    assert PushSubscription.objects.filter(user=bob).exists()


def short_key() -> str:
    return b64url(bytes([4]) + bytes(31))


def not_on_the_curve() -> str:
    return b64url(bytes([4]) + bytes(64))


@pytest.mark.parametrize(("changes", "code"), [
    ({"endpoint": "http://fcm.googleapis.com/fcm/send/abc"}, "bad_endpoint"),
    ({"endpoint": "ftp://push.example.com/x"}, "bad_endpoint"),
    ({"endpoint": "https://127.0.0.1/push"}, "bad_endpoint"),
    ({"endpoint": "https://localhost/push"}, "bad_endpoint"),
    ({"endpoint": "https://10.0.0.5/push"}, "bad_endpoint"),
    ({"endpoint": "https://push.example.com/" + "x" * 1000}, "bad_endpoint"),
    ({"endpoint": 12}, "bad_endpoint"),
    ({"keys": "none"}, "bad_keys"),
    ({"keys": {"p256dh": short_key(), "auth": b64url(bytes(16))}}, "bad_p256dh"),
    ({"keys": {"p256dh": not_on_the_curve(), "auth": b64url(bytes(16))}}, "bad_p256dh"),
    ({"keys": {"p256dh": "not base64 at all!!", "auth": b64url(bytes(16))}}, "bad_p256dh"),
    ({"keys": {"p256dh": Browser().p256dh, "auth": b64url(bytes(15))}}, "bad_auth"),
    ({"keys": {"p256dh": Browser().p256dh, "auth": b64url(bytes(32))}}, "bad_auth"),
    ({"keys": {"p256dh": Browser().p256dh}}, "bad_auth"),
])
def test_a_forged_subscription_is_refused_and_nothing_is_stored(client, bob, changes, code):
    client.force_login(bob)

    answer = post(client, "/api/push/subscriptions", subscription(**changes))

    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_body_that_is_not_json_is_refused(client, bob):
    client.force_login(bob)
    answer = client.post("/api/push/subscriptions", data="{nope", content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_subscription"


def test_subscribing_needs_a_person(client):
    answer = post(client, "/api/push/subscriptions", subscription())
    assert answer.status_code == 401
    assert answer.json()["code"] == "not_logged_in"


def test_the_public_key_is_an_uncompressed_p256_point(client):
    from notify.push import b64url_decode

    raw = b64url_decode(client.get("/api/push/key").json()["public_key"])
    assert len(raw) == 65 and raw[0] == 4


def test_a_person_reads_their_notifications_and_marks_them_read(client, alice, bob, sent_tasks):
    first = notify(bob, NotificationKind.FINISHED, title="Table 3 finished", url="/tables/3/", tag="table-3")
    second = notify(bob, NotificationKind.CHALLENGE, title="Alice challenges you", url="/challenges/")
    notify(alice, NotificationKind.FINISHED, title="Alice's own")
    client.force_login(bob)

    listed = client.get("/api/notifications").json()
    assert listed["unread"] == 2
    assert [n["id"] for n in listed["notifications"]] == [second.pk, first.pk]
    assert listed["notifications"][1] == {**listed["notifications"][1], "kind": "finished",
                                          "title": "Table 3 finished", "url": "/tables/3/", "read": False}

    assert post(client, "/api/notifications/read", {"ids": [first.pk]}).json() == {"marked": 1, "unread": 1}
    assert post(client, "/api/notifications/read", {}).json() == {"marked": 1, "unread": 0}
    assert alice.notifications.get().read_at is None


@pytest.mark.parametrize("body", [{"ids": "all"}, {"ids": [True]}, {"ids": ["1"]}, [1, 2]])
def test_marking_read_with_a_bad_body_is_refused(client, bob, body, sent_tasks):
    notify(bob, NotificationKind.FINISHED, title="Table 3 finished")
    client.force_login(bob)

    answer = post(client, "/api/notifications/read", body)

    assert answer.status_code == 400
    assert bob.notifications.get().read_at is None


@pytest.mark.parametrize("too_big", [2**63, 2**70, -1])
def test_an_id_no_row_can_have_marks_nothing_and_is_no_server_error(client, bob, too_big, sent_tasks):
    """SQLite cannot compare 2**63 with a column (a 500 before): such an id names no notification."""
    kept = notify(bob, NotificationKind.FINISHED, title="Table 3 finished")
    client.force_login(bob)

    answer = post(client, "/api/notifications/read", {"ids": [too_big, kept.pk]})

    assert answer.status_code == 200 and answer.json() == {"marked": 1, "unread": 0}
