"""A new player signs up, logs out and logs in again through the real pages,
on a phone-sized screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PASSWORD = "a-whole-new-deck-42"


def open_account_menu(page, name: str):
    # Below 720 px the links sit behind the ☰ toggle.
    if not page.get_by_text(name, exact=True).is_visible():
        page.get_by_label("Menu").click()
        expect(page.get_by_label("Menu")).to_have_attribute("aria-expanded", "true")
    page.locator(".account-menu summary").click()


@pytest.mark.browser
def test_a_new_player_signs_up_logs_out_and_logs_in_again(live_server, page, transactional_db):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Create an account").click()

    page.get_by_label("Username").fill("dana")
    page.get_by_label("E-mail address").fill("dana@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page.locator(".messages")).to_contain_text("Welcome, dana!")
    expect(page.get_by_role("button", name=re.compile("Play Șeptică"))).to_have_count(3)  # one per game
    expect(page.locator("main")).not_to_contain_text("Welcome back")  # welcomed once

    open_account_menu(page, "dana")
    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".messages")).to_contain_text("You have logged out.")
    expect(page.locator("main")).to_contain_text("Create an account")

    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username or e-mail").fill("dana@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")

    expect(page.locator("main")).to_contain_text("Welcome back, dana.")


@pytest.mark.browser
def test_a_wrong_password_is_refused_on_the_page(live_server, page, make_user, password, transactional_db):
    make_user("erin")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username or e-mail").fill("erin")
    page.get_by_label("Password").fill("not-it")
    page.get_by_role("button", name="Log in").click()

    expect(page.locator(".errorlist")).to_contain_text("Please enter a correct")
