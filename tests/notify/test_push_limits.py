"""What web push may reach and how much of it one person gets: only public https push
services, checked when a device subscribes and again at every delivery, on the address
checked; a few devices a person; a few pushes a minute; a device that never answers is dropped."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
import trustme

from notify import addresses, push
from notify.models import NotificationKind, PushSubscription
from notify.notifications import notify
from notify.tasks import deliver_push
from tests.notify.dns import PUBLIC_NAMES, resolving
from tests.notify.push_service import Browser, PushService
from tests.notify.tarpit import Tarpit


def post(client, body, method="post"):
    return getattr(client, method)("/api/push/subscriptions", data=json.dumps(body), content_type="application/json")


def challenge(user, n=0):
    return notify(user, NotificationKind.CHALLENGE, title=f"Challenge {n}", tag=f"challenge-{n}")


@pytest.fixture
def no_allowed_networks(settings):
    settings.PUSH_ALLOWED_NETWORKS = []


@pytest.fixture
def names(monkeypatch):
    """Names the test makes resolve where it likes (besides the push services')."""
    table = dict(PUBLIC_NAMES)
    monkeypatch.setattr("notify.addresses.getaddrinfo", resolving(table))
    return table


# --- what a device may subscribe at ---------------------------------------------------------
INSIDE = [
    "https://127.1/push", "https://2130706433/push", "https://0x7f000001/push", "https://0177.0.0.1/push",
    "https://0/push", "https://127.0.0.1./push", "https://127.0.0.1/push", "https://[::1]/push",
    "https://[::ffff:127.0.0.1]/push", "https://[::ffff:7f00:1]/push", "https://10.0.0.5/push",
    "https://169.254.169.254/latest/meta-data", "https://192.168.1.1/push", "https://172.16.0.1/push",
    "https://100.64.0.1/push", "https://[fe80::1]/push", "https://[fc00::1]/push", "https://224.0.0.1/push",
    "https://0.0.0.0/push", "https://localhost/push", "https://localhost:8443/push",
]


@pytest.mark.parametrize("endpoint", INSIDE)
def test_a_device_at_an_inside_address_is_refused(client, bob, no_allowed_networks, endpoint):
    client.force_login(bob)

    answer = post(client, {"endpoint": endpoint, "keys": Browser().keys()})

    assert answer.status_code == 400 and answer.json()["code"] == "bad_endpoint"
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("addresses", [["10.1.2.3"], ["142.250.185.80", "127.0.0.1"], ["::1"], ["192.168.0.7"]])
def test_a_name_that_resolves_inside_even_in_part_is_refused(client, bob, names, no_allowed_networks, addresses):
    names["push.inside.example"] = addresses
    client.force_login(bob)

    answer = post(client, {"endpoint": "https://push.inside.example/x", "keys": Browser().keys()})

    assert answer.status_code == 400 and answer.json()["code"] == "bad_endpoint"
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", ["https://nowhere.invalid/push", "https://fcm.googleapis.com:8443/fcm/send/x",
                                      "https://[::1/push", "https://fcm.googleapis.com:99999/x", "https:///push",
                                      "https://user:secret@fcm.googleapis.com/x", "http://fcm.googleapis.com/x"])
def test_a_malformed_url_a_name_that_does_not_resolve_or_not_https_on_443_is_refused(client, bob, endpoint):
    client.force_login(bob)

    answer = post(client, {"endpoint": endpoint, "keys": Browser().keys()})

    assert answer.status_code == 400 and answer.json()["code"] == "bad_endpoint"
    assert not PushSubscription.objects.exists()


def test_a_name_server_that_never_answers_holds_a_subscription_a_few_seconds_at_most(client, bob, settings,
                                                                                   monkeypatch):
    settings.PUSH_CONNECT_TIMEOUT_SECONDS = 0.3
    answer_now = threading.Event()

    def silent_name_server(*args, **kwargs):
        answer_now.wait(10)
        raise socket.gaierror("no answer")

    monkeypatch.setattr("notify.addresses.getaddrinfo", silent_name_server)
    client.force_login(bob)
    started = time.monotonic()
    try:
        answer = post(client, {"endpoint": "https://push.slow-dns.example/x", "keys": Browser().keys()})
    finally:
        answer_now.set()

    assert time.monotonic() - started < 3
    assert answer.status_code == 400 and answer.json()["code"] == "bad_endpoint"
    assert "in time" in answer.json()["error"] and not PushSubscription.objects.exists()


def test_a_push_service_on_the_internet_is_taken(client, bob, no_allowed_networks):
    client.force_login(bob)

    for endpoint in ("https://fcm.googleapis.com/fcm/send/a", "https://fcm.googleapis.com:443/fcm/send/b",
                     "https://updates.push.services.mozilla.com/wpush/v2/c", "https://142.250.185.74/d"):
        assert post(client, {"endpoint": endpoint, "keys": Browser().keys()}).status_code == 201
    assert PushSubscription.objects.filter(user=bob).count() == 4


