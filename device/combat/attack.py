"""The attack being thrown, as the fight's file keeps it: ``{"spec": AttackSpec.to_dict(),
"attack": [values], "defence": [values], "damage": [values], "sources"?: {throw: "camera"
| "hand" | "corrected"}}``, resolved by ``rules.destiny.resolve_attack`` (RULES DD-4 … DD-8)
after each throw or correction. Pure functions: the session keeps the record and its undo."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rules.destiny import AttackNeeds, AttackOutcome, resolve_attack
from rules.destiny_spec import AttackSpec
from rules.errors import InvalidStep
from rules.phrase import Phrase

THROWS = ("attack", "defence", "damage")
#: The throws of an attack, as refusals name them (translated with them: rules.phrase).
_THROW_WORDS = {"attack": Phrase("attack"), "defence": Phrase("defence"), "damage": Phrase("damage")}


def new(spec: AttackSpec) -> dict:
    """The record of an attack no die of which is thrown yet."""
    return {"spec": spec.to_dict(), "attack": [], "defence": [], "damage": []}


def outcome(attack: Mapping) -> AttackOutcome:
    """The attack resolved from its dice so far.

    :raises InvalidRoll: (ValueError) for a face a die does not have.
    """
    return resolve_attack(AttackSpec.from_dict(attack["spec"]), attack["attack"], attack["defence"],
                          attack["damage"])


def needs(attack: Mapping) -> AttackNeeds:
    """The throw the attack asks for now (one under way always asks for one: a complete
    attack is applied and its record dropped)."""
    return cast(AttackNeeds, outcome(attack).needs)


def stage(attack: Mapping | None) -> tuple[int, int, int] | None:
    """How many dice of each throw are in: a new throw is a new stage (None: no attack)."""
    return None if attack is None else (len(attack["attack"]), len(attack["defence"]), len(attack["damage"]))


def throw_asked(attack: Mapping) -> str:
    """Which throw the attack asks for now: ``"attack"``, ``"defence"`` or ``"damage"``."""
    asked = needs(attack)
    if attack["defence"] and asked.who == "attacker":
        return "damage"
    return "defence" if asked.who == "defender" else "attack"


def thrown(attack: Mapping, values: Sequence[int], source: str) -> dict:
    """The attack with the dice of the throw it asks for now, in the order of ``needs.dice``.

    :raises InvalidStep: for the wrong number of dice.
    """
    asked = needs(attack)
    values = list(values)
    if len(values) != len(asked.dice):
        raise InvalidStep(Phrase("{what}: {n} dice, not {given}", what=asked.reason, n=len(asked.dice),
                                 given=len(values)))
    # The outcome asks for the attacker's throw, then the defender's, then damage.
    key = next(key for key, full in (("attack", 2), ("defence", 2), ("damage", 1)) if len(attack[key]) < full)
    return {**attack, key: attack[key] + values, "sources": {**attack.get("sources", {}), key: source}}


def corrected(attack: Mapping, throw: str, index: int, value: int) -> dict:
    """The attack with die ``index`` of ``throw`` showing ``value`` (RULES T-1: a misread die).

    :param throw: one of :data:`THROWS`.
    :raises InvalidStep: no such die, or the die already shows ``value``.
    """
    dice = attack[throw]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(dice):
        raise InvalidStep(Phrase("no die {n} in the {throw} throw", n=index + 1 if isinstance(index, int) else index,
                                 throw=_THROW_WORDS.get(throw, throw)))
    # A correction that changes nothing would only rewrite the record; dice counted from 1 as on the page.
    if dice[index] == value:
        raise InvalidStep(Phrase("die {n} of the {throw} throw already shows {value}: nothing to correct",
                                 n=index + 1, throw=_THROW_WORDS[throw], value=value))
    return {**attack, throw: dice[:index] + [value] + dice[index + 1:],
            "sources": {**attack.get("sources", {}), throw: "corrected"}}


def done(attack: Mapping, result: AttackOutcome) -> dict:
    """The record of a complete attack applied to the fight: its outcome, sources and throws."""
    return {**result.to_dict(), "sources": dict(attack.get("sources", {})),
            "throws": {key: list(attack[key]) for key in THROWS}}


def reopened(last: Mapping) -> dict:
    """The attack of a record :func:`done` made, to be corrected and resolved again."""
    return {"spec": last["spec"], **last["throws"], "sources": dict(last["sources"])}
