"""The Spanish catalogue speaks to the player as tú, as the rest of it does ("tira los dados",
"añade", "corrígelo"): no vosotros form (the trial of 2026-12-03 read "luego tirad
iniciativa" on /combat)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import web

CATALOGUE = Path(web.__file__).parent / "translations" / "es" / "LC_MESSAGES" / "messages.po"
#: vosotros: the imperatives of the verbs the page uses (tirad, añadidlos…), the possessive, the
#: pronoun and the present tense's -áis/-éis ("tiráis", "tenéis").
VOSOTROS = re.compile(r"\b((tir|lanz|elig|añad|puls|toc|introduc|corrig|quit|volv|pon|sac|esper|abr|us|escrib|comprob"
                      r"|mir|jug|dej|tom|prepar|empez|termin|cambi|ajust|borr|guard|conect|apunt|mov|agit)[aei]d"
                      r"(l[oa]s?|me)?|vuestr[oa]s?|vosotr[oa]s|os|\w+[áé]is)\b", re.IGNORECASE)

PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)\w")


def vosotros_forms() -> list[str]:
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    found = []
    for message in catalogue:
        for text in [message.string] if isinstance(message.string, str) else message.string:
            words = PLACEHOLDER.sub("", text or "")  # {moved}, %(num)d: the code's names, not Spanish
            found += [f"{match.group(0)!r} in {text!r}" for match in VOSOTROS.finditer(words)]
    return found


def test_the_spanish_catalogue_says_tu_never_vosotros():
    assert vosotros_forms() == []


def test_the_check_finds_a_vosotros_imperative():
    assert VOSOTROS.search("luego tirad iniciativa") and VOSOTROS.search("añadidlos") and not VOSOTROS.search(
        "tira la iniciativa: añade héroes y enemigos")