# --- delivering -------------------------------------------------------------------------------
def test_a_stored_device_that_now_resolves_inside_gets_nothing(bob, push_service, names, no_allowed_networks,
                                                               sent_tasks):
    port = push_service.server.server_port
    names["moved.example"] = ["127.0.0.1"]
    PushSubscription.objects.create(user=bob, endpoint=f"https://moved.example:{port}/push/1", **Browser().keys())
    push_service.subscribe(bob, Browser(), "/push/2")

    assert deliver_push(challenge(bob).pk) == 0

    assert push_service.received == []


def test_the_push_goes_to_the_address_checked_without_a_second_lookup(bob, push_service, names, sent_tasks):
    """Only the check may look the name up (the system cannot resolve it here): the sender connects
    to the address the check approved and names the host in the request."""
    port = push_service.server.server_port
    names["push.local.test"] = ["127.0.0.1"]
    browser = Browser()
    PushSubscription.objects.create(user=bob, endpoint=f"http://push.local.test:{port}/push/1", **browser.keys())

    assert deliver_push(challenge(bob).pk) == 1

    [received] = push_service.received
    assert received.headers["host"] == f"push.local.test:{port}"
    assert browser.decrypt(received)["title"] == "Challenge 0"


def test_a_device_that_never_answers_twice_in_a_row_is_dropped(bob, settings, sent_tasks,
                                                               reach_the_local_push_services):
    settings.PUSH_READ_TIMEOUT_SECONDS = 0.2
    with Tarpit() as tarpit:
        PushSubscription.objects.create(user=bob, endpoint=tarpit.url("/push/1"), **Browser().keys())

        assert deliver_push(challenge(bob, 1).pk) == 0
        assert PushSubscription.objects.filter(user=bob).exists()
        assert deliver_push(challenge(bob, 2).pk) == 0
        assert tarpit.wait_for_connections(2, timeout=5)  # both reached the host, which never answered

    assert not PushSubscription.objects.filter(user=bob).exists()


def test_a_host_answering_a_byte_at_a_time_is_cut_off(bob, settings, sent_tasks, reach_the_local_push_services):
    settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_READ_TIMEOUT_SECONDS = 0.2, 0.3
    with Tarpit(trickle=True) as tarpit:
        PushSubscription.objects.create(user=bob, endpoint=tarpit.url("/push/1"), **Browser().keys())
        notification = challenge(bob)
        hang_up = threading.Timer(10, tarpit.__exit__)  # the test's own bound, were the site's missing
        hang_up.start()
        started = time.monotonic()
        sent = push.send(notification)
        took = time.monotonic() - started
        hang_up.cancel()

    assert took < 3, f"the delivery read the trickle for {took:.1f} s (its timeouts add up to 0.5 s)"
    assert sent.failed == 1 and tarpit.wait_for_connections(1, timeout=1)


def test_an_answer_without_end_is_not_read_whole(bob, settings, sent_tasks, reach_the_local_push_services):
    settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_READ_TIMEOUT_SECONDS = 5, 5
    with Tarpit(flood=True) as tarpit:
        PushSubscription.objects.create(user=bob, endpoint=tarpit.url("/push/1"), **Browser().keys())
        notification = challenge(bob)
        hang_up = threading.Timer(20, tarpit.__exit__)  # the test's own bound, were the site's missing
        hang_up.start()
        started = time.monotonic()
        sent = push.send(notification)
        took = time.monotonic() - started
        hang_up.cancel()

    assert sent.delivered == 1 and took < 2, f"the delivery read the answer for {took:.1f} s"


def test_an_answer_between_two_silences_keeps_the_device(bob, push_service, settings, sent_tasks):
    settings.PUSH_READ_TIMEOUT_SECONDS = 0.2
    subscription = push_service.subscribe(bob, Browser())
    with Tarpit() as tarpit:
        PushSubscription.objects.filter(pk=subscription.pk).update(endpoint=tarpit.url("/push/1"))
        deliver_push(challenge(bob, 1).pk)
    PushSubscription.objects.filter(pk=subscription.pk).update(endpoint=push_service.url("/push/1"))
    assert deliver_push(challenge(bob, 2).pk) == 1
    with Tarpit() as tarpit:
        PushSubscription.objects.filter(pk=subscription.pk).update(endpoint=tarpit.url("/push/1"))
        deliver_push(challenge(bob, 3).pk)

    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_a_person_gets_a_few_pushes_a_minute(bob, push_service, settings, sent_tasks):
    settings.PUSH_DELIVERIES_PER_MINUTE = 3
    push_service.subscribe(bob, Browser())

    delivered = [deliver_push(challenge(bob, n).pk) for n in range(6)]

    assert delivered == [1, 1, 1, 0, 0, 0]
    assert len(push_service.received) == 3
    assert bob.notifications.count() == 6  # the page still lists every one


