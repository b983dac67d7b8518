"""The combat API over the real combat session: steps, errors as 4xx with a reason, PIN, the event stream."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.combat import CombatSession
from vision.numerals import SIDES, NumberedReading
from vision.reading import TrayReading
from web import combat, create_app
from web.security import hash_pin

from .conftest import FakeController


@pytest.fixture
def fight(tmp_path):
    return CombatSession(tmp_path / "data")


@pytest.fixture
def client(app, fight):
    combat.attach(app, fight)
    return app.test_client()


def post(client, path, body=None, **options):
    return client.post("/api/combat" + path, json={} if body is None else body, **options)


def ok(response) -> dict:
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def set_up(client) -> dict:
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador", "count": 2}))
    return ok(post(client, "/initiative", {"values": {"Brann": 5, "Saqueador": 4, "Saqueador 2": 4}}))


def test_a_whole_attack_through_the_api(client):
    state = set_up(client)
    assert state["encounter"]["order"] == ["Brann", "Saqueador", "Saqueador 2"]
    assert state["groups"] == [["Brann"], ["Saqueador", "Saqueador 2"]]
    state = ok(post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"}))
    assert state["attack"]["needs"]["reason"] == "Attacker (Brann): roll Body d8 and the Destiny d20"
    ok(post(client, "/attack/dice", {"values": [7, 14]}))
    ok(post(client, "/attack/dice", {"values": [4, 9]}))
    state = ok(post(client, "/attack/dice", {"values": [5]}))
    assert state["last_attack"]["damage"] == 7 and state["attack"] is None
    assert ok(client.get("/api/combat"))["encounter"]["participants"][1]["pv"] == 1


def read(*dice: tuple[str, int]) -> TrayReading:
    """A reading of numbered dice ``(kind, value)``, 100 px apart."""
    return TrayReading([NumberedReading(value=value, sides=SIDES[kind], box=(100 * i, 0, 100 * i + 60, 60),
                                        center=(100 * i + 30, 30), color="blue", confidence=0.9, kind=kind)
                        for i, (kind, value) in enumerate(dice)], size=(640, 480))


@pytest.mark.slow
def test_an_attack_read_from_the_tray_and_a_die_corrected(app, tmp_path):
    readings = [read(("d6", 3), ("d20", 14)), read(("d8", 1), ("d20", 14))]
    times = iter(range(1000, 2000))
    fight = CombatSession(tmp_path / "data", numbered_reader=lambda image, color: readings.pop(0),
                          clock=lambda: next(times))
    client = combat.attach(app, fight).test_client()
    set_up(client)
    ok(post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"}))
    state = ok(post(client, "/tray", {"step": "attack"}))
    assert state["tray"]["waiting"]["needs"] == "this attack needs a d8 and a d20"
    assert fight.on_settled(None, 1500)
    state = ok(client.get("/api/combat"))
    assert state["tray"]["problem"]["text"] == "a numbered d6 is in the tray: this attack needs a d8 and a d20"
    assert fight.on_settled(None, 1501)
    state = ok(post(client, "/attack/correct", {"throw": "attack", "index": 0, "value": 7}))
    assert state["attack"]["attack"]["total"] == 7 and state["tray"]["waiting"]["throw"] == "defence"
    assert ok(post(client, "/tray/cancel"))["tray"]["waiting"] is None


def test_a_leaning_die_read_from_the_tray_gets_its_top_face_by_hand(app, tmp_path):  # RULES T-5
    cocked = NumberedReading(value=None, sides=20, box=(100, 0, 160, 60), center=(130, 30), color="blue",
                             confidence=0.9, unreadable="cocked", kind="d20")
    fight = CombatSession(tmp_path / "data", numbered_reader=lambda image, color: TrayReading(
        [read(("d8", 7)).dice[0], cocked], size=(640, 480)), cocked_dice=lambda: "accept_leaning")
    client = combat.attach(app, fight).test_client()
    set_up(client)
    ok(post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"}))
    ok(post(client, "/tray", {"step": "attack"}))
    assert fight.on_settled(None, 10**9)
    assert ok(client.get("/api/combat"))["tray"]["problem"]["text"] == "the d20 leans: enter its top face"
    refused = post(client, "/tray/top", {"value": 0})
    assert refused.status_code == 400 and "value must be a whole number from 1 to 20" in refused.get_json()["error"]
    state = ok(post(client, "/tray/top", {"value": 14}))
    assert state["attack"]["attack"]["destiny"] == 14 and state["attack"]["sources"] == {"attack": "corrected"}


def test_tied_enemies_are_reordered_and_turns_walk(client):
    set_up(client)
    state = ok(post(client, "/reorder", {"order": ["Brann", "Saqueador 2", "Saqueador"]}))
    assert state["encounter"]["order"][1] == "Saqueador 2"
    response = post(client, "/reorder", {"order": ["Saqueador", "Brann", "Saqueador 2"]})
    assert response.status_code == 400 and "tied" in response.get_json()["error"]
    assert ok(post(client, "/next-turn"))["encounter"]["current"] == "Saqueador 2"
    assert ok(post(client, "/undo"))["encounter"]["current"] == "Brann"


@pytest.mark.slow
def test_conditions_rests_help_and_damage(client):
    set_up(client)
    state = ok(post(client, "/conditions", {"name": "Saqueador", "condition": {"name": "Envenenado", "poison": 2}}))
    poisoned = state["encounter"]["participants"][1]["conditions"][0]
    assert poisoned["label"] == "Envenenado 2" and poisoned["effect"].startswith("poisoned")
    state = ok(post(client, "/next-turn"))
    assert state["encounter"]["participants"][1]["pv"] == 6          # 8 − 2 at the start of its turn
    ok(post(client, "/cure", {"name": "Saqueador", "condition": "Envenenado"}))
    ok(post(client, "/help", {"helper": "Saqueador", "ally": "Saqueador 2", "bonus": 2}))
    ok(post(client, "/damage", {"name": "Brann", "amount": 8, "reason": "a fall"}))
    state = ok(post(client, "/rest", {"name": "Brann", "kind": "short", "roll": 3}))
    assert state["encounter"]["participants"][0]["pv"] == 11
    state = ok(post(client, "/rest", {"name": "Brann", "kind": "long"}))
    assert state["encounter"]["participants"][0]["pv"] == 16
    assert ok(post(client, "/energy", {"name": "Brann", "energy": "EC"}))["encounter"]["participants"][0]["energy"]["EC"] == 1


def test_a_hero_typed_on_the_page_is_saved_for_the_next_fight(client, fight):
    sheet = {"name": "Ilse", "body": 6, "mind": 10, "soul": 8, "pv": 10, "weapon": "light", "ranged": True}
    state = ok(post(client, "/participants", {"sheet": sheet, "side": "hero", "save": True}))
    assert state["encounter"]["participants"][0]["name"] == "Ilse"
    assert "Ilse" in [h["name"] for h in CombatSession(fight.path.parent).heroes()]


@pytest.mark.parametrize(("path", "body", "status", "reason"), [
    ("/heroes", {"sheet": "Gandalf"}, 404, "no saved hero called Gandalf"),
    ("/enemies", {"sheet": "Dragon"}, 404, "Dragon"),
    ("/damage", {"name": "Nobody", "amount": 1}, 404, "no fighter called Nobody"),
    ("/attack", {"attacker": "Brann", "defender": "Ghost"}, 404, "Ghost"),
    ("/heroes", {"sheet": 3}, 400, "sheet must be text"),
    ("/heroes", {"sheet": "Brann", "colour": "red"}, 400, "unknown field: colour"),
    ("/enemies", {"sheet": "Rival", "count": 11}, 400, "count must be a whole number from 1 to 10"),
    ("/initiative", {"values": {"Brann": 9, "Saqueador": 4}}, 400, "Brann's initiative"),
    ("/initiative", {"values": [5, 4]}, 400, "values must be an object"),
    ("/attack", {"attacker": "Brann", "defender": "Saqueador"}, 409, "roll initiative first"),
    ("/attack/dice", {"values": [7, 14]}, 409, "no attack is being resolved"),
    ("/attack/dice", {"values": [7, 21]}, 400, "values must be a whole number from 1 to 20"),
    ("/damage", {"name": "Brann", "amount": True}, 400, "amount must be a whole number"),
    ("/conditions", {"name": "Brann", "condition": {"name": "Envenenado"}}, 400, "Envenenado needs its X"),
    ("/conditions", {"name": "Brann", "condition": {"name": "Ciego", "duration": "forever"}}, 400, "duration"),
    ("/rest", {"name": "Brann", "kind": "short", "roll": 5}, 400, "roll must be a whole number from 1 to 4"),
    ("/rest", {"name": "Brann", "kind": "nap"}, 400, "kind must be short or long"),
    ("/participants", {"sheet": {"name": "X", "body": 7, "mind": 6, "soul": 6, "pv": 3}, "side": "hero"}, 400,
     "body must be a die"),
    ("/participants", {"sheet": {"name": "X", "body": 6, "mind": 6, "soul": 6, "pv": 3}, "side": "enemy"}, 400,
     "Defence die"),
    ("/undo", {}, 409, "nothing to undo"),
    ("/tray", {"step": "attack"}, 409, "no attack is being resolved"),
    ("/tray", {"step": "attack", "name": "Brann"}, 400, "without a name"),
    ("/tray", {"step": "damage"}, 400, "step must be attack or initiative"),
    ("/tray", {"step": "initiative", "name": "Nobody"}, 404, "no fighter called Nobody"),
    ("/tray", {"step": "initiative"}, 400, "name is required"),
    ("/tray/cancel", {"step": "attack"}, 400, "unknown field: step"),
    ("/tray/top", {"value": 4}, 409, "no die of the tray leans"),  # RULES T-5
    ("/tray/top", {"value": 21}, 400, "value must be a whole number from 1 to 20"),
    ("/attack/correct", {"throw": "attack", "index": 0, "value": 7}, 409, "only the attack being resolved"),
    ("/attack/correct", {"throw": "destiny", "index": 0, "value": 7}, 400, "throw must be attack, defence or damage"),
    ("/attack/correct", {"throw": "attack", "index": 2, "value": 7}, 400, "index must be a whole number from 0 to 1"),
    ("/next-turn", {"x": 1}, 400, "unknown field: x"),
])
@pytest.mark.slow
def test_bad_requests_get_a_reason(client, path, body, status, reason):
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador"}))
    if path == "/undo":
        ok(post(client, "/undo"))
    response = post(client, path, body)
    assert response.status_code == status, response.get_json()
    assert reason in response.get_json()["error"]


@pytest.mark.parametrize(("lang", "reason"), [
    ("pt-BR", "role a iniciativa primeiro"),  # web/messages.py
    ("es", "tira la iniciativa primero"),
])
def test_a_refusal_of_the_rules_in_the_players_language(client, lang, reason):
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador"}))
    response = post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"}, headers={"Accept-Language": lang})
    assert (response.status_code, response.get_json()["error"]) == (409, reason)  # the state refuses it


@pytest.mark.parametrize("raw", [b"not json", b"[1]", b"null", b'{"values": ' + b"[" * 5000 + b"]" * 5000 + b"}"])
def test_malformed_bodies_are_400_never_500(client, raw):
    for path in ("/heroes", "/initiative", "/attack/dice", "/conditions", "/participants", "/undo"):
        response = client.post("/api/combat" + path, data=raw, content_type="application/json")
        assert response.status_code == 400 and response.get_json()["error"], path


def test_the_pin_guards_every_step(app, fight, controller):
    controller.update_settings(pin=hash_pin("2468"))
    client = combat.attach(app, fight).test_client()
    assert post(client, "/heroes", {"sheet": "Brann"}).status_code == 401
    assert client.get("/api/combat").status_code == 200      # reading stays open
    ok(post(client, "/heroes", {"sheet": "Brann"}, headers={"X-Dicelens-Pin": "2468"}))
    cross_site = post(client, "/undo", headers={"Origin": "http://evil.example", "X-Dicelens-Pin": "2468"})
    assert cross_site.status_code == 403


def test_without_a_session_the_combat_routes_are_404(controller):
    client = create_app(controller, {"TESTING": True, "SECRET_KEY": "t"}).test_client()
    assert client.get("/api/combat").status_code == 404
    assert client.get("/combat").status_code == 404


@pytest.mark.slow
def test_the_page_renders_with_the_state_and_translations(client):
    set_up(client)
    page = client.get("/combat?lang=es")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="combat-initial"' in html and "Saqueador 2" in html


def test_the_stream_sends_the_state_then_every_step(client):
    response = client.get("/api/combat/events")
    chunks = (chunk.decode() for chunk in response.response)
    assert next(chunks).startswith("retry:")
    assert next(chunks).startswith("event: combat\nid: 0\n")
    ok(post(client, "/heroes", {"sheet": "Rex"}))
    message = next(chunks)
    assert message.startswith("event: combat\nid: 1\n")
    data = json.loads(message.split("data: ", 1)[1])
    assert data["encounter"]["participants"][0]["name"] == "Rex"
    response.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(["Brann", "Saqueador", "Envenenado", "hero", "enemy", "short", "long", "EC"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "body", "mind", "soul", "pv", "defence", "poison", "poison_die", "Brann"]),
        children, max_size=5),
    max_leaves=15,
)
combat_fields = st.sampled_from(["step", "throw", "index", "sheet", "count", "initiative", "initiatives", "side", "save", "name", "values",
                                 "order", "value", "attacker", "defender", "ranged", "attack_modifier",
                                 "damage_bonus", "helper", "ally", "bonus", "amount", "reason", "condition",
                                 "energy", "kind", "roll"])
COMBAT_POSTS = ["/heroes", "/enemies", "/participants", "/saved-heroes", "/remove", "/initiative", "/reorder",
                "/next-turn", "/poison", "/attack", "/attack/dice", "/attack/cancel", "/help", "/damage", "/heal",
                "/conditions", "/cure", "/energy", "/rest", "/end-scene", "/new-fight", "/undo",
                "/tray", "/tray/cancel", "/attack/correct"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(COMBAT_POSTS), body=st.dictionaries(combat_fields, json_values, max_size=3))
@pytest.mark.slow
def test_random_bodies_never_answer_500(tmp_path_factory, path, body):
    session = CombatSession(tmp_path_factory.mktemp("fight"))
    session.add_hero("Brann")
    session.add_enemy("Saqueador")
    client = combat.attach(create_app(FakeController(data_dir=session.path.parent), {"TESTING": True}),
                           session).test_client()
    response = client.post("/api/combat" + path, data=json.dumps(body), content_type="application/json")
    assert response.status_code < 500, (path, body, response.get_data()[:200])
    if response.status_code >= 400:
        assert isinstance(response.get_json()["error"], str)


def test_a_face_out_of_range_names_the_die_asked_for(client):
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador"}))
    ok(post(client, "/initiative", {"values": {"Brann": 5, "Saqueador": 4}}))
    ok(post(client, "/attack", {"attacker": "Brann", "defender": "Saqueador"}))
    for values, error in (([-1, 14], "a d8 shows 1 to 8"), ([9, 14], "a d8 shows 1 to 8"), ([7, 0], "a d20 shows 1 to 20")):
        response = post(client, "/attack/dice", {"values": values})
        assert response.status_code == 400 and response.get_json()["error"] == error
    ok(post(client, "/attack/dice", {"values": [7, 14]}))
    response = post(client, "/attack/dice", {"values": [7, 9]})   # the defender's Defence d6
    assert response.status_code == 400 and response.get_json()["error"] == "a d6 shows 1 to 6"
    ok(post(client, "/attack/dice", {"values": [4, 9]}))
    ok(post(client, "/attack/dice", {"values": [5]}))
    for body, error in (({"throw": "defence", "index": 0, "value": 7}, "a d6 shows 1 to 6"),
                        ({"throw": "damage", "index": 0, "value": 0}, "a d8 shows 1 to 8"),
                        ({"throw": "attack", "index": 1, "value": 21}, "a d20 shows 1 to 20")):
        response = post(client, "/attack/correct", body)
        assert response.status_code == 400 and response.get_json()["error"] == error
    response = post(client, "/attack/correct", {"throw": "defence", "index": 0, "value": 7},
                    headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 400 and response.get_json()["error"] == "um d6 mostra de 1 a 6"


def test_a_d10_shows_0_as_10(client):
    """One rule for a d10's printed 0 (RULES P-1), as the pool's dice by hand take it (issue #24 item 8;
    the table: tests/device/test_table_failures.py)."""
    tall = {"name": "Ivo", "body": 10, "mind": 10, "soul": 6, "pv": 12}
    ok(post(client, "/participants", {"sheet": tall, "side": "hero"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador"}))
    state = ok(post(client, "/initiative", {"values": {"Ivo": 0, "Saqueador": 4}}))
    ivo = next(p for p in state["encounter"]["participants"] if p["name"] == "Ivo")
    assert ivo["initiative"] == 10 and state["encounter"]["order"][0] == "Ivo"
    ok(post(client, "/attack", {"attacker": "Ivo", "defender": "Saqueador"}))
    refused = post(client, "/attack/dice", {"values": [11, 14]})
    assert refused.status_code == 400 and refused.get_json()["error"] == "a d10 shows 0 to 10 (0 is 10)"
    state = ok(post(client, "/attack/dice", {"values": [0, 14]}))
    assert state["attack"]["attack"]["natural"] == 10
    ok(post(client, "/attack/correct", {"throw": "attack", "index": 0, "value": 3}))
    state = ok(post(client, "/attack/correct", {"throw": "attack", "index": 0, "value": 0}))
    assert state["attack"]["attack"]["natural"] == 10


def test_initiative_tapped_on_two_phones_is_in_every_phones_state(client):
    """Each phone taps its own fighter's Mind die: the values are the server's, so any phone
    can start the fight with everyone's (trial 6: they stayed on the phone that tapped)."""
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    ok(post(client, "/enemies", {"sheet": "Saqueador"}))
    ok(post(client, "/initiative/tap", {"name": "Brann", "value": 5}))        # the first phone
    state = ok(post(client, "/initiative/tap", {"name": "Saqueador", "value": 3}))  # the second
    assert state["tray"]["tapped"] == {"Brann": 5, "Saqueador": 3} and state["tray"]["initiative"] == {}
    assert ok(client.get("/api/combat"))["tray"]["tapped"] == {"Brann": 5, "Saqueador": 3}  # a third phone sees them
    state = ok(post(client, "/initiative/tap", {"name": "Saqueador", "value": None}))  # taken back
    assert state["tray"]["tapped"] == {"Brann": 5}
    ok(post(client, "/initiative/tap", {"name": "Saqueador", "value": 4}))
    state = ok(post(client, "/initiative", {"values": {"Brann": 5, "Saqueador": 4}}))
    assert state["encounter"]["order"] == ["Brann", "Saqueador"] and state["tray"]["tapped"] == {}


