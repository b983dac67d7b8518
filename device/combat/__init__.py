"""The table's Destiny Dice fight (RULES.md §3): :class:`CombatSession` (``session.py``),
set up from the :class:`Roster` of ``[combat]`` (``roster.py``)."""

from device.combat.roster import Roster, participant_from_template, roster_from_config
from device.combat.session import CombatSession

__all__ = ["CombatSession", "Roster", "participant_from_template", "roster_from_config"]
