"""The roll's prompt and the fight's tray worded by the server from the state's data (its
``problem`` and ``needs``, never its English), once per phone, in the phone's language:
the JSON API and the event streams send ``prompt_text`` and ``tray.text``."""

from __future__ import annotations

import re

import pytest

from device.combat import CombatSession
from device.tray.problems import KIND_NAMES, UNREADABLE_PHRASES, Problem
from rules.d6 import D6Spec, resolve_d6
from rules.errors import InvalidRoll
from rules.phrase import Phrase
from tests.device.controller_fakes import die, numbered
from web import combat as web_combat
from web import create_app
from web.messages import DEVICE_WORDS, prompt_text, shown_state, translated, tray_text

from .test_events import Stream

LANGS = ("en", "pt_BR", "es")


@pytest.fixture
def real(real_controller):  # reading with the reader and on the clock of tests/web/conftest.py
    return real_controller()


@pytest.fixture
def app(real, tmp_path, reader, clock):
    app = create_app(real, {"TESTING": True, "HEARTBEAT_SECONDS": 0.05, "SECRET_KEY": "t"})
    return web_combat.attach(app, CombatSession(tmp_path / "fight", numbered_reader=reader.numbered, clock=clock))


def said(app, state: dict, lang: str) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return prompt_text(state)


def test_the_device_words_a_sentence_holds_are_marked_for_the_catalogues():
    assert set(DEVICE_WORDS) == set(KIND_NAMES.values()) | set(UNREADABLE_PHRASES.values())


@pytest.mark.parametrize("why", list(UNREADABLE_PHRASES) + [None])
def test_every_unreadable_die_is_said_in_each_language(app, why):
    problem = Problem("unreadable", die=7, color="black", why=why or "unreadable",
                      asks="throw it again or correct it on the page").to_dict()
    state = {"state": "prompting", "prompt": problem["text"], "problem": problem, "needs": None}
    clause = UNREADABLE_PHRASES[why or "unreadable"]
    assert said(app, state, "en") == f"Die 7: {clause} — throw it again, or tap it to correct it."
    for lang in ("pt_BR", "es"):
        text = said(app, state, lang)
        assert text.startswith("Dado 7: ") and clause not in text, (lang, text)


def test_dice_of_another_kind_are_named_in_each_language(app):
    problem = Problem("wrong dice", (("pip d6", 1), ("d8", 2), ("percentile d10", 1)), kind="d10",
                      asks="throw only d10s").to_dict()
    state = {"state": "prompting", "prompt": problem["text"], "problem": problem, "needs": None}
    assert said(app, state, "en") == (
        "Dice of another kind in the tray: 1 pip d6, 2 d8, 1 percentile d10. Throw only d10 dice.")
    pt = said(app, state, "pt_BR")
    assert pt.startswith("Dados de outro tipo na bandeja: ") and "1 d6 de pontos" in pt and pt.endswith("d10.")
    es = said(app, state, "es")
    assert "pip d6" not in es and "percentile d10" not in es and "2 d8" in es


def test_a_refused_frame_says_why_then_what_the_roll_still_asks_for(app):
    refused = Problem("not moved", asks="x", then=Problem("no principal")).to_dict()
    state = {"state": "prompting", "prompt": refused["text"], "problem": refused, "needs": None}
    assert said(app, state, "en") == ("No die has moved since the last reading. "
                                      "No principal die found: tap the principal die.")
    assert said(app, state, "pt_BR") == ("Nenhum dado se moveu desde a última leitura. "
                                         "Dado principal não encontrado: toque no dado principal.")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "3 dice given for a 2D6 roll: throw again, or correct it on the page"),
    ("pt_BR", "3 dados informados para uma rolagem 2D6: jogue de novo, ou corrija na página"),
    ("es", "se dieron 3 dados para una tirada 2D6: tira de nuevo, o corrígelo en la página"),
])
def test_the_rules_refusal_of_a_throw_is_said_in_each_language(app, lang, text):
    """A throw the rules refuse (RULES T-3): the prompt and the problem's text in the phone's
    language, from the rules' Phrase (they were their English)."""
    with pytest.raises(InvalidRoll) as refused:
        resolve_d6(D6Spec(count=2), [3, 6, 2])
    problem = Problem("refused", why=refused.value.args[0], asks="throw again, or correct it on the page").to_dict()
    state = {"state": "prompting", "prompt": problem["text"], "problem": problem, "needs": None}
    assert said(app, state, lang) == text
    with app.test_request_context(f"/?lang={lang}"):
        assert shown_state(state)["problem"]["text"] == text


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_and_the_stream_send_the_prompt_in_the_phones_language(app, real, reader, clock, lang):
    client = app.test_client()
    real.arm("2d6")
    real.on_settled(reader.frame(die(6, "red", principal=True), die(None, "white", 300, unreadable="cocked")),
                    clock.tick())
    state = client.get(f"/api/state?lang={lang}").get_json()
    assert state["prompt"] == "die 2 (white): it is cocked — throw it again or correct it on the page"
    assert state["problem"]["code"] == "unreadable" and state["prompt_asks"] == "fix"
    assert state["prompt_text"] == said(app, real.state(), lang)
    assert ("Die 2: it is cocked" in state["prompt_text"]) == (lang == "en")
    stream = Stream(client, f"/api/events?lang={lang}")
    try:
        stream.next()  # retry
        event = stream.next_event()
        assert event["event"] == "state" and event["data"]["prompt_text"] == state["prompt_text"]
    finally:
        stream.close()


