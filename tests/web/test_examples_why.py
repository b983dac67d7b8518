"""``GET /api/examples``' ``adaptation.why`` (why the reader does not use the table's
examples yet, as vision says it) in the request's language, as the API's other texts."""

from __future__ import annotations

import pytest

#: vision.adapt's reasons → (pt_BR, es).
REASONS = {
    "fewer than two labelled photos": ("menos de duas fotos com rótulos", "menos de dos fotos etiquetadas"),
    "it reads the taught photos held out no better than the shipped reader": (
        "com as fotos ensinadas postas à parte, não lê melhor que o leitor de fábrica",
        "con las fotos enseñadas apartadas, no lee mejor que el lector de fábrica"),
}


@pytest.mark.parametrize("why", REASONS)
@pytest.mark.parametrize(("headers", "index"), [({"Accept-Language": "pt-BR"}, 0), ({"Accept-Language": "es"}, 1),
                                                ({"Accept-Language": "en"}, None)])
def test_why_the_examples_are_not_used_is_in_the_requests_language(client, controller, why, headers, index):
    controller.adaptation = {"used": False, "examples": 3, "right": 0.5, "shipped": 0.6, "why": why}
    adaptation = client.get("/api/examples", headers=headers).get_json()["adaptation"]
    assert adaptation["why"] == (why if index is None else REASONS[why][index])
    assert adaptation["examples"] == 3 and adaptation["used"] is False


def test_a_reason_the_page_has_no_words_for_is_passed_on_as_vision_says_it(client, controller):
    controller.adaptation = {"used": False, "examples": 3, "right": None, "shipped": None, "why": "a new reason"}
    assert client.get("/api/examples?lang=es").get_json()["adaptation"]["why"] == "a new reason"
