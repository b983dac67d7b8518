"""The table's dice through the API (issue 17), over the real controller and history: a die the
reader missed tapped in (POST /api/rolls/<id>/dice), refused with the reason in the phone's
language; the examples listed, their crops, removed (DELETE /api/examples/<id>); in the JSON
export of the history."""

from __future__ import annotations

import json

import pytest

from tests.device.controller_fakes import die, photo
from web import create_app

from .conftest import csv_lines


@pytest.fixture
def real(real_controller):
    return real_controller(refit_seconds=3600)


@pytest.fixture
def client(real):
    return create_app(real, {"TESTING": True, "SECRET_KEY": "t"}).test_client()


@pytest.fixture
def free_roll(real, reader, clock):
    """A finished free roll read from a 640×480 photo: a red 3 at (100, 100), a white 2 at (300, 100)."""
    real.arm("free")
    real.on_settled(photo(reader, die(3, "red", 100, 100, principal=True), die(2, "white", 300, 100)), clock.tick())
    return real.state()["latest_roll"]


def test_a_die_tapped_in_joins_the_roll_and_is_an_example(client, free_roll):
    answer = client.post(f"/api/rolls/{free_roll['id']}/dice", json={"x": 450, "y": 300.5, "value": 5, "who": "Ana"})
    assert answer.status_code == 200, answer.get_json()
    roll = answer.get_json()
    assert roll["total"] == 10 and roll["dice"][2]["box"] == [420, 270, 480, 330]
    assert roll["corrections"][-1]["from"] is None and roll["corrections"][-1]["to"] == 5
    listed = client.get("/api/examples").get_json()
    [example] = listed["examples"]
    assert (example["kind"], example["value"], example["roll"], example["who"]) == ("d6-pips", 5, roll["id"], "Ana")
    assert listed["counts"] == {"d6-pips": 1}
    crop = client.get(f"/api/examples/{example['id']}/crop")
    assert crop.status_code == 200 and crop.mimetype == "image/png" and crop.data[:4] == b"\x89PNG"
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))
    assert exported[0]["id"] == roll["id"] and exported[0]["examples"] == [
        {"id": example["id"], "kind": "d6-pips", "value": 5, "box": [420, 270, 480, 330], "who": "Ana",
         "at": example["at"]}]


@pytest.mark.parametrize(("body", "lang", "why"), [
    ({"x": 700, "y": 10, "value": 4}, "en", "the point 700, 10 is outside the photo (640×480 pixels)"),
    ({"x": 700, "y": 10, "value": 4}, "pt-BR", "o ponto 700, 10 está fora da foto (640×480 pixels)"),
    ({"x": 700, "y": 10, "value": 4}, "es", "el punto 700, 10 está fuera de la foto (640×480 píxeles)"),
    ({"x": 130, "y": 130, "value": 4}, "en", "a die is already there: tap the place of the die the reader missed"),
    ({"x": 130, "y": 130, "value": 4}, "pt-BR", "já há um dado aí: toque no lugar do dado que o leitor não viu"),
    ({"x": 130, "y": 130, "value": 4}, "es", "ya hay un dado ahí: toca el lugar del dado que el lector no vio"),
    ({"x": 450, "y": 300, "value": 4, "kind": "d7"}, "en",
     "unknown kind of die d7: the reader knows d4, d6-pips, d6, d8, d10, d10-percentile, d12, d20"),
    ({"x": 450, "y": 300, "value": 4, "kind": "d7"}, "pt-BR",
     "tipo de dado desconhecido d7: o leitor conhece d4, d6-pips, d6, d8, d10, d10-percentile, d12, d20"),
    ({"x": 450, "y": 300, "value": 4, "kind": "d20"}, "es",
     "un d20 no es un dado de esta tirada: se tira con d6-pips, d6"),
    ({"x": "left", "y": 300, "value": 4}, "en", "x must be a number of photo pixels"),
    ({"x": 450, "y": 300, "value": 9}, "en", "the dice of this roll show 1 to 6"),
    ({"x": 450, "y": 300, "value": 4, "z": 1}, "en", "unknown field: z"),
])
def test_a_die_tapped_in_is_refused_with_the_reason(client, free_roll, body, lang, why):
    answer = client.post(f"/api/rolls/{free_roll['id']}/dice", json=body, headers={"Accept-Language": lang})
    assert answer.status_code == 400 and answer.get_json()["error"] == why
    assert client.get(f"/api/rolls/{free_roll['id']}").get_json()["dice"] == free_roll["dice"]
    assert client.get("/api/examples").get_json()["examples"] == []