@pytest.mark.parametrize(("lang", "waiting", "wrong"), [
    ("en", "Throw into the tray: Brann's initiative needs a d6.", "A d8 is in the tray: Brann's initiative needs a d6."),
    ("pt_BR", None, None), ("es", None, None)])
def test_the_fights_tray_is_said_in_the_phones_language(app, reader, clock, lang, waiting, wrong):
    client = app.test_client()
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    state = client.post(f"/api/combat/tray?lang={lang}", json={"step": "initiative", "name": "Brann"}).get_json()
    assert state["tray"]["text"] == (waiting or state["tray"]["text"])
    assert (state["tray"]["text"].startswith("Throw into the tray")) == (lang == "en")
    app.extensions["dicelens.combat"].on_settled(reader.frame(numbered(7, "d8")), clock.tick())
    state = client.get(f"/api/combat?lang={lang}").get_json()
    assert state["tray"]["problem"]["text"] == "a d8 is in the tray: Brann's initiative needs a d6"
    assert state["tray"]["text"] == (wrong or state["tray"]["text"]) and "d8" in state["tray"]["text"]
    assert ("is in the tray" in state["tray"]["text"]) == (lang == "en")


@pytest.mark.parametrize(("lang", "joins", "initiative", "turn"), [
    ("en", "Brann joins the fight", "Initiative: Brann 5, Raider 4", "Round 1: Brann's turn"),
    ("pt_BR", "Brann entra na luta", "Iniciativa: Brann 5, Saqueador 4", "Rodada 1: vez de Brann"),
    ("es", "Brann se une al combate", "Iniciativa: Brann 5, Saqueador 4", "Ronda 1: turno de Brann"),
])
def test_the_fights_log_is_said_in_the_phones_language_from_its_templates(app, lang, joins, initiative, turn):
    client = app.test_client()
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    client.post("/api/combat/enemies", json={"sheet": "Saqueador"})
    state = client.post(f"/api/combat/initiative?lang={lang}", json={"values": {"Brann": 5, "Saqueador": 4}}).get_json()
    log = state["encounter"]["log"]
    assert [entry["text"] for entry in log] == ["Brann joins the fight", "Saqueador joins the fight",
                                                "initiative: Brann 5, Saqueador 4", "round 1: Brann's turn"]
    assert log[0]["template"] == "{name} joins the fight" and log[0]["values"] == {"name": "Brann"}
    assert [log[0]["shown"], log[2]["shown"], log[3]["shown"]] == [joins, initiative, turn]


def test_a_turn_effect_is_said_in_the_phones_language(app):
    client = app.test_client()
    client.post("/api/combat/heroes", json={"sheet": "Brann"})
    client.post("/api/combat/enemies", json={"sheet": "Saqueador"})
    fight = app.extensions["dicelens.combat"]
    fight.roll_initiative({"Brann": 5, "Saqueador": 4})
    fight.add_condition("Saqueador", {"name": "Paralizado"})
    fight.next_turn()
    state = client.get("/api/combat?lang=pt_BR").get_json()
    english = "Paralizado: Saqueador loses this turn (still rolls defence)"
    assert english in state["encounter"]["turn_effects"]
    shown = state["encounter"]["turn_effects_shown"][state["encounter"]["turn_effects"].index(english)]
    assert shown != english and "Saqueador" in shown and "Paralizado" in shown


