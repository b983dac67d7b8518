"""A phone that slept on a page wakes to live updates: its event stream may look open and
be dead (the Wi-Fi went without a word), so after a long sleep the page opens a new one
(web/static/stream.js), on the live table and in the fight alike."""

from __future__ import annotations

from playwright.sync_api import Page, expect


class Deaf:
    """A subscription whose stream went quiet: it stays open, and no event reaches the page."""

    def __init__(self, subscription):
        self._subscription = subscription

    @property
    def ended(self) -> bool:
        return getattr(self._subscription, "ended", False)

    def get(self, timeout: float):
        self._subscription.get(timeout)  # taken from the queue, never sent
        return None

    def close(self) -> None:
        self._subscription.close()


def open_deaf(phone, owner, monkeypatch, path: str) -> Page:
    """``path`` opened with a stream that shows the page as live, then hears nothing more."""
    subscribe = owner.subscribe
    monkeypatch.setattr(owner, "subscribe", lambda: Deaf(subscribe()))
    page = phone(path)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
    monkeypatch.setattr(owner, "subscribe", subscribe)  # the streams opened later hear everything
    return page


#: The phone's screen goes off for a minute and comes back on (Date.now jumps that minute).
SLEEP_A_MINUTE = """() => {
  const visibility = (state) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
    document.dispatchEvent(new Event("visibilitychange"));
  };
  visibility("hidden");
  const now = Date.now;
  Date.now = () => now() + 60000;
  visibility("visible");
}"""


def test_the_fight_is_followed_again_after_the_phone_slept(phone, fight, monkeypatch):
    page = open_deaf(phone, fight, monkeypatch, "/combat")
    fight.add_hero("Brann")
    page.evaluate(SLEEP_A_MINUTE)
    expect(page.locator('#fighters li.fighter[data-name="Brann"]')).to_have_count(1)
    expect(page.locator("#link")).to_have_attribute("data-link", "live")


def test_the_live_table_is_followed_again_after_the_phone_slept(phone, controller, monkeypatch):
    page = open_deaf(phone, controller, monkeypatch, "/")
    controller.arm("2d6")
    controller.throw_dice([5, 1])
    page.evaluate(SLEEP_A_MINUTE)
    expect(page.locator("#big")).to_have_text("6")
    expect(page.locator("#link")).to_have_attribute("data-link", "live")
