"""The practice page as the server sends it: the same for everyone, its set-up
in the create form's words, the download's size, and the engine's files."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.django_db


def main_of(html: str) -> str:
    return re.search(r"<main.*?</main>", html, re.S).group(0)


def config_of(html: str) -> dict:
    found = re.search(r'<script id="table-config" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_visitor_without_an_account_gets_the_practice_page(client):
    response = client.get("/practice/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Practice against bots" in html
    assert 'id="practice-form"' in html and 'id="table-app"' in html
    assert "Make practice available offline" in html
    assert "Play people online" in html


def test_the_page_reads_the_same_whoever_asks(client, alice):
    """The service worker keeps a copy fetched without cookies: what a signed-in person gets must not differ."""
    anonymous = main_of(client.get("/practice/").content.decode())
    client.force_login(alice)
    signed_in = main_of(client.get("/practice/").content.decode())

    assert signed_in == anonymous
    assert "Alice" not in signed_in


def test_the_page_says_how_much_it_downloads(client):
    from practice.assets import offline_assets

    html = client.get("/practice/").content.decode()

    # Served as the sources are (DEBUG's finders): nothing compressed, every byte counts.
    megabytes = f"{offline_assets()['total_bytes'] / 1_000_000:.1f}"
    assert f"at most {megabytes} MB" in html


def test_where_the_files_travel_compressed_the_page_says_the_smaller_download(client, monkeypatch):
    from practice import views

    real = views.offline_assets()
    monkeypatch.setattr(views, "offline_assets", lambda: {**real, "total_bytes": 14_012_969,
                                                          "total_wire_bytes": 6_682_664})

    html = " ".join(client.get("/practice/").content.decode().split())

    assert "It downloads about 6.7 MB once (14.0 MB once unpacked)" in html


def test_a_files_cost_over_the_wire_is_its_smallest_compressed_copy(tmp_path):
    from practice.assets import wire_bytes

    wasm = tmp_path / "pyodide.asm.wasm"
    wasm.write_bytes(b"\0" * 1000)
    assert wire_bytes(wasm, 1000) == 1000
    (tmp_path / "pyodide.asm.wasm.gz").write_bytes(b"z" * 300)
    (tmp_path / "pyodide.asm.wasm.br").write_bytes(b"b" * 250)
    assert wire_bytes(wasm, 1000) == 250


def test_the_set_up_offers_each_game_its_players_and_each_bot_its_level_and_style(client):
    html = client.get("/practice/").content.decode()
    config = config_of(html)

    assert {slug: (rules["min"], rules["max"]) for slug, rules in config["rules"].items()} == {
        "septica": (2, 6), "familie": (2, 6), "americana": (2, 4)}
    for seat in range(1, 6):
        assert f'name="seat_{seat}_level"' in html and f'name="seat_{seat}_style"' in html
    assert "Expert" in html and "Cautious" in html
    assert 'name="pace"' in html and set(config["paces"]) == {"quick", "normal", "slow"}
    assert config["badges"]["expert"]["expert"] == "Expert"
    assert config["badges"]["medium"]["balanced"] == "Medium, balanced"


def test_the_config_names_the_engine_and_every_file_to_keep_offline(client):
    config = config_of(client.get("/practice/").content.decode())

    assert config["logged_in"] is False
    assert config["engine"]["pyodide"].endswith("pyodide.mjs")
    assert config["engine"]["engine_zip"]
    urls = {file["url"] for file in config["offline"]["files"]}
    assert config["engine"]["engine_zip"] in urls and config["engine"]["pyodide"] in urls


def test_the_practice_page_is_in_the_menu_and_on_the_home_page_for_everyone(client, alice):
    for who in (None, alice):
        if who:
            client.force_login(who)
        html = client.get("/").content.decode()
        assert re.search(r'<a href="/practice/"[^>]*>Practice</a>', html)
        assert 'id="practice-link" href="/practice/"' in html
        assert re.search(r'id="resume-practice-box" hidden', html)  # until resume.js finds an unfinished match