@pytest.mark.parametrize(("lang", "pool", "free"), [("en", "pool 5 · difficulty 1", "Free roll"),
                                                    ("pt_BR", "parada 5 · dificuldade 1", None), ("es", None, None)])
def test_the_live_page_gets_its_state_and_preset_labels_worded(app, lang, pool, free):
    import json
    import re

    page = app.test_client().get(f"/?lang={lang}").get_data(as_text=True)
    initial = json.loads(re.search(r'<script id="initial" type="application/json">(.*?)</script>', page, re.S).group(1))
    labels = {p["name"]: p["label_text"] for p in initial["presets"]}
    assert labels["pool5"] == (pool or labels["pool5"]) and ("difficulty" in labels["pool5"]) == (lang == "en")
    assert labels["free"] == (free or labels["free"]) and (labels["free"] == "Free roll") == (lang == "en")
    assert labels["2d6"] == "2D6" and "prompt_text" in initial["state"]


@pytest.mark.parametrize(("problem", "english", "portuguese"), [
    (Problem("void", die=2, color="white", why="cocked", seen=3),
     "Die 2: it is cocked — throw all the dice of this throw again (3).", "Dado 2: "),
    (Problem("unmoved", seen=1, wanted=2), "1 of the voided throw's dice did not move: throw all 2 again.", "1 "),
    (Problem("leaning", die=2, color="white", why="cocked"), "Die 2 leans: enter its top face.", "O dado 2 está apoiado"),
    (Problem("new throw", asks="x", then=Problem("no principal")),
     "A new throw was read. No principal die found: tap the principal die.", None),
])
def test_the_cocked_die_policy_is_said_in_each_language(app, problem, english, portuguese):
    data = problem.to_dict()
    state = {"state": "prompting", "prompt": data["text"], "problem": data, "needs": None}
    assert said(app, state, "en") == english
    for lang in ("pt_BR", "es"):
        text = said(app, state, lang)
        assert text != english and text.startswith(portuguese if lang == "pt_BR" and portuguese else "")


@pytest.mark.parametrize(("problem", "english"), [
    (Problem("void", (("d20", 1),), why="cocked"), "The d20: it is cocked — throw all the dice of this step again."),
    (Problem("unmoved", (("die", 1),)), "1 of the voided throw's dice did not move: throw all the dice of this step again."),
    (Problem("leaning", (("d8", 1),), why="cocked", values=(None, 14), sides=(8, 20)), "The d8 leans: enter its top face."),
])
def test_the_fights_tray_under_the_cocked_die_policy_is_said_in_each_language(app, problem, english):
    from web.messages import tray_text

    tray = {"waiting": {"step": "attack", "throw": "attack", "dice": [8, 20]}, "problem": problem.to_dict()}
    texts = {}
    for lang in LANGS:
        with app.test_request_context(f"/?lang={lang}"):
            texts[lang] = tray_text(tray)
    assert texts["en"] == english and english not in (texts["pt_BR"], texts["es"])


#: Every problem a roll can meet (device/tray/match.py, device/roll/), for the roll's page.
ROLL_PROBLEMS = [
    Problem("too many", seen=15, wanted=2, label="2D6"),
    Problem("too many", seen=3, wanted=2, label="2D6"),
    Problem("too few", seen=1, wanted=3, label="pool 3 · difficulty 2"),
    Problem("moved", seen=4, moved=3, wanted=2),
    Problem("moved", seen=3, moved=2, wanted=1),
    Problem("no dice", asks="2D6: throw the dice"),
    Problem("not moved", asks="2D6: throw the dice", then=Problem("too few", seen=1, wanted=2, label="2D6")),
    Problem("no reading", why="camera gone", asks="2D6: throw the dice"),
    Problem("new throw", asks="2D6: throw the dice", then=Problem("no principal")),
    Problem("wrong dice", (("d8", 1),), kind="d10", asks="throw only d10s"),
    Problem("unmoved", seen=1, wanted=2),
    Problem("unreadable", die=1, color="red", why="blurred", asks="throw it again or correct it on the page"),
    Problem("void", die=1, color="red", why="cocked", seen=2),
    Problem("leaning", die=1, color="red", why="cocked"),
    Problem("no principal", why="no red die"),
    Problem("refused", why=Phrase("a pool of {pool} dice is an automatic failure: no dice are rolled", pool=0),
            asks="throw again, or correct it on the page"),
]