def test_a_die_tapped_in_on_no_roll_is_404(client):
    assert client.post("/api/rolls/99/dice", json={"x": 1, "y": 1, "value": 1}).get_json() == {"error": "no roll 99"}


def test_removing_an_example_leaves_its_roll_and_a_second_time_is_404(client, free_roll):
    roll = client.post(f"/api/rolls/{free_roll['id']}/dice", json={"x": 450, "y": 300, "value": 5}).get_json()
    [example] = client.get("/api/examples").get_json()["examples"]
    assert client.delete(f"/api/examples/{example['id']}").get_json() == {"removed": example["id"]}
    assert client.get("/api/examples").get_json() == {"examples": [], "counts": {}, "names": {}, "adaptation": None}
    assert client.get(f"/api/rolls/{roll['id']}").get_json() == roll
    again = client.delete(f"/api/examples/{example['id']}", headers={"Accept-Language": "es"})
    assert again.status_code == 404 and again.get_json() == {"error": f"no hay ejemplo {example['id']}"}
    assert client.get(f"/api/examples/{example['id']}/crop").status_code == 404
    assert client.delete("/api/examples/99999999999999999999").status_code == 404


@pytest.mark.parametrize(("lang", "name"), [("en", "pip d6"), ("pt-BR", "d6 de pontos"), ("es", "d6 de puntos")])
def test_the_examples_name_their_kind_as_the_teach_page_does(client, free_roll, lang, name):
    client.post(f"/api/rolls/{free_roll['id']}/dice", json={"x": 450, "y": 300, "value": 5})
    listed = client.get("/api/examples", headers={"Accept-Language": lang}).get_json()
    assert [(e["kind"], e["name"]) for e in listed["examples"]] == [("d6-pips", name)]
    assert listed["names"] == {"d6-pips": name}

@pytest.fixture
def two_d6(real, reader, clock):
    """The current roll: a finished 2D6 read from a 640×480 photo, a red 3 and a white 6 (total 9)."""
    real.arm("2d6")
    real.on_settled(photo(reader, die(3, "red", 100, 100, principal=True), die(6, "white", 300, 100)), clock.tick())
    roll = real.state()["latest_roll"]
    assert roll["complete"] and roll["total"] == 9
    return roll


@pytest.mark.parametrize(("lang", "why"), [
    ("en", "the rules take no such change to roll {id} (3 dice given for a 2D6 roll: throw again, "
           "or correct it on the page): nothing was changed"),
    ("pt-BR", "as regras não aceitam esta mudança na rolagem {id} (3 dados informados para uma rolagem 2D6: "
              "jogue de novo, ou corrija na página): nada foi mudado"),
    ("es", "las reglas no admiten este cambio en la tirada {id} (se dieron 3 dados para una tirada 2D6: "
           "tira de nuevo, o corrígelo en la página): no se cambió nada"),
])
def test_the_current_finished_roll_refuses_a_die_the_rules_take_no_more(client, two_d6, lang, why):
    """RULES T-3, T-4: a third die on the current 2D6 is a 400 with the reason in the phone's
    language; the roll keeps its result, also once the next preset is armed."""
    answer = client.post(f"/api/rolls/{two_d6['id']}/dice", json={"x": 450, "y": 300, "value": 2},
                         headers={"Accept-Language": lang})
    assert answer.status_code == 400 and answer.get_json()["error"] == why.format(id=two_d6["id"])
    state = client.get("/api/state").get_json()
    assert state["state"] == "resolved" and state["latest_roll"]["total"] == 9 and state["prompt_text"] == ""
    client.post("/api/arm", json={"preset": "1d6"})
    kept = client.get(f"/api/rolls/{two_d6['id']}").get_json()
    assert kept["complete"] and kept["total"] == 9 and len(kept["dice"]) == 2


