"""The locale of a request: ?lang= → cookie → Accept-Language, among pt_BR, es and en."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask_babel import get_locale

from web.i18n import normalize, select_locale


@pytest.mark.parametrize(("code", "locale"), [
    ("pt-BR", "pt_BR"), ("pt_br", "pt_BR"), ("pt", "pt_BR"), ("ES", "es"), ("en", "en"),
    ("pt-PT", "pt_BR"), ("pt_AO", "pt_BR"), ("es-419", "es"), ("en-GB", "en"),
    ("fr", None), ("", None), (None, None), ("x" * 100, None),
])
def test_normalize(code, locale):
    assert normalize(code) == locale


@pytest.mark.parametrize(("headers", "query", "locale"), [
    ({"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}, "", "pt_BR"),
    ({"Accept-Language": "es-AR,es;q=0.8"}, "", "es"),
    ({"Accept-Language": "de-DE, fr;q=0.8"}, "", "en"),
    ({"Accept-Language": "pt-PT"}, "", "pt_BR"),  # no European catalogue: the Brazilian one, not English
    ({"Accept-Language": "es-MX"}, "", "es"),
    ({"Accept-Language": "de-DE, pt-PT;q=0.8, en;q=0.5"}, "", "pt_BR"),
    ({"Accept-Language": "en-US, pt-PT;q=0.8"}, "", "en"),
    ({}, "", "en"),
    ({"Accept-Language": "pt-BR"}, "lang=es", "es"),
    ({"Accept-Language": "es", "Cookie": "lang=pt_BR"}, "", "pt_BR"),
    ({"Cookie": "lang=pt_BR"}, "lang=en", "en"),
    ({"Accept-Language": "es", "Cookie": "lang=klingon"}, "lang=zz", "es"),
])
def test_select_locale(app, headers, query, locale):
    with app.test_request_context("/?" + query, headers=headers):
        assert select_locale() == locale
        assert str(get_locale()) == locale


def test_explicit_lang_is_remembered_in_a_cookie(client):
    response = client.get("/api/state?lang=pt-BR")
    assert "lang=pt_BR" in response.headers["Set-Cookie"]
    with client.application.test_request_context("/", headers={"Cookie": "lang=pt_BR"}):
        assert select_locale() == "pt_BR"
    assert "Set-Cookie" not in client.get("/api/state?lang=zz").headers


def test_template_context_names_the_locales(app):
    with app.test_request_context("/?lang=es"):
        context = {}
        for processor in app.template_context_processors[None]:
            context.update(processor())
        assert context["current_locale"] == "es" and context["html_lang"] == "es"
        assert ("pt_BR", "Português (Brasil)") in context["locales"]
        assert context["api"]["events"] == "/api/events"


@pytest.mark.parametrize(("headers", "query", "error"), [
    ({"Accept-Language": "pt-BR,pt;q=0.9"}, "", "rolagem desconhecida: 9d9"),
    ({"Accept-Language": "pt-BR"}, "?lang=es", "tirada desconocida: 9d9"),
    ({"Accept-Language": "en-GB"}, "", "unknown preset: 9d9"),
])
def test_api_errors_speak_the_players_language(client, headers, query, error):
    response = client.post("/api/arm" + query, json={"preset": "9d9"}, headers=headers)
    assert response.status_code == 400 and response.get_json()["error"] == error


def test_answers_vary_by_language(client):
    assert {"Accept-Language", "Cookie"} <= set(client.get("/api/state").vary)


@pytest.mark.parametrize(("roller", "lang", "error"), [
    ("x" * 41, "en", "roller must be at most 40 characters"),
    ("Lia\x00", "en", "roller must not hold control characters (tab, new line, NUL…)"),
    ("Lia\tBia", "pt-BR", "roller não pode conter caracteres de controle (tabulação, nova linha, NUL…)"),
    ("x" * 41, "es", "roller debe tener como máximo 40 caracteres"),
])
def test_a_bad_player_name_is_refused_with_what_is_wrong_with_it(client, roller, lang, error):
    response = client.post("/api/arm", json={"preset": "2d6", "roller": roller}, headers={"Accept-Language": lang})
    assert response.status_code == 400 and response.get_json()["error"] == error


#: European Portuguese forms a Brazilian player would not write (trial 8: "são precisos 2 dados").
EUROPEAN = ("precisos", "preciso ", "ecrã", "telemóvel", "registo", "utilizador", "ficheiro", "guardad",
            "teria de ", "tem de ", "têm de ", "definições", "partilh", "descarreg", "introduza", "carregue")


def test_the_brazilian_catalogue_has_no_european_portuguese():
    path = Path(__file__).resolve().parents[2] / "web/translations/pt_BR/LC_MESSAGES/messages.po"
    with path.open("rb") as po:
        catalog = read_po(po)
    found = [(form, text) for message in catalog if message.id
             for text in ([message.string] if isinstance(message.string, str) else message.string)
             for form in EUROPEAN if form in text.lower()]
    assert found == []
