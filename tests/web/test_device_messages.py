"""The device's fixed refusals (web/device_messages.py) are theirs word for word, and translated.

That they reach the page translated: tests/web/test_real_controller.py, test_combat_api.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from web.device_messages import SENTENCES

ROOT = Path(__file__).resolve().parents[2]


def test_each_sentence_is_word_for_word_a_refusal_of_the_device_or_the_rules():
    sources = "".join(path.read_text() for part in ("device", "rules") for path in (ROOT / part).glob("*.py"))
    assert [s for s in sorted(SENTENCES) if f'"{s}"' not in sources] == []


@pytest.mark.parametrize("locale", ["pt_BR", "es"])
def test_each_sentence_is_translated(locale):
    with open(ROOT / "web" / "translations" / locale / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po)
    assert [s for s in sorted(SENTENCES) if not (catalog.get(s) and catalog.get(s).string)] == []
