"""The odds chart draws every total of any preset and fits a phone from 320 px: nothing
scrolls sideways, no bar label is cut or overlaps another (trial fault 6: 3D6+2 scrolled
to 327 px at 320 and lost its last totals)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from device.controller import Controller
from device.history import History
from device.presets import build_presets

#: Presets of few to very many totals: 3D6+2 (the trial's), 8D6, a pool of 60 dice.
PRESETS = [{"name": "3d6p2", "count": 3, "modifier": 2}, {"name": "8d6", "count": 8},
           {"name": "big", "system": "pool", "size": 60}, {"name": "1d6", "count": 1}]


@pytest.fixture
def controller(tmp_path):
    with History(tmp_path) as history:
        yield Controller(build_presets(PRESETS), history)


def shown_totals(odds: dict) -> int:
    """The bars live.js draws of ``odds``: every success count of a pool, every total of at
    least 0.1 % of a D6 roll."""
    if odds["system"] == "pool":
        return len(odds["successes"])
    return sum(1 for p in odds["distribution"].values() if p >= 0.001)


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("locale", ["en-US", "pt-BR", "es"])
@pytest.mark.parametrize("name", [preset["name"] for preset in PRESETS])
def test_the_odds_chart_fits_every_total(phone, controller, width, locale, name):
    controller.arm(name)
    totals = shown_totals(controller.state()["odds"])
    page = phone("/", locale=locale, viewport={"width": width, "height": 800})
    bars = page.locator("#odds-bars .bar")
    expect(bars).to_have_count(totals)
    found = page.evaluate("""() => {
        const chart = document.querySelector("#odds-bars").getBoundingClientRect();
        const page = document.documentElement;
        const labels = [...document.querySelectorAll("#odds-bars .tick")].filter((t) => t.textContent)
            .map((t) => { const r = document.createRange(); r.selectNodeContents(t); return r.getBoundingClientRect(); });
        const overlaps = labels.slice(1).filter((box, i) => box.left < labels[i].right + 1).length;
        const cut = labels.filter((box) => box.left < 0 || box.right > page.clientWidth).length;
        return {scroll: page.scrollWidth - page.clientWidth, overlaps, cut, named: labels.length,
                inside: chart.right <= page.clientWidth};
    }""")
    assert found["scroll"] <= 0 and found["inside"], found
    assert found["overlaps"] == 0 and found["cut"] == 0 and found["named"] >= 2, found
