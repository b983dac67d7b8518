"""The pages render their templates with the documented context (templates stubbed here,
so these tests check the routes and context; tests/browser checks the real pages)."""

from __future__ import annotations

import pytest
from jinja2 import ChoiceLoader, DictLoader

TEMPLATES = {
    "index.html": "{{ html_lang }}|{{ state.state }}|{{ presets|map(attribute='name')|join(',') }}|"
                  "{{ api.events }}|{{ pin_required }}|{{ authorized }}",
    "history.html": "{{ rolls|map(attribute='id')|join(',') }}|{{ player }}|{{ preset }}|"
                    "{{ next_offset }}|{{ prev_offset }}|{{ export_query }}",
    "settings.html": "{{ settings.principal_color }}|{{ settings.pin_set }}|{{ 'pin' in settings }}",
}


@pytest.fixture
def pages(app):
    app.jinja_env.loader = ChoiceLoader([DictLoader(TEMPLATES), app.jinja_env.loader])
    return app.test_client()


def test_index(pages, controller):
    controller.arm("pool5")
    text = pages.get("/", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert text == "pt-BR|armed|2d6,1d3+1,pool5|/api/events|False|True"


def test_history_pages_and_filters(pages, controller):
    controller.arm("2d6")
    for roller in ("Nara", "Rival", "Nara", "Nara"):
        controller.enter_dice([1, 2], roller=roller)
    text = pages.get("/history?player=Nara&limit=2").get_data(as_text=True)
    assert text == "4,3|Nara|None|2|None|player=Nara"
    assert pages.get("/history?player=Nara&limit=2&offset=2").get_data(as_text=True) == "1|Nara|None|None|0|player=Nara"


def test_history_bad_query_is_400(pages):
    assert pages.get("/history?offset=x").status_code == 400


@pytest.mark.parametrize("query", ["offset=-1", "offset=-99999999999999999", "limit=0", "limit=100000", "offset=+0"])
@pytest.mark.slow
def test_history_numbers_out_of_range_are_brought_into_it_on_a_page(app, controller, query):
    controller.arm("2d6")
    controller.enter_dice([1, 2])
    response = app.test_client().get(f"/history?{query}")
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert 'id="page-number">Page 1<' in text and "data-roll-id" in text and "history-problem" not in text


@pytest.mark.parametrize("query", ["offset=x", "offset=1e3", "limit=", "player=" + "x" * 41])
@pytest.mark.slow
def test_history_query_that_cannot_be_read_shows_the_page_with_the_reason(app, controller, query):
    controller.arm("2d6")
    controller.enter_dice([1, 2])
    response = app.test_client().get(f"/history?{query}", headers={"Accept-Language": "en"})
    text = response.get_data(as_text=True)
    assert response.mimetype == "text/html" and "<html" in text
    if query == "limit=":  # empty: the default
        assert response.status_code == 200 and "history-problem" not in text
        return
    assert response.status_code == 400 and 'id="history-problem"' in text
    assert "This link to the history cannot be read" in text and "data-roll-id" in text


def test_settings_page_never_shows_the_pin(pages):
    pages.post("/api/settings", json={"pin": "2468"})
    assert pages.get("/settings").get_data(as_text=True) == "red|True|False"
