"""The device's and the rules' refusals, in the request's language.

``device/`` and ``rules/`` word their refusals in English (they do not import ``web``); the
ones a player can meet are :class:`rules.phrase.Phrase` objects, whose templates ``pybabel
extract -k Phrase`` puts in the catalogues. :func:`reason` translates the template and fills
in the values; any other refusal is passed on in English.
"""

from __future__ import annotations

from flask_babel import gettext

from rules.phrase import Phrase


def translated(message: object) -> str:
    """``message`` in the request's language when it is a :class:`Phrase` (its values too,
    where they are phrases), else ``str(message)``."""
    if not isinstance(message, Phrase):
        return str(message)
    values = {key: translated(value) if isinstance(value, Phrase) else value for key, value in message.values.items()}
    return gettext(message.template).format(**values)


def reason(error: BaseException) -> str:
    """What a refusal says, in the request's language: its first argument (a KeyError's
    ``str()`` would be the repr of its key), translated when it is a :class:`Phrase`."""
    return translated(error.args[0]) if error.args else type(error).__name__