@pytest.mark.parametrize(("body", "status", "reason"), [
    ({"name": "Brann", "value": 7}, 400, "Brann's initiative (Mind) is a d6: it shows 1 to 6, not 7"),
    ({"name": "Brann", "value": "5"}, 400, "value must be a whole number from 0 to 12"),
    ({"name": "Brann", "value": True}, 400, "value must be a whole number from 0 to 12"),
    ({"name": "Brann"}, 400, "value is missing"),
    ({"name": "Brann", "value": 5, "who": "Ana"}, 400, "unknown field: who"),
    ({"value": 5}, 400, "name"),
    ({"name": "Nobody", "value": 5}, 404, "no fighter called Nobody"),
])
def test_a_malformed_initiative_tap_is_refused_with_its_reason(client, body, status, reason):
    ok(post(client, "/heroes", {"sheet": "Brann"}))
    response = post(client, "/initiative/tap", body)
    assert response.status_code == status and reason in response.get_json()["error"]
    assert ok(client.get("/api/combat"))["tray"]["tapped"] == {}


def test_no_initiative_is_tapped_once_the_fight_has_started(client):
    set_up(client)
    response = post(client, "/initiative/tap", {"name": "Brann", "value": 2})
    assert response.status_code == 409 and response.get_json()["error"] == "initiative was rolled: the fight has started"
