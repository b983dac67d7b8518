"""The result comes into sight on a phone: the presets sit below the result card,
so a player who scrolled down to tap one must not be left looking at the bottom
of the photo when the dice are read (fake controller, 390×844 Chromium)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# Wholly between the sticky header and the action bar at the bottom: what the player sees.
IN_SIGHT = """selector => {
  const box = document.querySelector(selector).getBoundingClientRect();
  const top = document.querySelector(".top").getBoundingClientRect().bottom;
  const bottom = document.querySelector(".actions").getBoundingClientRect().top;
  return box.height > 0 && box.top >= top && box.bottom <= bottom;
}"""


def in_sight(page: Page, selector: str) -> bool:
    return page.evaluate(IN_SIGHT, selector)


def wait_in_sight(page: Page, selector: str) -> None:
    page.wait_for_function(f"({IN_SIGHT})({selector!r})")
    box = page.locator(selector).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


def a_long_page(page: Page, controller) -> Page:
    """A few rolls with photos, as at a table an hour in; the page is live."""
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    controller.arm("2d6")
    for values in ([3, 4], [2, 5], [1, 1], [4, 4]):
        controller.throw_dice(values)
    expect(page.locator("#recent li")).to_have_count(4)
    expect(page.locator("#photo")).to_be_visible()
    page.locator("#photo").evaluate("img => img.decode()")
    return page


def scroll_by_hand_to(page: Page, selector: str) -> None:
    """The player's thumb: wheel down until the element is in sight."""
    page.mouse.move(195, 400)
    for _ in range(30):
        if in_sight(page, selector):
            return
        page.mouse.wheel(0, 200)
        page.wait_for_timeout(30)
    raise AssertionError(f"{selector} never came into sight")


def test_a_throw_from_the_presets_brings_the_prompt_then_the_result_into_sight(phone, controller):
    page = a_long_page(phone("/"), controller)
    scroll_by_hand_to(page, "#presets")
    assert not in_sight(page, "#big")
    page.get_by_role("button", name="2D6", exact=True).click()
    page.get_by_role("button", name="Throw").click()
    controller.throw_dice([6, 2])                    # the camera reads a perfect roll
    expect(page.locator("#prompt")).to_have_text("Roll the principal die again (counts as D3).")
    wait_in_sight(page, "#prompt")

    scroll_by_hand_to(page, "#presets")              # back down, then the extra die
    assert not in_sight(page, "#big")
    page.get_by_role("button", name="Throw").click()
    controller.throw_dice([4])
    expect(page.locator("#big")).to_have_text("10")
    wait_in_sight(page, "#big")
    wait_in_sight(page, "#outcome")


def test_a_roll_from_the_table_leaves_a_player_reading_the_recent_rolls_where_they_are(phone, controller):
    page = a_long_page(phone("/"), controller)
    scroll_by_hand_to(page, "#recent")             # the whole list, down to the oldest roll
    controller.arm("1d3+1")                          # the table's buttons, not this phone
    controller.throw_dice([5])
    expect(page.locator("#recent li")).to_have_count(5)
    expect(page.locator("#big")).to_have_text("4")
    page.wait_for_timeout(300)                       # a smooth scroll would have begun by now
    assert in_sight(page, "#recent-heading")        # still reading the recent rolls
    assert not in_sight(page, "#big")
