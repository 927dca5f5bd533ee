"""The notifications page and the menu's unread count."""

from __future__ import annotations

from notify.models import NotificationKind
from notify.notifications import notify


def test_the_page_lists_notifications_with_links_and_marks_them_all_read(client, bob, sent_tasks):
    notify(bob, NotificationKind.YOUR_MOVE, title="Your move at Table 12 (Septica)", url="/tables/12/", tag="table-12")
    notify(bob, NotificationKind.FINISHED, title="<script>alert(1)</script> finished", url="/tables/9/")
    client.force_login(bob)

    page = client.get("/notifications/").content.decode()
    assert '<a class="notification-title" href="/tables/12/">Your move at Table 12 (Septica)</a>' in page
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert page.count('class="notification-new"') == 2

    client.post("/notifications/read/")
    assert 'class="notification-new"' not in client.get("/notifications/").content.decode()


def test_the_menu_counts_unread_notifications(client, bob, sent_tasks):
    notify(bob, NotificationKind.FINISHED, title="Table 9 finished")
    notify(bob, NotificationKind.CHALLENGE, title="Alice challenges you")
    client.force_login(bob)

    assert '<span class="nav-badge unread-count">2<' in client.get("/").content.decode()
    client.post("/notifications/read/")
    assert "unread-count" not in client.get("/").content.decode()


def test_the_page_needs_a_person(client):
    assert client.get("/notifications/").status_code == 302
