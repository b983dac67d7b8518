"""The history and settings pages in headless Chromium at a phone viewport."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from werkzeug.security import check_password_hash


def test_history_newest_first_paged_and_filtered(phone, controller):
    controller.arm("2d6", "Ana")
    for _ in range(3):
        controller.throw_dice([2, 3])
    controller.arm("pool5", "Bruno")
    controller.throw_dice([7, 8, 2, 3, 4])

    controller.correct(4, 0, value=1, who="Bruno")   # the 7 was a 1
    page = phone("/history?limit=2")
    rows = page.locator("#history li")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-roll-id", "4")
    expect(rows.first).to_contain_text("Failure")    # the 1 cancels the 8: no success left
    expect(rows.first).to_contain_text("Die 1: 7 → 1 · Bruno")
    expect(rows.first).to_contain_text("Bruno")
    page.get_by_role("link", name="Older").click()
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-roll-id", "2")

    page.goto("/history")
    page.select_option("#filter-preset", "pool5")     # applies at once
    expect(rows).to_have_count(1)
    expect(page.locator("#export-csv")).to_have_attribute("href", "/api/rolls.csv?preset=pool5")
    page.goto("/history")
    page.fill("#filter-player", "Ana")
    page.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(3)

    with page.expect_download() as download:
        page.locator("#export-json").click()
    rolls = json.loads(download.value.path().read_text())
    assert [r["roller"] for r in rolls] == ["Ana", "Ana", "Ana"]


def test_settings_principal_colour_by_tapping_the_die_on_the_photo(phone, controller):
    controller.arm("2d6")
    controller.throw_dice([3, 5])                    # die 2 is white, at box [150, 120, 250, 220]
    page = phone("/settings")
    frame = page.locator("#frame")
    expect(frame).to_be_visible()
    box = frame.bounding_box()
    scale = box["width"] / 640
    frame.click(position={"x": 200 * scale, "y": 170 * scale})
    expect(page.locator("#principal-color")).to_have_text("Principal colour: white")
    assert controller.settings()["principal_color"] == "white"
    frame.click(position={"x": 600 * scale, "y": 450 * scale})   # the felt, no die
    expect(page.locator("#toast")).to_have_text("No die there: tap inside a die.")


def test_settings_edit_presets(phone, controller):
    page = phone("/settings")
    rows = page.locator("#preset-editor .preset-row")
    expect(rows).to_have_count(3)
    rows.nth(1).locator(".p-label").fill("Dano leve")
    page.get_by_role("button", name="Save the rolls").click()
    expect(page.locator("#toast")).to_have_text("Saved")
    assert [p["label"] for p in controller.presets()] == ["2D6", "Dano leve", "pool 5 · difficulty 2"]

    rows.nth(2).locator(".p-spec").fill("{not json")
    page.get_by_role("button", name="Save the rolls").click()
    expect(page.locator("#toast")).to_contain_text("Error")
    assert len(controller.presets()) == 3             # nothing sent


def test_pin_set_then_asked_for_control_actions_then_cleared(phone, controller):
    page = phone("/settings")
    page.fill("#pin-new", "4321")
    page.get_by_role("button", name="Set the PIN").click()
    expect(page.locator("#pin-state")).to_have_text("PIN set")
    assert check_password_hash(controller.settings()["pin"], "4321")

    other = phone("/")                               # another phone: no session yet
    other.get_by_role("button", name="2D6").click()
    expect(other.locator("#pin-dialog")).to_be_visible()
    other.fill("#pin-input", "1111")
    other.locator("#pin-dialog").get_by_role("button", name="OK").click()
    expect(other.locator("#pin-dialog .pin-error")).to_be_visible()   # asked again
    other.fill("#pin-input", "4321")
    other.press("#pin-input", "Enter")                # Enter means OK
    expect(other.get_by_role("button", name="2D6")).to_have_attribute("aria-pressed", "true")
    assert controller.state()["preset"] == "2d6"

    page.get_by_role("button", name="Clear the PIN").click()
    expect(page.locator("#pin-state")).to_have_text("No PIN")
    assert controller.settings()["pin"] is None



def test_home_screen_manifest_and_icons(phone):
    page = phone("/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(href).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"].startswith(icon["type"])


def test_dark_scheme_and_reduced_motion_follow_the_phone(phone, controller):
    light = phone("/", color_scheme="light", reduced_motion="no-preference")
    dark = phone("/", color_scheme="dark", reduced_motion="reduce")
    background = "getComputedStyle(document.body).backgroundColor"
    assert light.evaluate(background) != dark.evaluate(background)
    for page in (light, dark):
        expect(page.locator("#link")).to_have_attribute("data-link", "live")
    controller.arm("2d6")
    controller.throw_dice([2, 5])
    animation = "getComputedStyle(document.querySelector('#big')).animationName"
    expect(light.locator("#current")).to_have_class("card current arrived")
    expect(dark.locator("#current")).to_have_class("card current arrived")
    assert light.evaluate(animation) == "pop"
    assert dark.evaluate(animation) == "none"


def test_clear_the_history_after_confirming(phone, controller):
    controller.arm("2d6")
    controller.throw_dice([1, 2])
    page = phone("/settings")
    page.once("dialog", lambda dialog: dialog.dismiss())   # "no": nothing is lost
    page.get_by_role("button", name="Clear the history").click()
    page.goto("/history")
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#history li").first).to_have_attribute("data-roll-id", "1")

    live = phone("/")
    expect(live.locator("#recent li")).to_have_count(1)
    page.goto("/settings")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Clear the history").click()
    expect(page.locator("#toast")).to_have_text("Saved")
    assert controller.rolls() == []
    expect(live.locator("#recent li")).to_have_count(0)    # gone from the open live page too
    expect(live.locator("#outcome")).to_have_text("No roll yet")
    page.goto("/history")
    expect(page.locator("#history li")).to_have_text(["Nothing here yet"])


def test_a_history_row_opens_the_roll_to_correct_it_and_the_player_filter_ignores_case(phone, controller):
    controller.arm("2d6", "Nara")
    first = controller.throw_dice([3, 4])
    controller.arm("2d6", "Zara")
    for _ in range(13):                               # the first roll is no longer among the 12 recent
        controller.throw_dice([1, 1])
    page = phone("/history")
    page.fill("#filter-player", "nara")
    page.get_by_role("button", name="Filter").click()
    rows = page.locator("#history li")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("link").click()
    expect(page.locator("#big")).to_have_text("7")
    expect(page.locator("#machine-state")).to_have_text(f"Roll {first['id']} · Resolved · 2D6 · by Nara")
    page.locator("#dice .die").nth(1).click()
    page.locator("#fix-keypad").get_by_role("button", name="6", exact=True).click()
    expect(page.locator("#big")).to_have_text("9")
    assert controller.roll(first["id"])["corrections"][0]["to"] == 6
