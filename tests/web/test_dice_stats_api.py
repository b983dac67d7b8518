"""GET /api/dice-stats ("Your dice", issue 17 item 5): the table's dice per kind, worded in
the phone's language, and a 400 with the reason for a query it cannot read."""

from __future__ import annotations

import pytest


def _roll(controller, preset, values, roller=None):
    controller.arm(preset, roller)
    controller.throw_dice(values)


def test_every_kind_is_counted_with_its_faces_and_words(client, controller):
    for _ in range(40):                                  # 240 pip d6, every face 40 times
        _roll(controller, "2d6", [1, 2])
        _roll(controller, "2d6", [3, 4])
        _roll(controller, "2d6", [5, 6])
    controller.correct(1, 1, value=3)                    # one die the table corrected: 2 → 3
    controller.taught = {"d6-pips": 12}
    stats = client.get("/api/dice-stats").get_json()
    d6, d10 = stats["kinds"]
    assert (d6["kind"], d6["dice"], d6["read"], d6["right"], d6["corrected"], d6["taught"]) == \
        ("d6-pips", 240, 240, 239, 1, 12)
    assert d6["faces"] == [40, 39, 41, 40, 40, 40]
    assert d6["fairness"]["test"] == "chi-square" and d6["fairness"]["p"] > 0.99
    assert d6["words"] == {
        "name": "pip d6",
        "right": "99.6 % of the faces the camera read were right",
        "verdict": "no sign of bias in 240 dice thrown",
        "detectable": "with 240 dice thrown a face would have to come up 1 in 4 instead of 1 in 6 to be seen",
        "few": "So few dice thrown say little: a die needs thousands of throws before “unfair” is fair to say.",
    }
    assert d10["dice"] == 0 and d10["words"]["verdict"] == "no dice of this kind yet"
    assert d10["words"]["detectable"] is None and d10["words"]["few"] is None and d10["words"]["right"] is None


def test_a_face_that_comes_up_too_often_is_named_with_its_p_value(client, controller):
    for _ in range(10):
        _roll(controller, "pool5", [10, 10, 10, 10, 10])  # a d10 that shows 10 and nothing else
    d10 = client.get("/api/dice-stats?kind=d10").get_json()["kinds"]
    assert [k["kind"] for k in d10] == ["d10"]
    # 50 tens: each face expected 5 times, chi-square 9·5 + 45²/5 = 450 on 9 degrees of freedom
    assert d10[0]["fairness"]["test"] == "chi-square" and d10[0]["fairness"]["p"] < 1e-80
    assert d10[0]["words"]["verdict"] == "face 10 came up more than chance would: p < 0.001"
    for values in ([1, 2], [3, 4], [5, 6], [1, 2], [3, 4], [5, 6]):
        _roll(controller, "2d6", values)                 # 12 dice, 2 a face: the exact tests
    d6 = client.get("/api/dice-stats?kind=d6-pips").get_json()["kinds"][0]
    assert d6["fairness"]["test"] == "exact binomial"
    assert d6["words"]["verdict"] == "no sign of bias in 12 dice thrown"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"name": "pip d6", "verdict": "face 6 came up more than chance would: p = 0.017",
            "detectable": "with 580 dice thrown a face would have to come up 1 in 4.5 instead of 1 in 6 to be seen"}),
    ("pt-BR", {"name": "d6 de pontos", "verdict": "a face 6 saiu mais do que o acaso daria: p = 0,017",
               "detectable": "com 580 dados lançados, uma face teria que sair 1 em 4,5 em vez de 1 em 6 para ser vista"}),
    ("es", {"name": "d6 de puntos", "verdict": "la cara 6 salió más de lo que daría el azar: p = 0,017",
            "detectable": "con 580 dados lanzados, una cara tendría que salir 1 de cada 4,5 en lugar de 1 de cada 6 "
                          "para verse"}),
])
def test_the_words_and_numbers_are_in_the_phones_language(client, controller, lang, words):
    for _ in range(90):
        _roll(controller, "2d6", [1, 2])
        _roll(controller, "2d6", [3, 4])
        _roll(controller, "2d6", [5, 6])
    for _ in range(20):
        _roll(controller, "2d6", [6, 6])
    d6 = client.get("/api/dice-stats", headers={"Accept-Language": lang}).get_json()["kinds"][0]
    # 580 dice, 96.7 expected a face: χ² = (5·6.67² + 33.3²)/96.7 = 13.79 on 5 degrees of freedom, p = 0.017;
    # 1/6 + √(12.83/580)·√5/6 = 0.222, 1 in 4.5
    assert d6["faces"] == [90, 90, 90, 90, 90, 130]
    assert {key: d6["words"][key] for key in words} == words
    assert d6["words"]["few"] is not None