@pytest.mark.parametrize("problem", ROLL_PROBLEMS, ids=lambda problem: problem.code)
@pytest.mark.parametrize("lang", ("pt_BR", "es"))
def test_every_problem_of_a_roll_is_said_in_the_phones_language(app, problem, lang):
    """The prompt and the problem's text the API sends: none left in the device's English
    (they were for too many, too few and only some moved: trial 8)."""
    data = problem.to_dict()
    state = {"state": "armed", "label": "2D6", "prompt": data["text"], "problem": data, "needs": None}
    with app.test_request_context(f"/?lang={lang}"):
        shown = shown_state(state)
    english = said(app, state, "en")
    assert shown["prompt_text"] != english and shown["problem"]["text"] != data["text"]
    english_words = {"seen", "takes", "throw", "again", "moved", "tray", "needed", "camera", "gone", "reader", "red"}
    english_words |= {"dice"} if lang == "pt_BR" else set()  # es "dice": says
    assert not set(re.findall(r"[a-z]+", shown["prompt_text"])) & english_words, shown["prompt_text"]


@pytest.mark.parametrize(("problem", "lang", "text"), [
    (Problem("too many", seen=15, wanted=2, label="2D6"), "en",
     "15 dice seen, 2D6 takes 2: take 13 dice out and throw again."),
    (Problem("too many", seen=3, wanted=2, label="2D6"), "en", "3 dice seen, 2D6 takes 2: take 1 die out and throw again."),
    (Problem("too many", seen=15, wanted=2, label="2D6"), "pt_BR",
     "15 dados vistos, 2D6 usa 2: tire 13 dados e jogue de novo."),
    (Problem("too many", seen=3, wanted=2, label="2D6"), "es", "3 dados vistos, 2D6 usa 2: saca 1 dado y tira de nuevo."),
    (Problem("too few", seen=1, wanted=3, label="2D6"), "pt_BR", "1 dado visto, 2D6 usa 3: jogue os 3 de novo."),
    (Problem("moved", seen=3, moved=2, wanted=1), "es",
     "3 dados vistos, 2 de ellos se movieron; se necesita 1 dado: tira solo ese dado (o vacía la bandeja antes)."),
])
def test_too_many_or_too_few_dice_are_counted_with_their_plurals(app, problem, lang, text):
    data = problem.to_dict()
    state = {"state": "prompting", "prompt": data["text"], "problem": data, "needs": None}
    assert said(app, state, lang) == text


@pytest.mark.parametrize(("problem", "lang", "text"), [
    (Problem("moved", seen=3, moved=1, wanted=2), "pt_BR",
     "3 dados vistos, 1 deles se moveu; são necessários 2 dados: jogue só esses dados (ou esvazie a bandeja antes)."),
    (Problem("moved", seen=3, moved=2, wanted=1), "pt_BR",
     "3 dados vistos, 2 deles se moveram; é necessário 1 dado: jogue só esse dado (ou esvazie a bandeja antes)."),
    (Problem("moved", seen=3, moved=1, wanted=2), "es",
     "3 dados vistos, 1 de ellos se movió; se necesitan 2 dados: tira solo esos dados (o vacía la bandeja antes)."),
    (Problem("moved", seen=3, moved=1, wanted=2), "en",
     "3 dice seen, 1 of them moved; 2 dice needed: throw only those dice (or clear the tray first)."),
    (Problem("unmoved", seen=1, wanted=1), "pt_BR", "1 dos dados da jogada anulada não se moveu: jogue-o de novo."),
    (Problem("unmoved", seen=1, wanted=2), "es", "1 de los dados de la tirada anulada no se movió: tira los 2 de nuevo."),
    (Problem("unmoved", seen=2, wanted=2), "en", "2 of the voided throw's dice did not move: throw all 2 again."),
])
def test_each_count_of_a_sentence_has_its_own_plural(app, problem, lang, text):
    """Trial: a pt-BR page read "1 deles se moveram" (the verb followed the dice needed)."""
    data = problem.to_dict()
    state = {"state": "prompting", "prompt": data["text"], "problem": data, "needs": None}
    assert said(app, state, lang) == text


