"""The tray's default readers: :func:`vision.read_dice`, narrowed to the kinds a step asks for.

Every step's :class:`~device.tray.match.Wanted` names its ``reader``; :data:`KINDS` is what
that reader reports, the one place a step's kinds are chosen (the roll's presets, the pool
and the fight's steps). The dispatcher's ``readers`` stay injectable (fakes in the tests).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from device.tray.dispatch import Reader
from vision.reading import TrayReading

if TYPE_CHECKING:
    from vision.adaptation import Adaptation

#: The kinds (``vision.numerals.KINDS``) each ``Wanted.reader`` reads; None: every kind.
#: A pip preset reads pip d6 alone (only the pip reader runs, as before read_dice). A
#: numbered step (the pool's d10s, a fight's dice by sides) reads every kind, because
#: :func:`~device.tray.match.match` names a die of another kind rather than missing it
#: ("a d8 is in the tray: throw only d10s": the problem "wrong dice").
KINDS: Mapping[str, frozenset[str] | None] = {"pips": frozenset({"d6-pips"}), "numbered": None}


def reader(name: str) -> Reader:
    """The default reader of steps whose ``Wanted.reader`` is ``name`` (``"pips"`` or
    ``"numbered"``): ``(image BGR H×W×3 uint8, principal_color) -> TrayReading`` by
    ``vision.read_dice`` with that reader's :data:`KINDS` (vision imported when first read).

    :raises KeyError: ``name`` is not a reader of :data:`KINDS`.
    """
    narrowed = KINDS[name]

    def read(image: np.ndarray, principal_color: str | None) -> TrayReading:
        import vision
        return vision.read_dice(image, kinds=narrowed, principal_color=principal_color)
    return read


def adapted(family: str, shipped: Reader, adaptation_for: Callable[[str], Adaptation | None]) -> Reader:
    """``shipped``, or the table's adaptation of ``family`` (``"pips"``, ``"numbered"``) when
    ``adaptation_for(family)`` gives one (:meth:`device.adapting.Refitter.adaptation_for`:
    only when it reads the table's held-out examples better); asked at each reading, so a
    fit in the background takes effect at the next throw. Its pip dice are named as
    :func:`vision.read_dice` names them (``d6-pips``). The layer reads only the kinds it was
    taught, so a numbered reading keeps the shipped reader's dice of the other kinds where
    no taught die lies (a d8 among a pool's d10s is still named, a fight's d20 still read)."""

    def read(image: np.ndarray, principal_color: str | None) -> TrayReading:
        adaptation = adaptation_for(family)
        if adaptation is None:
            return shipped(image, principal_color)
        from vision import adapt
        from vision.dice import as_pips
        reading = adapt.read(image, adaptation, principal_color=principal_color)
        dice = [die if hasattr(die, "kind") else as_pips(die) for die in reading.dice]
        if family == "numbered":
            dice += [other for other in shipped(image, principal_color).dice
                     if getattr(other, "kind", None) not in adaptation.kinds
                     and not any(d.box[0] <= other.center[0] <= d.box[2] and d.box[1] <= other.center[1] <= d.box[3]
                                 for d in dice)]
        return dataclasses.replace(reading, dice=dice)
    return read
