"""The table's own dice (issue 17): a small layer fitted, with numpy only, on top of the shipped
networks from labelled photos of one table, and the reader that uses it.

What is fitted (:func:`fit`), each part chosen on the table's photos held out by photo:

- the scale: the side the table's dice have in its photos (as a share of the photo's long
  side), so the detector reads them at the size it learned (:mod:`vision.scale`), in one pass;
  or the shipped reader's own passes, when they do better;
- the side the candidates are cropped at: the detector's, or the table's labelled die side
  (tried where it puts many more candidates on the taught dice, or where the detector sizes
  the dice it finds much larger than labelled: a detector that never saw the table's dice
  sizes them wrong, its crops a part of the die or the die amid the floor);
- the detector's threshold: candidates down to :data:`LOW_HEAT` are looked at;
- two heads (:class:`Head`, logistic regressions whose logits start at the shipped
  classifier's and are held to them by a ridge penalty): die or floor, over the candidate's
  heat, size and look; and its value, over the classifier's log probabilities, the
  rotation-invariant ring harmonics and the pip counts of the crop, fitted only for the values
  taught, so a value the table never showed is read as the network reads it;
- whether a die reaching past the photo's edge is "cut off" (not for a camera framing one die);
- the value threshold below which a die is unreadable.

The layer is used only when, held out by photo, it reads the table's dice better than the
shipped reader (:data:`MARGIN` dice more right, and more ``right − WRONG_COST × wrong −
phantoms``) and finds as many; or, as its die head alone (the values read as the shipped
reader reads them), when that finds :data:`MARGIN` more of the labelled dice, reads some
right and their values no worse, and is worth more than the whole layer (:func:`_worth`); an empty or
bad example set gives an :class:`Adaptation` that is not used, and reading with it is reading
with the shipped networks. It is saved as JSON (:data:`FILE`, :data:`VERSION`) and tied to the
networks it was fitted on: other networks leave it unused until it is fitted again (the server
refits it from the kept examples at start: :class:`device.adapting.Refitter`).

Its parts: :mod:`vision.adapt_examples` (the labelled dice), :mod:`vision.adapt_backend` (the
shipped readers), :mod:`vision.adapt_features` (what the heads see of a candidate),
:mod:`vision.adapt_head` (the heads and their fit), :mod:`vision.adaptation` (the saved layer and
its figures); this module fits the layer and reads with it, and re-exports the parts' names.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision import network, numerals, tray
from vision.adapt_backend import LOW_HEAT, Backend, Candidate, NumberedBackend, PipBackend, backend_for, family_of
from vision.adapt_examples import KIND_OF_LABEL, Example, ExampleError, TaughtPhoto, example
from vision.adapt_features import _look, _Looked, _sized
from vision.adapt_head import Head, fit_head
from vision.adaptation import FILE, MARGIN, VERSION, WRONG_COST, Adaptation, Figures, load
from vision.colors import name_dice_colors
from vision.image import MIN_SIDE, as_bgr
from vision.principal import mark_principal
from vision.reading import DieReading, TrayReading
from vision.scoring import score_photo

__all__ = ["KIND_OF_LABEL", "Example", "ExampleError", "TaughtPhoto", "example", "Backend",
           "Candidate", "NumberedBackend", "PipBackend", "backend_for", "family_of", "LOW_HEAT",
           "Head", "fit_head", "FILE", "VERSION", "WRONG_COST", "Adaptation", "Figures", "load",
           "fit", "read"]

HEATS = (0.1, 0.2, 0.3, 0.45)  # detector thresholds tried held out
VALUE_MINS = (0.0, 0.3, 0.5, 0.6, 0.8, 0.9)  # value thresholds tried held out
FOLDS = 5  # photo folds of the held-out figure (fewer photos: one fold each)
SIZED_MORE = 0.1  # of the dice taught: cropped at their side, this many more must lie on a candidate
MISSIZED = 1.25  # or the detector sizes them more than this many times their labelled side
PART = 0.5  # of a labelled die's side: a candidate smaller than this on it is a part of it (a pip)


def _expected_side(side: float | None, image: NDArray[Any], backend: Backend) -> float:
    """The die's side (photo pixels) the layer expects: ``side`` of the photo's long side, or
    (None) the side the shipped reader's first pass reads best."""
    h, w = image.shape[:2]
    return backend.learned_side / backend.base_scale(w, h) if side is None else side * max(h, w)