def test_the_bound_is_per_person(alice, bob, push_service, settings, sent_tasks):
    settings.PUSH_DELIVERIES_PER_MINUTE = 1
    push_service.subscribe(bob, Browser(), "/push/bob")
    push_service.subscribe(alice, Browser(), "/push/alice")

    assert [deliver_push(challenge(bob, 1).pk), deliver_push(challenge(alice, 1).pk)] == [1, 1]


# --- how many devices, and whose ----------------------------------------------------------------
def test_a_person_keeps_at_most_a_few_devices_the_newest(client, bob, settings):
    settings.PUSH_DEVICES_MAX = 5
    client.force_login(bob)
    endpoints = [f"https://fcm.googleapis.com/fcm/send/device-{n}" for n in range(7)]

    for endpoint in endpoints:
        assert post(client, {"endpoint": endpoint, "keys": Browser().keys()}).status_code == 201

    assert sorted(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True)) == endpoints[2:]


def test_someone_elses_device_is_not_moved_to_your_account(client, alice, bob):
    endpoint = "https://fcm.googleapis.com/fcm/send/bobs-phone"
    bobs = Browser()
    client.force_login(bob)
    post(client, {"endpoint": endpoint, "keys": bobs.keys()})
    client.force_login(alice)

    answer = post(client, {"endpoint": endpoint, "keys": Browser().keys()})

    assert answer.status_code == 400 and answer.json()["code"] == "endpoint_taken"
    stored = PushSubscription.objects.get(endpoint=endpoint)
    assert (stored.user, stored.p256dh, stored.auth) == (bob, bobs.p256dh, bobs.keys()["auth"])
    assert bob.__class__.objects.get(pk=bob.pk).takes_push and not bob.__class__.objects.get(pk=alice.pk).takes_push


def test_the_same_browser_signing_in_as_someone_else_takes_its_device_along(client, alice, bob):
    endpoint = "https://fcm.googleapis.com/fcm/send/shared-laptop"
    browser = Browser()
    client.force_login(bob)
    post(client, {"endpoint": endpoint, "keys": browser.keys()})
    client.force_login(alice)

    assert post(client, {"endpoint": endpoint, "keys": browser.keys()}).status_code == 201

    assert PushSubscription.objects.get(endpoint=endpoint).user == alice


# --- https on the address checked ------------------------------------------------------------------
@pytest.fixture
def certificate_authority(monkeypatch, tmp_path):
    """A certificate authority the site's push sessions trust (in place of the public ones)."""
    authority = trustme.CA()
    bundle = tmp_path / "authority.pem"
    authority.cert_pem.write_to_path(str(bundle))
    session_to = addresses.session_to

    def trusting(destination):
        session = session_to(destination)
        session.verify = str(bundle)
        return session

    monkeypatch.setattr(addresses, "session_to", trusting)
    return authority


def test_https_goes_to_the_address_checked_and_checks_the_certificate_for_the_name(
        bob, names, certificate_authority, reach_the_local_push_services, sent_tasks):
    names["push.tls.test"] = ["127.0.0.1"]
    with PushService(certificate=certificate_authority.issue_cert("push.tls.test")) as service:
        browser = Browser()
        endpoint = f"https://push.tls.test:{service.server.server_port}/push/1"
        PushSubscription.objects.create(user=bob, endpoint=endpoint, **browser.keys())

        assert deliver_push(challenge(bob).pk) == 1

    assert service.server_names == ["push.tls.test"]
    assert browser.decrypt(service.received[0])["title"] == "Challenge 0"


def test_a_certificate_for_another_name_is_refused(bob, names, certificate_authority, reach_the_local_push_services,
                                                   sent_tasks):
    names["push.tls.test"] = ["127.0.0.1"]
    with PushService(certificate=certificate_authority.issue_cert("elsewhere.test")) as service:
        endpoint = f"https://push.tls.test:{service.server.server_port}/push/1"
        PushSubscription.objects.create(user=bob, endpoint=endpoint, **Browser().keys())

        assert deliver_push(challenge(bob).pk) == 0

    assert service.received == []


def test_with_the_cache_unreachable_pushes_still_go(bob, push_service, settings, sent_tasks):
    """The bound is counted in the cache; without it a push goes uncounted rather than not at all."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{unused_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    settings.PUSH_DELIVERIES_PER_MINUTE = 1
    push_service.subscribe(bob, Browser())

    assert [deliver_push(challenge(bob, n).pk) for n in range(2)] == [1, 1]


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
