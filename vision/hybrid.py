"""A second look at the hand-tuned reader's dice by the learned pip classifier.

The hand-tuned reader (vision/tray.py) reports many dice "ambiguous pips" and some
phantoms; the learned crop classifier (vision/pips_learned.py) is rarely wrong when it is
sure. So, for each die the hand-tuned reader found:

- the classifier finds no die in its crop (background at least :data:`NOT_A_DIE`): the
  die is dropped (a phantom: a pip-like mark, a side face);
- it was "ambiguous pips" and the classifier is sure of a value (at least
  :data:`VALUE_MIN`): that value is taken.

Both thresholds were chosen on out-of-fold predictions: each photo's crops classified by
the network of ``tools/train_pips.py --leave-out K`` that never saw that photo
(``benchmarks/vision_real_dice.py --folds``).
"""

from __future__ import annotations

import numpy as np

from vision.pips_learned import PipReader, crop_die
from vision.reading import DieReading

VALUE_MIN = 0.8  # classifier's value probability (given a die) to settle an ambiguous die (+3 wrong of 1654)
NOT_A_DIE = 0.5  # classifier's background probability to drop a die: it is likelier no die than a die


_SHIPPED = PipReader()  # the networks in vision/models, loaded on first use


def second_look(image: np.ndarray, dice: list[DieReading], reader: PipReader | None = None) -> list[DieReading]:
    """The dice of ``image`` (H×W×3 uint8 BGR) after the learned classifier's look.

    :param dice: the hand-tuned reader's dice (``box`` pixels [x0, y0, x1, y1] of the
        body, ``center`` the top face); dice "cut off" are kept as they are.
    :param reader: the networks to ask (only the classifier is run); None for the shipped ones.
    :returns: the dice kept, in their order; a settled die gets the classifier's value
        and its probability as ``confidence`` (changed in place).
    """
    looked = [d for d in dice if d.unreadable != "cut off"]
    if not looked:
        return dice
    crops = np.stack([crop_die(image, d.center, max(d.box[2] - d.box[0], d.box[3] - d.box[1])) for d in looked])
    dropped = set()
    for die, p in zip(looked, (reader or _SHIPPED).classify(crops)):
        if p[0] >= NOT_A_DIE:
            dropped.add(id(die))
            continue
        values = p[1:] / (1.0 - p[0])
        v = int(np.argmax(values))
        if die.unreadable == "ambiguous pips" and values[v] >= VALUE_MIN:
            die.value, die.unreadable, die.confidence = v + 1, None, float(values[v])
    return [d for d in dice if id(d) not in dropped]
