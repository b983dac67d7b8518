"""The refusals device/ and rules/ word as phrases (rules/phrase.py) reach the page translated.

Through the API: tests/web/test_real_controller.py, test_combat_api.py, test_principal_api.py.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from rules.phrase import Phrase
from web.messages import note_text, reason, translated

ROOT = Path(__file__).resolve().parents[2]


def phrase_templates() -> set[str]:
    """Every template written as ``Phrase("…")`` or ``Phrase.ngettext("…", "…", n)`` (its
    singular) in device/ and rules/, as pybabel extracts them."""
    found = set()
    for part in ("device", "rules"):
        for _, _, message, _, _ in extract_from_dir(ROOT / part, keywords={"Phrase": None, "ngettext": (1, 2)}):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_the_phrases_are_found():
    templates = phrase_templates()
    assert {"roll initiative first", "die {n} is already the principal die: nothing to change"} <= templates
    assert len(templates) > 30


@pytest.mark.parametrize("locale", ["pt_BR", "es"])
@pytest.mark.slow
def test_every_phrase_is_translated_with_the_same_fields(locale):
    with open(ROOT / "web" / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po)
    forms = lambda t: (lambda s: s if isinstance(s, tuple) else (s,))(catalog.get(t).string)  # noqa: E731
    missing = [t for t in sorted(phrase_templates()) if not (catalog.get(t) and all(forms(t)))]
    assert missing == []
    fields = lambda text: sorted(part.split("}")[0] for part in text.split("{")[1:])  # noqa: E731
    assert [t for t in phrase_templates() if any(fields(form) != fields(t) for form in forms(t))] == []


def test_a_phrase_and_the_phrases_in_it_are_translated(app):
    faces = Phrase("0 to 10 (0 is 10)")
    with app.test_request_context("/", headers={"Accept-Language": "pt-BR"}):
        assert translated(Phrase("each die must show {faces}", faces=faces)) == "cada dado deve mostrar 0 a 10 (0 é 10)"
        assert reason(ValueError(Phrase("die {n} is already the principal die: nothing to change", n=2))) \
            == "o dado 2 já é o dado principal: nada a mudar"
        assert reason(ValueError("not a phrase")) == "not a phrase"
        assert reason(KeyError("no fighter called 'Ana'")) == "no fighter called 'Ana'"


def test_a_phrase_with_a_count_keeps_both_forms_through_a_copy_a_pickle_and_its_dict():
    one = Phrase.ngettext("{n} die still missing", "{n} dice still missing", 1, n=1)
    two = Phrase.ngettext("{n} die still missing", "{n} dice still missing", 2, n=2)
    assert (one, two) == ("1 die still missing", "2 dice still missing")
    assert two.to_dict() == {"template": "{n} die still missing", "plural": "{n} dice still missing", "count": 2,
                             "values": {"n": 2}}
    nested = Phrase("abandoned: {why}", why=two)
    for again in (copy.deepcopy(nested), pickle.loads(pickle.dumps(nested)), Phrase.from_dict(nested.to_dict())):
        assert again == nested and again.values["why"].plural == "{n} dice still missing"
        assert again.values["why"].number == 2


@pytest.mark.parametrize(("lang", "one", "two"), [("pt_BR", "ainda falta 1 dado", "ainda faltam 2 dados"),
                                                  ("es", "todavía falta 1 dado", "todavía faltan 2 dados")])
def test_a_phrase_with_a_count_is_said_with_the_languages_plural(app, lang, one, two):
    with app.test_request_context(f"/?lang={lang}"):
        assert [translated(Phrase.ngettext("{n} die still missing", "{n} dice still missing", n, n=n))
                for n in (1, 2)] == [one, two]


@pytest.mark.parametrize("kept", [{"template": "1 die still missing", "values": {}},
                                  {"template": "{n} dice still missing", "values": {"n": 3}}])
def test_a_note_a_roll_kept_before_phrases_had_plurals_is_still_said(app, kept):
    """A roll's note is kept as its phrase's dict: the ones kept before Phrase.ngettext keep
    their translations (web.messages.KEPT_TEMPLATES)."""
    note = Phrase.from_dict({"template": "it still waits for dice: {waiting}", "values": {"waiting": kept}})
    with app.test_request_context("/?lang=pt_BR"):
        assert note_text(note).startswith("ainda espera dados: ainda falta")