@pytest.mark.parametrize(("lang", "texts"), [
    ("pt_BR", ("Jogue mais um dado.", "Jogue mais 3 dados.", "Role de novo seus 10: mais 2 dados.")),
    ("es", ("Tira un dado más.", "Tira 3 dados más.", "Vuelve a tirar tus 10: 2 dados más.")),
])
def test_the_dice_the_rules_ask_for_are_counted_with_their_plurals(app, lang, texts):
    from web.messages import needs_text

    with app.test_request_context(f"/?lang={lang}"):
        assert (needs_text({"count": 1, "sides": 6, "kind": "D6"}), needs_text({"count": 3, "sides": 6, "kind": "D6"}),
                needs_text({"count": 2, "sides": 10, "kind": "d10"})) == texts


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("pt_BR", "Brann gasta 1 EC: resta 1", "Brann gasta 1 EC: restam 2"),
    ("es", "Brann gasta 1 EC: le queda 1", "Brann gasta 1 EC: le quedan 2"),
    ("en", "Brann spends 1 EC: 1 left", "Brann spends 1 EC: 2 left"),
])
def test_the_fights_log_counts_what_is_left_with_its_plural(app, lang, one, two):
    from web.messages import log_text

    entry = lambda left: {"text": "x", "template": "{name} spends {n} {energy}: {left} left",  # noqa: E731
                          "values": {"name": "Brann", "n": 1, "energy": "EC", "left": left}}
    with app.test_request_context(f"/?lang={lang}"):
        assert (log_text(entry(1)), log_text(entry(2))) == (one, two)


@pytest.mark.parametrize("tray", [
    {"waiting": {"step": "attack", "throw": "attack", "dice": [8, 20]},
     "problem": Problem("no reading", why="camera gone", asks="x").to_dict()},
    {"waiting": {"step": "attack", "throw": "attack", "dice": [8, 20]},
     "problem": Problem("unreadable", (("d8", 1),), why="glare", asks="x").to_dict()},
])
@pytest.mark.parametrize("lang", ("pt_BR", "es"))
def test_the_fights_tray_keeps_vision_s_english_out(app, tray, lang):
    """A reader's error and a reason vision gives that the page has no words for: said in the
    page's language ("the log says why", "it cannot be read"), never in vision's English."""
    from web.messages import tray_text

    with app.test_request_context(f"/?lang={lang}"):
        text = tray_text(tray)
    assert "camera gone" not in text and "glare" not in text and "cannot" not in text, text
    assert text.startswith(("Não foi possível ler a bandeja (a leitura falhou", "No se pudo leer la bandeja (falló",
                            "O d8: não dá para ler", "El d8: no se puede leer")), text


@pytest.mark.parametrize(("why", "lang", "cause"), [
    ("No space left on device", "pt_BR", "o disco está cheio"),
    ("database is locked", "es", "el historial está ocupado"),
    ("[Errno 5] something odd", "pt_BR", "o log diz por quê"),
])
def test_a_failed_save_says_its_cause_in_the_page_s_language(app, why, lang, cause):
    """The roll's prompt and a refusal's phrase: the disk's and SQLite's English are the
    page's words; a cause it has no words for is in the log."""
    failed = Phrase("the history could not be saved ({why}): nothing was changed; try again once that is fixed",
                    why=why)
    data = Problem("not saved", why=why, asks=failed).to_dict()
    state = {"state": "prompting", "prompt": data["text"], "problem": data, "needs": None}
    assert f"({cause})" in said(app, state, lang) and why not in said(app, state, lang)
    with app.test_request_context(f"/?lang={lang}"):
        refused = translated(failed)
    assert why not in refused or cause == "o log diz por quê"


@pytest.mark.parametrize(("lang", "counted"), [
    ("en", ("2 numbered d6", "3 percentile d10")),
    ("pt_BR", ("2 d6 numerados", "3 d10 percentuais")),
    ("es", ("2 d6 numerados", "3 d10 de percentil")),
])
def test_a_kind_of_dice_agrees_with_its_count(app, lang, counted):
    """Fresh-user trial: "2 d6 numerado" — the kind's words follow the count (ngettext)."""
    many, tens = counted
    problem = Problem("wrong dice", (("numbered d6", 2), ("percentile d10", 3)), kind="d10",
                      asks="throw only d10s").to_dict()
    state = {"state": "prompting", "prompt": problem["text"], "problem": problem, "needs": None}
    assert f": {many}, {tens}." in said(app, state, lang)
    tray = {"waiting": {"step": "attack", "throw": "attack", "dice": [8, 20]},
            "problem": {"code": "wrong dice", "dice": [{"name": "numbered d6", "count": 2}]}}
    with app.test_request_context(f"/?lang={lang}"):
        assert f"{many} " in tray_text(tray)
