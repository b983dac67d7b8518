"""The refusals device/ and rules/ word as phrases (rules/phrase.py) reach the page translated.

Through the API: tests/web/test_real_controller.py, test_combat_api.py, test_principal_api.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from rules.phrase import Phrase
from web.messages import reason, translated

ROOT = Path(__file__).resolve().parents[2]


def phrase_templates() -> set[str]:
    """Every template written as ``Phrase("…")`` in device/ and rules/, as pybabel extracts them."""
    found = set()
    for part in ("device", "rules"):
        for _, _, message, _, _ in extract_from_dir(ROOT / part, keywords={"Phrase": None}):
            found.add(message)
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
    missing = [t for t in sorted(phrase_templates()) if not (catalog.get(t) and catalog.get(t).string)]
    assert missing == []
    fields = lambda text: sorted(part.split("}")[0] for part in text.split("{")[1:])  # noqa: E731
    assert [t for t in phrase_templates() if fields(catalog.get(t).string) != fields(t)] == []


def test_a_phrase_and_the_phrases_in_it_are_translated(app):
    faces = Phrase("0 to 10 (0 is 10)")
    with app.test_request_context("/", headers={"Accept-Language": "pt-BR"}):
        assert translated(Phrase("each die must show {faces}", faces=faces)) == "cada dado deve mostrar 0 a 10 (0 é 10)"
        assert reason(ValueError(Phrase("die {n} is already the principal die: nothing to change", n=2))) \
            == "o dado 2 já é o dado principal: nada a mudar"
        assert reason(ValueError("not a phrase")) == "not a phrase"
        assert reason(KeyError("no fighter called 'Ana'")) == "no fighter called 'Ana'"
