"""Who sees the moderation screens: moderators do; other staff and players do not.
The audit log cannot be edited by anyone, and the full deal shows only here."""

from __future__ import annotations

import pytest

from games.actions import moderation
from games.models import Match, ModerationAction, Report, Table, TableStatus
from tests.play import play_moves

from .conftest import ADMIN, changelist, logged_in, run_action

pytestmark = pytest.mark.django_db

LISTS = ["table", "seat", "match", "move", "user", "report", "moderationaction"]


def test_a_moderator_sees_every_moderation_list(moderator, playing):
    client = logged_in(moderator)

    for model in LISTS:
        assert client.get(changelist(model)).status_code == 200, model
    index = client.get(ADMIN).content.decode()
    assert "Moderation actions" in index and "Reports" in index and "Tables" in index


@pytest.mark.parametrize("model", ["table", "seat", "match", "move", "report", "moderationaction"])
def test_staff_outside_the_moderators_group_see_no_moderation_list(outsider_staff, playing, model):
    client = logged_in(outsider_staff)

    assert client.get(changelist(model)).status_code == 403
    assert client.get(f"{changelist(model)}1/change/").status_code in (403, 404)


def test_staff_outside_the_group_cannot_abort_a_table(outsider_staff, playing):
    client = logged_in(outsider_staff)

    run_action(client, "table", "abort", [playing.pk], reason="I am not a moderator")

    assert Table.objects.get(pk=playing.pk).status == TableStatus.PLAYING
    assert not ModerationAction.objects.exists()


def test_staff_outside_the_group_cannot_suspend_a_user_though_they_see_users(outsider_staff, bob):
    client = logged_in(outsider_staff)
    assert client.get(changelist("user")).status_code == 200  # user management is not moderation

    asked, _answered = run_action(client, "user", "suspend", [bob.pk], reason="no", days="3")

    bob.refresh_from_db()
    assert bob.play_refusal is None and not ModerationAction.objects.exists()
    assert b"Suspend from playing" not in client.get(changelist("user")).content


def test_the_moderation_functions_refuse_staff_outside_the_group(outsider_staff, playing):
    with pytest.raises(moderation.NotAllowed):
        moderation.abort_table(outsider_staff, playing.pk, "not mine to do")


def test_a_player_is_sent_to_the_admin_login(alice, playing):
    client = logged_in(alice)

    for model in LISTS:
        response = client.get(changelist(model))
        assert response.status_code == 302 and "/admin/login/" in response["Location"], model


def test_an_api_token_does_not_open_the_admin(moderator, playing):
    from accounts.models import ApiToken

    _token, secret = ApiToken.issue(moderator, "script")

    response = logged_in(moderator).get(changelist("table"), HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert response.status_code == 403


def test_the_audit_log_has_no_add_change_or_delete_even_for_a_superuser(make_user, moderator, playing):
    moderation.abort_table(moderator, playing.pk, "cheating")
    entry = ModerationAction.objects.get()
    root = make_user("root", is_staff=True, is_superuser=True)
    client = logged_in(root)
    url = changelist("moderationaction")

    assert client.get(f"{url}add/").status_code == 403
    assert client.post(f"{url}{entry.pk}/change/", {"reason": "nothing happened"}).status_code == 403
    assert client.post(f"{url}{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    client.post(url, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    entry.refresh_from_db()
    assert entry.reason == "cheating"
    page = client.get(f"{url}{entry.pk}/change/").content.decode()
    assert "cheating" in page and 'name="reason"' not in page


def test_tables_and_matches_cannot_be_edited_from_the_admin(moderator, playing):
    client = logged_in(moderator)

    client.post(f"{changelist('table')}{playing.pk}/change/", {"status": "finished"})
    client.post(f"{changelist('match')}{playing.pk}/delete/", {"post": "yes"})

    assert Table.objects.get(pk=playing.pk).status == TableStatus.PLAYING
    assert Match.objects.filter(pk=playing.pk).exists()


def test_the_match_page_reveals_the_full_deal_to_a_moderator(moderator, playing):
    state = Match.objects.get(pk=playing.pk).state

    page = logged_in(moderator).get(f"{changelist('match')}{playing.pk}/change/").content.decode()

    for hand in state["hands"]:
        assert " ".join(hand) in page
    assert " ".join(state["stock"]) in page


def test_the_match_page_lists_the_move_log(moderator, playing):
    play_moves(playing, count=3)

    page = logged_in(moderator).get(f"{changelist('match')}{playing.pk}/change/").content.decode()

    assert page.count('class="field-seq"') >= 3


# --- searching and filtering ------------------------------------------------------------------
def listed_ids(client, model: str, query: str) -> set[int]:
    response = client.get(f"{changelist(model)}?{query}")
    assert response.status_code == 200, query
    return {obj.pk for obj in response.context["cl"].result_list}


def test_tables_filter_by_status_rules_reports_abandonment_and_date(moderator, alice, bob, charlie, playing):
    from tests.play import start_table

    waiting = start_table(charlie, [], rules="familie", players=3)
    Report.objects.create(table=playing, seq=0, reporter=bob, reported=alice, reason="rude")
    from games.models import Seat

    Seat.objects.filter(table=playing, user=alice).update(standing_in=True)
    client = logged_in(moderator)

    assert listed_ids(client, "table", "status__exact=open") == {waiting.pk}
    assert listed_ids(client, "table", "rules__exact=septica") == {playing.pk}
    assert listed_ids(client, "table", "reported=open") == {playing.pk}
    assert listed_ids(client, "table", "reported=no") == {waiting.pk}
    assert listed_ids(client, "table", "abandoned=yes") == {playing.pk}
    assert listed_ids(client, "table", "abandoned=no") == {waiting.pk}
    today = playing.created_at
    assert listed_ids(client, "table", f"created_at__year={today.year}&created_at__month={today.month}") == {
        playing.pk, waiting.pk}


def test_lists_are_searchable(moderator, alice, bob, charlie, playing):
    from tests.play import start_table

    other = start_table(charlie, [], players=2)
    client = logged_in(moderator)

    assert listed_ids(client, "table", "q=bob") == {playing.pk}
    assert listed_ids(client, "table", f"q={other.pk}") == {other.pk}
    assert listed_ids(client, "table", "q=nobody-at-all") == set()
    assert listed_ids(client, "user", "q=charlie") == {charlie.pk}
    assert {seat for seat in listed_ids(client, "seat", "q=alice")} == {playing.seats.get(user=alice).pk}


def test_users_filter_by_suspension(moderator, alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    moderation.suspend_user(moderator, alice.pk, "spam", timezone.now() + timedelta(days=1))
    moderation.ban_user(moderator, bob.pk, "cheating")
    client = logged_in(moderator)

    assert listed_ids(client, "user", "restricted=suspended") == {alice.pk}
    assert listed_ids(client, "user", "restricted=banned") == {bob.pk}
    assert alice.pk not in listed_ids(client, "user", "restricted=free")
