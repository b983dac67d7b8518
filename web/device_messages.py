"""The device's fixed refusals, in the request's language.

``device/`` words its refusals in English (it does not import ``web``). The ones that
are whole fixed sentences are listed here, marked with :func:`N_` so that ``pybabel
extract`` finds them, and :func:`translated` gives them in the request's language. A
refusal with values in it (a die's number, a fighter's name) is passed on in English.
"""

from __future__ import annotations

from flask_babel import gettext


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; it is translated later, by :func:`translated`."""
    return message


#: device/controller.py, device/combat.py and rules/encounter.py, word for word.
SENTENCES: frozenset[str] = frozenset({
    N_("no roll armed: choose a preset first"),
    N_("this camera cannot throw: throw the dice into the tray"),
    N_("no camera to read from"),
    N_("no dice given"),
    N_("only a six-sided roll has a principal die"),
    N_("the principal die is one of the first throw"),
    N_("only heroes are saved; enemies come from the bestiary"),
    N_("roll initiative first"),
    N_("the fight is over"),
    N_("no attack is being resolved: start one first"),
    N_("no attack is being resolved"),
    N_("initiative was rolled: the fight has started"),
    N_("nothing to undo: only the last step can be undone, once"),
    N_("initiative is already rolled: end the scene to start another fight"),
    N_("a fight needs at least one hero and one enemy"),
    N_("give every participant of the order once, and no one else"),
    N_("no poison die is awaited"),
    N_("only a complete attack can be applied: throw the dice it still needs"),
})


def translated(message: str) -> str:
    """``message`` in the request's language when it is one of :data:`SENTENCES`, else as it is."""
    return gettext(message) if message in SENTENCES else message