@pytest.mark.parametrize(("lang", "why"), [
    ("en", "roll {id} is finished and has the 2 dice it takes: no die is missing from it"),
    ("pt-BR", "a rolagem {id} está encerrada e já tem os 2 dados que leva: não falta nenhum dado"),
    ("es", "la tirada {id} está terminada y ya tiene los 2 dados que lleva: no le falta ningún dado"),
])
def test_a_past_finished_roll_says_why_it_takes_no_die_more_in_the_phones_language(client, two_d6, lang, why):
    """A past roll is not thrown again: its refusal says it has its dice, not "throw again"."""
    client.post("/api/arm", json={"preset": "1d6"})  # the 2D6 is a past roll now
    answer = client.post(f"/api/rolls/{two_d6['id']}/dice", json={"x": 450, "y": 300, "value": 2},
                         headers={"Accept-Language": lang})
    assert answer.status_code == 400 and answer.get_json()["error"] == why.format(id=two_d6["id"])
    assert "throw" not in answer.get_json()["error"]


@pytest.mark.parametrize(("lang", "inner"), [
    ("en", "die 2: it is cocked — throw it again or correct it on the page"),
    ("pt-BR", "dado 2: está inclinado — jogue-o de novo ou corrija na página"),
    ("es", "dado 2: está montado — tíralo de nuevo o corrígelo en la página"),
])
def test_a_past_roll_corrected_to_cocked_says_why_in_the_phones_language(client, two_d6, lang, inner):
    client.post("/api/arm", json={"preset": "1d6"})
    answer = client.post(f"/api/rolls/{two_d6['id']}/dice/1", json={"cocked": True},
                         headers={"Accept-Language": lang})
    assert answer.status_code == 409 and f"({inner})" in answer.get_json()["error"]  # its state refuses it


def test_a_die_tapped_in_is_by_hand_not_corrected_in_the_export_and_on_dice(client, free_roll):
    """Nothing read the tapped-in die: the CSV numbers only the reading the table corrected
    (die 1, the red 3 read and corrected to 4), as /dice counts it (corrected 1, by hand 1)."""
    client.post(f"/api/rolls/{free_roll['id']}/dice", json={"x": 450, "y": 300, "value": 5})
    assert client.post(f"/api/rolls/{free_roll['id']}/dice/0", json={"value": 4}).status_code == 200
    line = csv_lines(client)[0]
    assert line["sources"] == "camera camera hand" and line["corrected"] == "1"
    [pips] = [k for k in client.get("/api/dice-stats").get_json()["kinds"] if k["kind"] == "d6-pips"]
    assert (pips["corrected"], pips["by_hand"], pips["read"]) == (1, 1, 2)


def test_a_die_tapped_in_then_marked_principal_is_by_hand_in_the_api_and_exports(client, free_roll):
    """Marking the principal die changes a role (RULES D6-2), not what the die showed."""
    roll_id = free_roll["id"]
    assert client.post(f"/api/rolls/{roll_id}/dice", json={"x": 450, "y": 300, "value": 5}).status_code == 200
    marked = client.post(f"/api/rolls/{roll_id}/principal", json={"index": 2})
    assert marked.status_code == 200, marked.get_json()
    assert [d["corrected"] for d in marked.get_json()["dice"]] == [False, False, False]
    assert [d["corrected"] for d in client.get(f"/api/rolls/{roll_id}").get_json()["dice"]] == [False, False, False]
    exported = json.loads(client.get("/api/rolls.json").get_data(as_text=True))[0]
    assert exported["id"] == roll_id and [d["corrected"] for d in exported["dice"]] == [False, False, False]
    line = csv_lines(client)[0]
    assert line["sources"] == "camera camera hand" and line["corrected"] == ""