def _reach(image: NDArray[Any], candidate: Candidate) -> float:
    """How far (a share of its side) a candidate die reaches past the photo's edge."""
    h, w = image.shape[:2]
    x, y, side, _ = candidate
    half = side / 2
    return float(max(-(x - half), -(y - half), x + half - w, y + half - h) / max(side, 1e-9))


def _readings(backend: Backend, image: NDArray[Any], looked: _Looked, probs: tuple[NDArray[Any], NDArray[Any]],
              heat: float, value_min: float, kinds: Sequence[str], cut_off: bool = True) -> list[DieReading]:
    """The dice of ``looked`` at thresholds ``heat`` and ``value_min``; ``probs`` the head's
    (:meth:`Head.probs`) of its candidates."""
    return _at_heat(_dice_of(backend, image, looked, probs, value_min, kinds, cut_off), heat)


def _dice_of(backend: Backend, image: NDArray[Any], looked: _Looked, probs: tuple[NDArray[Any], NDArray[Any]],
             value_min: float, kinds: Sequence[str], cut_off: bool = True) -> list[tuple[float, DieReading]]:
    """Each candidate of ``looked`` the die head takes for a die, as a reading at ``value_min``,
    with its heat: what :func:`_at_heat` reads at any detector threshold (the fit's held-out
    figures try four of them on the same candidates)."""
    if not looked.found:
        return []
    die_p, value_p = probs
    h, w = image.shape[:2]
    out: list[tuple[float, DieReading]] = []
    for (x, y, side, peak), p_die, of_classes in zip(looked.found, die_p, value_p, strict=True):
        if p_die < 0.5:
            continue
        c = int(np.argmax(of_classes))
        kind, value = backend.classes[c + 1]
        confidence = float(of_classes[c])
        half = side / 2
        box = (max(0, round(x - half)), max(0, round(y - half)), min(w, round(x + half)), min(h, round(y + half)))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        unreadable = None
        if cut_off and _reach(image, (x, y, side, peak)) > tray.CUT_OFF:
            unreadable = "cut off"
        elif kind not in kinds and (kind in numerals.FACE_KINDS or kind in numerals.CHECKED_KINDS):
            # untaught: read as the reader alone does, the head's values of that kind for the classifier's
            of_kind = [i for i, (k, _) in enumerate(backend.classes[1:]) if k == kind]
            told, confidence = numerals.value_of(kind, of_classes[of_kind] / of_classes[of_kind].sum(),
                                                 partial(numerals.face_odds_of, image, (x, y), side, kind))
            if told is None:
                unreadable = "ambiguous numeral"
            else:
                value = told
        elif confidence < value_min:
            unreadable = "ambiguous pips" if kind == "d6-pips" else "ambiguous numeral"
        v = None if unreadable else value
        if backend.family == "pips":
            out.append((peak, DieReading(value=v, sides=6, box=box, center=(float(x), float(y)), color="white",
                                         confidence=confidence, unreadable=unreadable)))
        else:
            out.append((peak, numerals.NumberedReading(value=v, sides=numerals.SIDES[kind], box=box,
                                                       center=(float(x), float(y)), color="white",
                                                       confidence=confidence, unreadable=unreadable, kind=kind,
                                                       face=numerals.face_symbol(kind, v))))
    return out


def _at_heat(dice: Sequence[tuple[float, DieReading]], heat: float) -> list[DieReading]:
    """The dice of :func:`_dice_of` at detector threshold ``heat``, without parts of others."""
    return _without_parts([die for peak, die in dice if peak >= heat])


def _add_unsure(figures: Sequence[Figures], value_mins: Sequence[float], dice: Sequence[DieReading],
                labels: Sequence[Example], pairs: Sequence[tuple[int | None, int | None]], partial: bool) -> None:
    """Count ``dice`` against ``labels`` (:meth:`Figures.add`) into ``figures[n]`` as read at
    value threshold ``value_mins[n]`` (a die of ``dice``, read at 0, unreadable below it), each
    die judged once for all (the fit's held-out figures try six value thresholds)."""
    for i, j in pairs:
        if j is None:
            for f in figures:
                f.phantom += not partial
        elif i is None:
            for f in figures:
                f.missed += 1
        else:
            die = dice[i]
            right = die.value == labels[j].value and getattr(die, "kind", "d6-pips") == labels[j].kind
            for f, v in zip(figures, value_mins, strict=True):
                if die.value is None or die.confidence < v:
                    f.unread += 1
                elif right:
                    f.right += 1
                else:
                    f.wrong += 1
    for f in figures:
        f.dice += len(labels)


