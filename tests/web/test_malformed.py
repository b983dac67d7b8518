"""A sweep of malformed requests: every one gets a 4xx with a JSON reason, never a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import create_app

from .conftest import FakeController

POSTS = [
    "/api/arm", "/api/throw", "/api/read", "/api/dice", "/api/rolls/1/dice/0",
    "/api/rolls/1/principal", "/api/settings", "/api/history/clear", "/api/login",
]

RAW_BODIES = [
    b"not json", b"{", b"[1, 2]", b'"text"', b"42", b"null", b"\xff\xfe\x00",
    b"[" * 100_000 + b"]" * 100_000, b'{"a": ' + b"9" * 5000 + b"}", b"{\"value\": NaN}",
]

BAD_FIELDS = {
    "/api/arm": [{"preset": 3}, {"preset": None}, {"preset": ""}, {"preset": "x" * 10_000},
                 {"preset": ["2d6"]}, {"preset": "2d6", "roller": 5}, {"preset": "2d6", "roller": "x" * 41},
                 {"preset": "2d6", "roller": "a\nb"}, {"preset": "2d6", "extra": 1}],
    "/api/dice": [{}, {"values": []}, {"values": "6"}, {"values": [True]}, {"values": [1.5]},
                  {"values": [10**30]}, {"values": [-1]}, {"values": [1] * 1000}, {"values": [[1]]},
                  {"values": [1, 2], "roller": {"a": 1}}],
    "/api/rolls/1/dice/0": [{"value": "3"}, {"value": 3.0}, {"value": True}, {"value": 10**30},
                            {"value": -3}, {"cocked": "yes"}, {"cocked": 1}, {"value": 3, "who": 7},
                            {"value": 99}],
    "/api/rolls/1/principal": [{}, {"index": "0"}, {"index": -1}, {"index": 10**30}, {"index": None}],
    "/api/settings": [{"principal_color": 5}, {"principal_color": "x" * 50}, {"presets": "all"},
                      {"presets": [1, 2]}, {"presets": [{}] * 1000}, {"pin": 1234}, {"pin": "12"},
                      {"pin": "1" * 13}, {"pin": "١٢٣٤"}, {"unknown": True}],
    "/api/login": [{"pin": 1234}, {"pin": ["1234"]}],
}

BAD_GETS = [
    "/api/rolls?limit=-1", "/api/rolls?limit=0", "/api/rolls?limit=abc", "/api/rolls?limit=1e3",
    f"/api/rolls?limit={10**30}", f"/api/rolls?offset={10**30}", "/api/rolls?offset=-5",
    "/api/rolls?player=" + "x" * 500, "/api/rolls?preset=%00", "/api/rolls.csv?limit=x" "&player=" + "y" * 99,
    "/api/rolls.json?preset=" + "z" * 99, "/api/rolls/1/photo?annotated=2",
    f"/api/rolls/{10**30}", f"/api/rolls/{10**30}/photo", "/api/nothing-here",
    "/api/events?last_event_id=x",
]  # the history page answers a bad query with itself (tests/web/test_pages.py)


@pytest.fixture
def armed(client, controller):
    controller.arm("2d6")
    controller.enter_dice([2, 3])
    return client


def _assert_4xx_json(response, what):
    assert 400 <= response.status_code < 500, (what, response.status_code)
    assert isinstance(response.get_json(force=True)["error"], str), what


@pytest.mark.parametrize("url", POSTS)
@pytest.mark.parametrize("raw", RAW_BODIES, ids=range(len(RAW_BODIES)))
@pytest.mark.slow
def test_non_object_bodies_are_400(armed, url, raw):
    response = armed.post(url, data=raw, content_type="application/json")
    _assert_4xx_json(response, (url, raw[:20]))
    assert response.status_code in (400, 413)


@pytest.mark.parametrize(("url", "body"), [(u, b) for u, bodies in BAD_FIELDS.items() for b in bodies])
@pytest.mark.slow
def test_wrong_fields_are_400(armed, url, body):
    response = armed.post(url, json=body)
    _assert_4xx_json(response, (url, body))
    assert response.status_code in (400, 401), body


@pytest.mark.parametrize("url", BAD_GETS)
def test_bad_queries_and_ids_are_4xx(armed, url):
    _assert_4xx_json(armed.get(url, headers={"Accept": "application/json"}), url)


def test_huge_body_is_413(armed):
    response = armed.post("/api/dice", data=b"{" + b" " * 400_000 + b"}", content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()


def test_wrong_method_is_405_json(armed):
    response = armed.get("/api/arm")
    assert response.status_code == 405 and "error" in response.get_json()
    assert armed.delete("/api/rolls/1").status_code == 405


def test_form_encoded_body_is_400(armed):
    _assert_4xx_json(armed.post("/api/arm", data={"preset": "2d6"}), "form")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)
field_names = st.sampled_from(["preset", "roller", "values", "value", "cocked", "who", "index",
                               "principal_color", "presets", "pin"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(POSTS), body=st.dictionaries(field_names, json_values, max_size=3))
@pytest.mark.slow
def test_random_bodies_never_answer_500(tmp_path, url, body):
    controller = FakeController(data_dir=tmp_path)
    controller.arm("2d6")
    controller.enter_dice([2, 3])
    client = create_app(controller, {"TESTING": True}).test_client()
    response = client.post(url, data=json.dumps(body), content_type="application/json")
    assert response.status_code < 500, (url, body, response.get_data()[:200])
    if response.status_code >= 400:
        assert "error" in response.get_json()