@pytest.mark.parametrize(("query", "error"), [
    ("?kind=d7", "kind must be one of d6-pips, d10"),
    ("?kind=", "kind must be one of d6-pips, d10"),
    ("?player=" + "x" * 41, "player must be at most 40 characters"),
    ("?player=Ana%00", "player must not hold control characters (tab, new line, NUL…)"),
    ("?sides=6", "unknown query parameter: sides"),
])
def test_a_query_it_cannot_read_is_a_400_with_the_reason(client, query, error):
    response = client.get("/api/dice-stats" + query)
    assert response.status_code == 400 and response.get_json() == {"error": error}


def test_the_refusals_are_in_the_phones_language(client):
    response = client.get("/api/dice-stats?kind=d7", headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 400 and response.get_json()["error"] == "kind deve ser um de d6-pips, d10"
    response = client.get("/api/dice-stats?sides=6", headers={"Accept-Language": "es"})
    assert response.get_json()["error"] == "parámetro de consulta desconocido: sides"


def test_one_players_dice_alone(client, controller):
    _roll(controller, "2d6", [6, 6], "Ana")
    _roll(controller, "2d6", [1, 2], "Bruno")
    d6 = client.get("/api/dice-stats?player=ana").get_json()["kinds"][0]
    assert d6["faces"] == [0, 0, 0, 0, 0, 2]


def test_the_taught_count_is_the_players_when_one_is_asked(real_controller):
    """Over the real controller and examples: "Taught (counted apart)" follows the player filter."""
    import numpy as np

    from device.examples import Examples, TaughtFile
    from vision import adapt
    from web import create_app

    controller = real_controller(refit_seconds=3600)
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    image = np.zeros((100, 100, 3), np.uint8)
    with Examples(controller._history.folder) as examples:
        examples.add([TaughtFile(b"ana's", ".png", image, "a.png",
                                 [adapt.Example("d6-pips", v, (10 * v, 10, 10 * v + 8, 18)) for v in (1, 2, 3)])],
                     who="Ana")
        examples.add([TaughtFile(b"bia's", ".png", image, "b.png", [adapt.Example("d6-pips", 6, (10, 50, 40, 80))])],
                     who="Bia")
    taught = lambda query: {k["kind"]: k["taught"] for k in client.get(f"/api/dice-stats{query}").get_json()["kinds"]}  # noqa: E731
    assert taught("")["d6-pips"] == 4
    assert taught("?player=ana")["d6-pips"] == 3
    assert taught("?player=Bia")["d6-pips"] == 1
    assert taught("?player=Caio")["d6-pips"] == 0


@pytest.mark.parametrize(("lang", "verdict"), [
    ("en", "no sign of bias in 7 dice thrown"),
    ("pt-BR", "nenhum sinal de viés em 7 dados lançados"),
    ("es", "ninguna señal de sesgo en 7 dados lanzados"),
])
def test_the_count_said_is_of_dice_thrown_not_of_rolls(client, controller, lang, verdict):
    """7 dice over 4 rolls: the figure is the dice (trial 8 read "en 9 tiradas" for 9 over 4)."""
    for values in ([1, 2], [3, 4], [5, 6], [1]):
        _roll(controller, "2d6" if len(values) == 2 else "1d3+1", values)
    d6 = client.get("/api/dice-stats?kind=d6-pips", headers={"Accept-Language": lang}).get_json()["kinds"][0]
    assert d6["dice"] == 7 and d6["words"]["verdict"] == verdict