def _without_parts(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` without those whose centre lies on a die read :data:`PART` or more times larger:
    its pips, or the numeral of its face, seen as a die."""
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice]
    kept: list[int] = []
    for i in sorted(range(len(dice)), key=lambda i: -sides[i]):
        x, y = dice[i].center
        if not any(sides[i] <= PART * sides[k] and dice[k].box[0] <= x <= dice[k].box[2]
                   and dice[k].box[1] <= y <= dice[k].box[3] for k in kept):
            kept.append(i)
    return [dice[i] for i in sorted(kept)]


def _targets(backend: Backend, looked: _Looked, labels: Sequence[Example]) -> NDArray[Any]:
    """Each candidate's class: the labelled die it matches (:func:`vision.scoring.score_photo`), else
    background (a new array; matched once per ``looked`` and ``labels``)."""
    known = looked.targets.get(id(labels))
    if known is not None and known[0] is labels:
        return known[1].copy()
    targets = np.zeros(len(looked.found), int)
    looked.targets[id(labels)] = (labels, targets)
    if not looked.found or not labels:
        return targets.copy()
    probes = [DieReading(value=None, sides=6, box=(round(x - s / 2), round(y - s / 2), round(x + s / 2),
                                                   round(y + s / 2)), center=(x, y), color="", confidence=0.0)
              for x, y, s, _ in looked.found]
    _, pairs = score_photo(probes, [{"box": list(e.box), "value": e.value} for e in labels])
    index = {cls: k for k, cls in enumerate(backend.classes)}
    for i, j in pairs:
        if i is None or j is None:
            continue
        label = labels[j]
        # a candidate much smaller than the die it lies on is one of its pips, not the die
        if looked.found[i][2] >= PART * max(label.box[2] - label.box[0], label.box[3] - label.box[1]):
            targets[i] = index[(label.kind, label.value)]
    return targets.copy()


def _unlabelled_dice(looked: _Looked, labels: Sequence[Example]) -> NDArray[Any]:
    """Which candidates of a partial photo (not every die labelled) are left out of the floor
    examples: those near no labelled die (their box meets none) that the shipped classifier
    takes for a die (more likely a die than background) — the photo's other dice, which are
    not labelled but are not floor either."""
    if not looked.found:
        return np.zeros(0, bool)
    die_logit = looked.offsets[:, 1:].max(axis=1) - looked.offsets[:, 0]
    near = np.array([any(x + s / 2 > e.box[0] and x - s / 2 < e.box[2] and y + s / 2 > e.box[1]
                         and y - s / 2 < e.box[3] for e in labels) for x, y, s, _ in looked.found], bool)
    out: NDArray[Any] = ~near & (die_logit > 0)
    return out


def _training_targets(backend: Backend, looks: Sequence[_Looked], photos: Sequence[TaughtPhoto]) -> list[NDArray[Any]]:
    """Each photo's candidates' classes (:func:`_targets`) to fit the heads on; −1 for a
    partial photo's unlabelled dice (:func:`_unlabelled_dice`), which no head learns from."""
    out = []
    for looked, photo in zip(looks, photos, strict=True):
        targets = _targets(backend, looked, photo.dice)
        if photo.partial:
            targets[(targets == 0) & _unlabelled_dice(looked, photo.dice)] = -1
        out.append(targets)
    return out


def _counts(photos: Sequence[TaughtPhoto]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = {}
    for photo in photos:
        for die in photo.dice:
            out.setdefault(die.kind, Counter())[str(die.value)] += 1
    return {k: dict(sorted(c.items(), key=lambda kv: int(kv[0]))) for k, c in out.items()}


def fit(photos: Sequence[TaughtPhoto], backend: Backend | None = None,
        readings: list[TrayReading] | None = None) -> Adaptation:
    """Fit the layer to a table's labelled photos (see the module's docstring).

    :param photos: every photo taught, each with all its dice labelled (a die left unlabelled
        teaches the layer that it is floor) unless ``partial``: there, the candidates near no
        label that the shipped classifier takes for dice are no floor example.
    :param backend: the shipped reader to adapt (None: that of :func:`family_of` the photos).
    :param readings: when given, the shipped reader's reading of each photo (``backend.shipped``,
        colours unnamed), which the fit makes to compare with, is appended to it in the photos'
        order (``dicelens teach`` judges the labels by it rather than reading each photo again);
        none for fewer than two photos, which the fit does not read.
    :returns: the adaptation; ``used`` False (with ``why``) for fewer than two photos, or
        when it does not read the held-out photos better than the shipped reader.
    """
    start = time.process_time()
    with network.remembering():  # the photos' passes and crops, read several ways, run once
        adaptation = _fit(photos, backend or backend_for(family_of(photos)), readings)
    adaptation.seconds = time.process_time() - start
    return adaptation


def _fit(photos: Sequence[TaughtPhoto], backend: Backend, readings: list[TrayReading] | None) -> Adaptation:
    adaptation = Adaptation(family=backend.family, fingerprint=backend.fingerprint(), photos=len(photos),
                            value_min=backend.value_min, examples=_counts(photos),
                            kinds=sorted({d.kind for p in photos for d in p.dice}))
    if len(photos) < 2 or not any(p.dice for p in photos):
        adaptation.why = "fewer than two labelled photos"
        return adaptation
    shipped, first = Figures(), []
    for photo in photos:  # each photo read, then its weaker candidates (the backend shares the passes)
        reading = backend.shipped(photo.image, named=False)
        shipped.add(reading.dice, photo.dice, partial=photo.partial)
        if readings is not None:
            readings.append(reading)
        first.append(_look(backend, photo.image, None, _expected_side(None, photo.image, backend)))
    adaptation.shipped = shipped.to_dict()
    # the dice's side as labelled, and as the detector measures the dice it matches
    sides = [max(e.box[2] - e.box[0], e.box[3] - e.box[1]) / max(p.image.shape[:2]) for p in photos for e in p.dice]
    labelled = float(np.median(sides))
    side = _measured_side(backend, photos, first) or labelled
    matched = [_reach(p.image, looked.found[i]) > tray.CUT_OFF for p, looked in zip(photos, first, strict=True)
               for i, t in enumerate(_targets(backend, looked, p.dice)) if t]
    adaptation.cut_off = not matched or sum(matched) <= len(matched) / 2
    options: dict[tuple[float | None, float | None], list[_Looked]] = {(None, None): first}
    options[side, None] = [_look(backend, p.image, _scale_of(side, p.image, backend), side * max(p.image.shape[:2]))
                           for p in photos]
    # the same candidates cropped at the dice's labelled side, where that puts many more of them
    # on the dice (a choice among more options held out on few photos is more often luck: byler,
    # 5 photos taught, 48 dice of 53 against 47, was read 67.4 % right after, 74.1 % without),
    # or where the detector sizes the dice it finds much larger than labelled, their crops mostly
    # floor (patterson's crops of one die, sized 1.3-1.5 times it: the network reads 18 of 29
    # right at the detector's sides, 23 of 30 at the labelled one)
    unsized: list[tuple[float | None, float | None]] = [(None, None), (side, None)]
    more = max(MARGIN, SIZED_MORE * len(sides))
    empty = np.zeros((0, 0))
    for option in unsized:
        sizes = [labelled * max(p.image.shape[:2]) for p in photos]
        sized = [_sized(looked.found, size) for looked, size in zip(options[option], sizes, strict=True)]
        measured = _measured_side(backend, photos, options[option])
        missized = measured is not None and measured > MISSIZED * labelled
        if missized or _on_dice(backend, photos, [_Looked(f, empty, empty) for f in sized]) \
                >= _on_dice(backend, photos, options[option]) + more:
            options[option[0], labelled] = [_look(backend, p.image, _scale_of(option[0], p.image, backend),
                                                  _expected_side(option[0], p.image, backend), size=size,
                                                  found=looked.found)
                                            for p, size, looked in zip(photos, sizes, options[option], strict=True)]
    folds = min(FOLDS, len(photos))
    # each choice's held-out figures: the layer whole, and its die head alone (the dice it finds
    # read as the shipped classifier reads them: a table whose values it cannot learn)
    held: dict[tuple[bool, tuple[float | None, float | None], float, float], Figures] = {}
    for option, looks in options.items():
        targets = _training_targets(backend, looks, photos)
        for key in ((whole, option, h, v) for whole in (True, False) for h in HEATS for v in VALUE_MINS):
            held[key] = Figures()
        for fold in range(folds):
            train = [k for k in range(len(photos)) if k % folds != fold]
            head = _fit_on(looks, targets, train)
            for k in range(len(photos)):
                if k % folds != fold or head is None:
                    continue
                probs = head.probs(looks[k].offsets, looks[k].features)
                found = probs[0], _shipped_values(looks[k].offsets)
                labels = photos[k].dice
                wholly = _dice_of(backend, photos[k].image, looks[k], probs, 0.0, adaptation.kinds,
                                  adaptation.cut_off)
                alone_of = _dice_of(backend, photos[k].image, looks[k], found, 0.0, adaptation.kinds,
                                    adaptation.cut_off)  # the same dice (the die head's), other values
                for h in HEATS:  # the value threshold changes no die's box: one match for all
                    dice, alone = _at_heat(wholly, h), _at_heat(alone_of, h)
                    _, pairs = score_photo(dice, [{"box": list(e.box), "value": e.value} for e in labels])
                    for whole, those in ((True, dice), (False, alone)):
                        _add_unsure([held[whole, option, h, v] for v in VALUE_MINS], VALUE_MINS, those, labels,
                                    pairs, photos[k].partial)
    wholes = [key for key in held if key[0]]
    better = [key for key in wholes if _reads_better(held[key], shipped)]
    # the die head alone reads the values as the shipped reader does, at its value threshold
    shipped_min = max(v for v in VALUE_MINS if v <= backend.value_min)
    finder = max((key for key in held if not key[0] and key[3] == shipped_min),
                 key=lambda key: (held[key].found - held[key].phantom, held[key].gain, held[key].right))
    chosen = max(better or wholes, key=lambda key: (held[key].gain, held[key].right))
    if _finds_more(held[finder], shipped) and (not better or _worth(held[finder]) > _worth(held[chosen])):
        chosen = finder
    _, option, adaptation.heat, adaptation.value_min = chosen
    adaptation.side, adaptation.size = option
    adaptation.held_out = held[chosen].to_dict()
    looks = options[option]
    adaptation.head = _fit_on(looks, _training_targets(backend, looks, photos), list(range(len(photos))))
    if adaptation.head is not None and chosen is finder:  # its value part left out: the network's values
        adaptation.head = replace(adaptation.head, taught=np.zeros(0, int))
    adaptation.used = adaptation.head is not None and (chosen is finder or bool(better))
    if not adaptation.used:
        adaptation.why = "it reads the taught photos held out no better than the shipped reader"
    return adaptation


def _scale_of(side: float | None, image: NDArray[Any], backend: Backend) -> float | None:
    """The detector's scale for dice of ``side`` (a share of the photo's long side; None: the shipped passes)."""
    return None if side is None else backend.learned_side / (side * max(image.shape[:2]))


def _measured_side(backend: Backend, photos: Sequence[TaughtPhoto], looks: Sequence[_Looked]) -> float | None:
    """The median side (a share of the photo's long side) the detector gives the candidates
    matching the photos' labelled dice in ``looks``; None when none matches."""
    measured = [looked.found[i][2] / max(p.image.shape[:2]) for p, looked in zip(photos, looks, strict=True)
                for i, t in enumerate(_targets(backend, looked, p.dice)) if t]
    return float(np.median(measured)) if measured else None


def _on_dice(backend: Backend, photos: Sequence[TaughtPhoto], looks: Sequence[_Looked]) -> int:
    """How many of the photos' labelled dice a candidate of ``looks`` (each photo's) matches."""
    return sum(int(np.count_nonzero(_targets(backend, looked, p.dice)))
               for p, looked in zip(photos, looks, strict=True))


def _shipped_values(offsets: NDArray[Any]) -> NDArray[Any]:
    """N×C shipped log probabilities → N×(C−1) of each value given a die, as the network reads them."""
    values = offsets[:, 1:] - offsets[:, 1:].max(axis=1, keepdims=True)
    p: NDArray[Any] = np.exp(values) / np.exp(values).sum(axis=1, keepdims=True)
    return p


def _reads_better(held: Figures, shipped: Figures) -> bool:
    """Whether the layer, held out, reads :data:`MARGIN` or more of the dice right than the
    shipped reader, more ``right − WRONG_COST × wrong − phantoms``, and finds as many (less
    phantoms): banachowicz, 40 photos taught, read 3 dice right of 398 against 1, but found
    almost none."""
    return (held.gain > shipped.gain and held.right >= shipped.right + MARGIN
            and held.found - held.phantom >= shipped.found - shipped.phantom)


def _worth(figures: Figures) -> int:
    """What a reading is worth, to choose between the layer and its die head alone: a die found
    counts one, read right one more, read wrong :data:`WRONG_COST` less; a phantom one less."""
    return figures.found + figures.right - WRONG_COST * figures.wrong - figures.phantom


def _finds_more(held: Figures, shipped: Figures) -> bool:
    """Whether the die head alone, held out, finds :data:`MARGIN` more of the labelled dice than
    the shipped reader, still with its phantoms taken off, and reads their values no worse: as
    many right, some, and as much ``right − WRONG_COST × wrong`` (byler, 5 photos taught: 24
    right against 25, then 61.1 % against 74.1 % on the photos read after). Fewer phantoms
    alone find no die (byler's first two photos' labels swapped: 0 right both, 13 phantoms
    against 19, then read worse than the shipped reader)."""
    return (held.found >= shipped.found + MARGIN
            and held.found - held.phantom >= shipped.found - shipped.phantom + MARGIN
            and held.right >= max(shipped.right, 1)
            and held.right - WRONG_COST * held.wrong >= shipped.right - WRONG_COST * shipped.wrong)


def _fit_on(looks: Sequence[_Looked], targets: Sequence[NDArray[Any]], photos: Sequence[int]) -> Head | None:
    """The heads fitted on the candidates of ``photos`` (indices) whose target is not −1."""
    chosen = [k for k in photos if np.any(targets[k] >= 0)]
    if not chosen:
        return None
    c = looks[chosen[0]].offsets.shape[1]
    f = looks[chosen[0]].features.shape[1]
    die_mask, value_mask = np.zeros(f), np.ones(f)
    die_mask[c:c + 8] = 1.0  # whether a die is there: heat, size and look, not which value it shows
    value_mask[c:c + 8] = 0.0  # its value: the network's and the rings' view of it
    keep = [targets[k] >= 0 for k in chosen]
    return fit_head(np.vstack([looks[k].offsets[m] for k, m in zip(chosen, keep, strict=True)]),
                    np.vstack([looks[k].features[m] for k, m in zip(chosen, keep, strict=True)]),
                    np.concatenate([targets[k][m] for k, m in zip(chosen, keep, strict=True)]), die_mask, value_mask)


def stale(adaptation: Adaptation) -> bool:
    """Whether ``adaptation`` was fitted on other networks than its family's reader has now (the
    shipped networks changed since): :func:`read` reads without it until it is fitted again."""
    return adaptation.fingerprint != backend_for(adaptation.family).fingerprint()


def read(image: NDArray[Any], adaptation: Adaptation | None, principal_color: str | None = None,
         backend: Backend | None = None) -> TrayReading:
    """Read a photo with a table's adaptation: as :func:`vision.read_tray` (pips) or
    :func:`vision.read_numbered` (numbered) would, with the layer when it is ``used`` and fitted
    on the same networks; else with the shipped reader of its family (pips for None).

    :param image: H×W×3 uint8 BGR photo (grey and BGRA accepted).
    :raises InvalidImage: ``image`` is not a uint8 image array.
    """
    family = adaptation.family if adaptation else "pips"
    backend = backend or backend_for(family)
    if adaptation is None or not adaptation.used or adaptation.head is None \
            or adaptation.fingerprint != backend.fingerprint():
        return backend.shipped(image)
    start = time.perf_counter()
    bgr = as_bgr(image)
    height, width = bgr.shape[:2]
    dice: list[DieReading] = []
    if min(height, width) >= MIN_SIDE and bgr.max() > 0:
        side = _expected_side(adaptation.side, bgr, backend)
        scale = None if adaptation.side is None else backend.learned_side / side
        size = None if adaptation.size is None else adaptation.size * max(height, width)
        looked = _look(backend, bgr, scale, side, adaptation.heat, size, head=adaptation.head)  # the head's dice
        probs = adaptation.head.probs(looked.offsets, looked.features)
        dice = _readings(backend, bgr, looked, probs, adaptation.heat, adaptation.value_min,
                         adaptation.kinds, adaptation.cut_off)
    name_dice_colors(bgr, dice)
    note = mark_principal(dice, principal_color)
    return TrayReading(dice=dice, size=(width, height), seconds=time.perf_counter() - start, principal_note=note)
