"""What the table does with a cocked die: RULES T-5, the cocked-die policy (and T-1).

Whatever the policy, no die is read from the pips of two faces (T-1): the readers report a
cocked die with no value. The policy decides what the prompt asks for then, on a roll
(``device/controller.py``) and on a fight's tray step (``device/combat/tray.py``) alike:

* ``rethrow_die`` (the default): throw that die again.
* ``rethrow_set``: the cocked die voids the whole throw of its step: all of that step's
  dice are thrown again, and none of the voided throw's dice counts unless it moved.
* ``accept_leaning``: the die stays; the table enters its top face by hand (kept as a
  correction: who, when). The readers do not read a leaning die: they cannot tell one
  leaning on the tray wall with a plain top face from one cocked on another die.
"""

from __future__ import annotations

from rules.phrase import Phrase

POLICIES = ("rethrow_die", "rethrow_set", "accept_leaning")
DEFAULT = "rethrow_die"


def check_policy(policy: object, key: str = "cocked_dice") -> str:
    """``policy`` when it is one of :data:`POLICIES`.

    :raises ValueError: naming ``key`` and the three values.
    """
    if policy not in POLICIES:
        raise ValueError(Phrase("{key} must be one of {policies} (got {got})",
                                key=key, policies=", ".join(POLICIES), got=repr(policy)))
    return policy
