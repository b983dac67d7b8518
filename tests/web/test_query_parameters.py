"""Every GET endpoint with query parameters refuses one it does not know, as /api/dice-stats
does (fresh-user trial: /api/rolls?foo=1 answered 200, the parameter silently ignored)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("path", ["/api/rolls", "/api/rolls.csv", "/api/rolls.json", "/api/dice-stats",
                                  "/api/rolls/1/photo", "/api/events"])
def test_an_unknown_query_parameter_is_refused(client, path):
    answer = client.get(f"{path}?lang=en&foo=1")
    assert answer.status_code == 400 and answer.get_json() == {"error": "unknown query parameter: foo"}


@pytest.mark.parametrize("path", ["/api/rolls?limit=5&offset=0&player=Ana&preset=pool5&lang=pt_BR",
                                  "/api/rolls.csv?player=Ana&preset=pool5", "/api/rolls.json?player=Ana",
                                  "/api/dice-stats?player=Ana"])
def test_the_known_ones_are_taken(client, path):
    assert client.get(path).status_code == 200


def test_the_live_pages_photo_address_is_taken(client):
    assert client.get("/api/rolls/1/photo?seq=3&annotated=0").status_code == 404  # no such roll: not a 400
