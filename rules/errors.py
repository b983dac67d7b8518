"""Errors of the rules: one base class, concrete errors also inherit a builtin."""


class RulesError(Exception):
    """Base class of every error raised by ``rules``."""


class InvalidRoll(RulesError, ValueError):
    """A roll that cannot be resolved: a face its die does not have, no dice, an unknown kind."""


class InvalidStep(RulesError, ValueError):
    """A step an encounter cannot take: an unknown participant, a fighter who cannot act, nothing to undo."""


class NotNow(InvalidStep):
    """A step the fight's state does not allow now (the fight is over, another fighter's
    turn, an attack under way): the web answers it 409, as every refusal of the state."""
