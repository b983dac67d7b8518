"""Benchmark the readers leave-one-source-out: each source read by networks that never saw it.

Run by hand from the repository root (one core), after tools/train_loso.sh has trained
the networks into DIR (default /work/tmp/loso):

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/vision_generalise.py [DIR] [--errors] [--d12-d20] [--read-dice]
        [--pip-count]

Every source of the datasets (DICELENS_DATASETS: tools/datasets.py) is read as a player's
tray would be: by networks that learned from the other sources only, never from its
tray, floor, camera or dice. The pip sources of real-dice/ are read by the pip reader
(vision.tray.PipReader) with DIR/pips/<source>/ (``tools/train_pips.py --leave-out-source``; its
varied detector too when the folder holds one: tools/train_loso.sh's PIPS_VARIED);
banachowicz, burks and lurig by the numbered reader (vision.numerals.read_numbered) with
DIR/numerals/<source>/ (``tools/train_numerals.py --leave-out-source``, with or without
``--renders``: tools/train_loso.sh's RENDERS); a source the training tool does not learn from
(not in tools/numerals_data.py SOURCES) by the shipped networks, which never saw it. A source
with no run in DIR is named and left out.

The value threshold of a source (a die whose value is less likely than it is reported
unreadable, as VALUE_MIN does in the readers) is chosen on the leave-one-out readings of
the *other* sources of its reader, never on its own: the lowest of :data:`THRESHOLDS` with
the most ``right - WRONG_COST × wrong`` over them. The readers' other thresholds are theirs.
The pip reader reads every photo once per threshold, as ``PipReader(value_min=…)``: its
threshold also decides which candidates are a large die's pips (read with no sure value),
so a reading at 0 alone kept them all as dice (322 of penlington's phantoms, 165 at 0.5).
``--pip-count`` reads the pip sources with the rule measured and not shipped
(:class:`CountingReader`: a die the classifier is unsure of read when the face's pip count,
:mod:`vision.pip_count`, agrees); its constant ``agree_min`` is chosen the same way, after the
value threshold: the highest of :data:`AGREE_MINS` below it with the most gain over the other
sources (read with ``agree_min`` 0: a die given a value below the threshold is the count's);
the rows are then read again at both. ``--heats`` reads the pip sources at each detector
threshold given (the reader's HEAT_MIN by default) and chooses a source's the same way, on
the other pip sources' gain at their chosen value threshold.

``--read-dice`` reads the numbered sources with ``vision.read_dice`` (every kind, as the
product does: the pip tray's choice and recheck included) rather than ``read_numbered``: the
numbered networks of DIR/numerals/<source>/ and the shipped pip networks, which never learned
from a numbered source. A die the pip reader's classifier gave (its own value threshold
applied first) is judged by its confidence, as the pip sources' dice are, and so is a die
``read_dice`` copied from the numbered reader's (``vision.dice.recheck_pips``): kind × value
probability, a stricter bar than the value's alone. The pip sources are read as without it.

Prints, per source and per kind: dice, right, wrong value, wrong kind, unreadable,
missed, phantom (a reading matching no label, counted under the kind read), accuracy,
phantoms per 100 dice, and the median milliseconds of a photo (wall and CPU, one core).
A die is matched to a label when each box holds the other's centre (vision.scoring).

``--d12-d20`` only lists every real d12 and d20 (burks' and lurig's), each read by the
numbered networks of DIR/numerals/<its source>/ (:func:`rare_kinds`): what was read, whether
the detector found it at all (a candidate of ``numerals.detect`` on it, whatever the classifier
made of it), and the facts that explain a miss (its size in the detector's input, how the
photo was taken, how many dice of its kind and value the networks learned from); last, per
source and kind, how many were found (of them, kind right) and missed, and the median CPU
milliseconds of ``read_numbered`` a photo.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.timing import print_times  # noqa: E402
from tools import datasets, numerals_data, pips_data  # noqa: E402
from vision import numerals  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.network import Network  # noqa: E402
from vision.pip_count import confirms  # noqa: E402
from vision.scoring import score_photo  # noqa: E402
from vision.tray import COCKED, HEAT_MIN, PipReader  # noqa: E402

PIP_SOURCES = pips_data.SOURCES
NUMBERED_SOURCES = ("real-polyhedral/banachowicz-mixed-d10", "real-polyhedral/burks-tray-polyhedral",
                    "real-d20/lurig-platform-d20")
RARE_SOURCES = ("real-polyhedral/burks-tray-polyhedral", "real-d20/lurig-platform-d20")  # the real d12 and d20
RARE_KINDS = ("d12", "d20")
THRESHOLDS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
AGREE_MINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)  # CountingReader's agree_min
NO_COUNT = 2.0  # an agree_min no value reaches: the pip reader as shipped, without the count
WRONG_COST = 3  # a wrong value, which the player may not notice, costs as much as this many unreadable dice
COLUMNS = ("dice", "right", "wrong", "kind", "unread", "missed", "phantom")


@dataclass
class Outcome:
    """One labelled die or one phantom of a photo, before the value threshold."""

    kind: str  # the label's kind, or the kind read for a phantom
    label: int | None  # the label's value; None for a phantom
    read_kind: str | None = None  # None: missed
    value: int | None = None  # the likeliest value (None: unreadable for another reason)
    value_p: float = 0.0  # its probability, given the kind
    reason: str | None = None  # why unreadable whatever the threshold (cut off, cocked, blurred)
    counted: bool = False  # the value was given by CountingReader's count (value_p below the threshold)


@dataclass
class SourceRun:
    """A source's outcomes, wall and CPU seconds a photo, per value threshold (THRESHOLDS)."""

    outcomes: dict[float, list[Outcome]] = field(default_factory=lambda: {t: [] for t in THRESHOLDS})
    wall: dict[float, list[float]] = field(default_factory=lambda: {t: [] for t in THRESHOLDS})
    cpu: dict[float, list[float]] = field(default_factory=lambda: {t: [] for t in THRESHOLDS})


def _outcomes(dice: list, labels: list[dict], value_p: Callable[[object], float]) -> list[Outcome]:
    _, pairs = score_photo(dice, labels)
    out = []
    for i, j in pairs:
        die = dice[i] if i is not None else None
        label = labels[j] if j is not None else None
        kind = label.get("kind", "d6-pips") if label else getattr(die, "kind", "d6-pips")
        outcome = Outcome(kind, label["value"] if label else None)
        if die is not None:
            outcome.read_kind = getattr(die, "kind", "d6-pips")
            outcome.value = die.value
            outcome.value_p = value_p(die)
            outcome.reason = die.unreadable
        out.append(outcome)
    return out


@contextmanager
def _numbered_networks(folder: Path | None) -> Iterator[dict[int, float]]:
    """The numbered reader with the networks of ``folder`` (None: the shipped ones), every value
    given (VALUE_MIN and FACE_MIN 0, nor the values of dice read at COARSE_PROBES scales withheld; a
    value and its probability are :func:`vision.numerals.value_of`'s);
    yields id(die) → its value's probability given its kind."""
    saved = (numerals._DETECTOR, numerals._VARIED, numerals._CLASSIFIER, numerals.VALUE_MIN, numerals.FACE_MIN,
             numerals._reading, numerals._withheld)
    probabilities: dict[int, float] = {}
    original = numerals._reading

    def reading(image, x, y, side, kind_p, value_logits):
        die = original(image, x, y, side, kind_p, value_logits)
        if die is not None:
            probabilities[id(die)] = die.confidence / float(np.max(kind_p))
        return die

    if folder is not None:
        numerals._DETECTOR = Network(folder / numerals.DETECT_FILE, "numbered-dice detector")
        varied = folder / numerals.VARIED_DETECT_FILE  # the second detector, when that run made one
        numerals._VARIED = Network(varied, "numbered-dice detector") if varied.is_file() else None
        numerals._CLASSIFIER = Network(folder / "numerals_classify.onnx", "numbered-dice classifier")
    numerals.VALUE_MIN, numerals.FACE_MIN, numerals._reading = 0.0, 0.0, reading
    numerals._withheld = lambda die: die
    try:
        yield probabilities
    finally:
        (numerals._DETECTOR, numerals._VARIED, numerals._CLASSIFIER, numerals.VALUE_MIN, numerals.FACE_MIN,
         numerals._reading, numerals._withheld) = saved


def _timed(read: Callable, image: np.ndarray, run: SourceRun, threshold: float):
    cpu = time.process_time()
    reading = read(image)
    run.cpu[threshold].append(time.process_time() - cpu)
    run.wall[threshold].append(reading.seconds)
    return reading


class CountingReader(PipReader):
    """The pip reader with the rule measured and not shipped: a die it reads "ambiguous pips" is
    read as its likeliest value when that is ``agree_min`` likely and the face's pip count agrees
    (:func:`vision.pip_count.confirms`); a cut off, cocked or blurred die is as the reader reads it."""

    def __init__(self, models: Path, value_min: float, agree_min: float, heat_min: float = HEAT_MIN) -> None:
        super().__init__(models, value_min=value_min, heat_min=heat_min)
        self.agree_min = agree_min

    def _die(self, image, x, y, side, p):
        die = super()._die(image, x, y, side, p)
        if die is None or die.unreadable != "ambiguous pips":
            return die
        value = int(np.argmax(p[1:COCKED])) + 1
        if confirms(image, (x, y), side, value, die.confidence, self.agree_min):
            return replace(die, value=value, unreadable=None)
        return die


def read_pip_source(source: str, folder: Path, agree_min: float = NO_COUNT,
                    thresholds: tuple[float, ...] = THRESHOLDS, heat: float = HEAT_MIN) -> SourceRun:
    """Every photo of ``source`` read by the networks of ``folder`` once per threshold, by
    :class:`CountingReader` at ``agree_min`` (:data:`NO_COUNT`: the shipped pip reader), the
    detector's peaks down to ``heat``."""
    readers = {t: PipReader(folder, value_min=t, heat_min=heat) if agree_min == NO_COUNT
               else CountingReader(folder, t, agree_min, heat) for t in thresholds}
    run = SourceRun()
    for photo in pips_data.load_photos((source,)):
        image = cv2.imread(str(photo.path))
        for t, reader in readers.items():
            reading = _timed(reader.read, image, run, t)
            outcomes = _outcomes(reading.dice, photo.dice, lambda die: die.confidence)
            for o in outcomes:
                o.counted = o.value is not None and o.reason is None and o.value_p < t
            run.outcomes[t] += outcomes
    return run


def read_numbered_source(source: str, folder: Path | None, read: Callable = numerals.read_numbered) -> SourceRun:
    """Every photo of ``source`` read once by ``read`` (``read_numbered`` or ``read_dice``), every
    numbered value given: the same outcomes at every threshold."""
    run = SourceRun()
    with _numbered_networks(folder) as probabilities:
        for photo in numerals_data.load_photos((source,)):
            reading = _timed(read, cv2.imread(str(photo.path)), run, THRESHOLDS[0])
            run.outcomes[THRESHOLDS[0]] += _outcomes(reading.dice, photo.dice,
                                                     lambda die: probabilities.get(id(die), die.confidence))
            probabilities.clear()
    for t in THRESHOLDS[1:]:
        run.outcomes[t], run.wall[t], run.cpu[t] = (run.outcomes[THRESHOLDS[0]], run.wall[THRESHOLDS[0]],
                                                    run.cpu[THRESHOLDS[0]])
    return run


def verdict(o: Outcome, threshold: float, agree_min: float = NO_COUNT) -> str:
    """One of COLUMNS[1:] for an outcome at a value threshold and CountingReader's ``agree_min``."""
    if o.label is None:
        return "phantom"
    if o.read_kind is None:
        return "missed"
    if o.read_kind != o.kind:
        return "kind"
    if o.reason or o.value is None or o.value_p < (agree_min if o.counted else threshold):
        return "unread"
    return "right" if o.value == o.label else "wrong"


def gain(outcomes: list[Outcome], threshold: float) -> int:
    """right − WRONG_COST × wrong of ``outcomes`` at the value threshold ``threshold``."""
    c = Counter(verdict(o, threshold) for o in outcomes)
    return c["right"] - WRONG_COST * c["wrong"]


def choose_threshold(others: dict[float, list[Outcome]]) -> float:
    """The lowest of THRESHOLDS with the most :func:`gain` over ``others`` (the other sources'
    outcomes read at each threshold)."""
    return max(THRESHOLDS, key=lambda t: (gain(others[t], t), -t))


def choose_heat(by_heat: dict[float, dict[str, SourceRun]], source: str) -> float:
    """The detector threshold of ``--heats`` (keys of ``by_heat``: each pip source's run at it)
    whose chosen value threshold gains most over the pip sources other than ``source``; the
    highest on a tie (fewer crops to classify)."""
    def best(heat: float) -> tuple[int, float]:
        others = {t: [o for s, r in by_heat[heat].items() if s != source for o in r.outcomes[t]] for t in THRESHOLDS}
        threshold = choose_threshold(others)
        return gain(others[threshold], threshold), heat
    return max(by_heat, key=best)


def choose_agree_min(others: list[Outcome], threshold: float) -> float:
    """The highest of AGREE_MINS below ``threshold`` with the most right − WRONG_COST × wrong over
    ``others`` (the other sources' outcomes read at ``threshold`` with agree_min 0); NO_COUNT when
    none is below it."""
    def gain(a: float) -> int:
        c = Counter(verdict(o, threshold, a) for o in others)
        return c["right"] - WRONG_COST * c["wrong"]
    return max((a for a in AGREE_MINS if a < threshold), key=lambda a: (gain(a), a), default=NO_COUNT)


def _row(name: str, c: Counter, ms: str = "") -> None:
    acc = 100 * c["right"] / c["dice"] if c["dice"] else float("nan")
    per100 = 100 * c["phantom"] / c["dice"] if c["dice"] else float("nan")
    print(f"{name:44}" + "".join(f"{c[col]:8}" for col in COLUMNS) + f"{acc:7.1f}{per100:7.2f}  {ms}")


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.1f}"


def _learned_from(folder: Path) -> tuple[str, list[Path]]:
    """What a leave-one-source-out classifier of ``folder`` learned from: the first line of its
    classifier.log and the renders folders it names."""
    lines = (folder / "classifier.log").read_text().splitlines()
    renders = next((line.split(" from ", 1)[1].split() for line in lines if line.startswith("renders:")), [])
    return lines[0], [Path(r) for r in renders]


def _examples(photos: list) -> Counter:
    """Labelled dice of ``photos`` by kind and by (kind, value)."""
    counts: Counter = Counter()
    for photo in photos:
        for d in photo.dice:
            counts[d["kind"]] += 1
            counts[(d["kind"], d["value"])] += 1
    return counts


def _kind_value(die) -> str:
    return "-" if die is None else f"{die.kind} {die.value if die.value is not None else die.unreadable}"


def rare_kinds(runs: Path) -> None:
    """Print every real d12 and d20 of the datasets read by the numbered networks that never
    saw its source (``runs``/numerals/<source>/, every value given), one row each: its size in
    the photo and in the detector's letterboxed input, how the photo was taken, what was read,
    and how many labelled dice of its kind, and of its kind and value, the networks learned from
    (the other sources' real photos and the renders their log names); last, what
    ``vision.read_dice`` (every kind, these networks and the shipped pip reader) gives it."""
    print(f"{'source':10}{'photo':22}{'label':>9}{'side px':>8}{'input px':>9}  read (p)"
          f"{'':13}verdict   det  learned from: real kind/value, renders kind/value; read_dice{'':12}view")
    tally: Counter = Counter()
    cpu: dict[str, list[float]] = defaultdict(list)
    for path in RARE_SOURCES:
        source = path.split("/")[-1]
        folder = runs / "numerals" / source
        if not (folder / "detector.done").exists():
            print(f"{source}: left out, no finished run in {folder}")
            continue
        first_line, renders = _learned_from(folder)
        others = numerals_data.load_photos(tuple(s for s in numerals_data.SOURCES if s != path))
        real = _examples(others)
        if not first_line.startswith(f"{len(others)} photos"):  # trained when SOURCES were others
            print(f"{source}: the networks did not learn from today's other sources ({len(others)} photos): "
                  "the counts of real dice learned from are not theirs")
        rendered = _examples([p for r in renders if (r / "labels.json").is_file()
                              for p in numerals_data.load_renders(r)])
        print(f"{source}: {first_line}; renders {' '.join(map(str, renders)) or 'none'}")
        labels = json.loads((datasets.source(path) / "labels.json").read_text())["images"]
        views = {entry["file"]: entry.get("view", "") for entry in labels}
        with _numbered_networks(folder) as probabilities:
            for photo in numerals_data.load_photos((path,)):
                if not any(d["kind"] in RARE_KINDS for d in photo.dice):
                    continue
                image = cv2.imread(str(photo.path))
                start = time.process_time()
                reading = numerals.read_numbered(image)
                cpu[source].append(time.process_time() - start)
                detected = _detected(numerals.detect(image), photo.dice)
                merged = read_dice(image).dice
                merged_of = {j: merged[i] for i, j in score_photo(merged, photo.dice)[1]
                             if i is not None and j is not None}
                _, pairs = score_photo(reading.dice, photo.dice)
                for i, j in pairs:
                    if j is None or photo.dice[j]["kind"] not in RARE_KINDS:
                        continue
                    label, die = photo.dice[j], reading.dice[i] if i is not None else None
                    x0, y0, x1, y1 = label["box"]
                    side = max(x1 - x0, y1 - y0)
                    scaled = side * numerals.DETECT_SIZE / max(image.shape[:2])
                    if die is None:
                        read, verdict = "-", "missed"
                    else:
                        read = f"{die.kind} {die.value} ({probabilities[id(die)]:.2f})"
                        verdict = ("kind" if die.kind != label["kind"] else die.unreadable or
                                   ("right" if die.value == label["value"] else "wrong"))
                    kind, value = label["kind"], label["value"]
                    tally[(source, kind, verdict)] += 1
                    tally[(source, kind, "unseen value")] += real[(kind, value)] == 0
                    tally[(source, kind, "dice")] += 1
                    tally[(source, kind, "found")] += j in detected
                    tally[(source, kind, "found, kind right")] += (j in detected and die is not None
                                                                   and die.kind == kind)
                    print(f"{source[:9]:10}{photo.path.name[:21]:22}{kind:>5} {value:<3}{side:8}{scaled:9.0f}  "
                          f"{read:21}{verdict:10}{'yes' if j in detected else 'no':5}"
                          f"{real[kind]:5}/{real[(kind, value)]:<4}{rendered[kind]:5}/"
                          f"{rendered[(kind, value)]:<4} {_kind_value(merged_of.get(j)):22}"
                          f"{views[photo.path.name][:40]}")
                probabilities.clear()
    for source, kind in dict.fromkeys((s, k) for s, k, _ in tally):
        counts = {v: n for (s, k, v), n in tally.items() if (s, k) == (source, kind) and n}
        n, found = counts.pop("dice"), counts.pop("found", 0)
        print(f"{source} {kind}: {n} dice, found by the detector {found} (kind right "
              f"{counts.pop('found, kind right', 0)}), not found {n - found}; read: "
              + ", ".join(f"{v} {c}" for v, c in counts.items()))
    for source, times in cpu.items():
        print(f"{source}: read_numbered {_ms(times)} ms CPU a photo (median of {len(times)})")


def _detected(found: list[tuple[float, float, float, float]], labels: list[dict]) -> set[int]:
    """The labels of ``labels`` that a candidate of ``found`` (x, y, side, heat) lies on: each box
    (the candidate's square of its side) holds the other's centre, as vision.scoring matches."""
    def holds(box: list[float], x: float, y: float) -> bool:
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]
    return {j for j, label in enumerate(labels) for x, y, side, _ in found
            if holds(label["box"], x, y) and holds([x - side / 2, y - side / 2, x + side / 2, y + side / 2],
                                                   (label["box"][0] + label["box"][2]) / 2,
                                                   (label["box"][1] + label["box"][3]) / 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="?", default=Path("/work/tmp/loso"),
                        help="folder of tools/train_loso.sh's networks (pips/<source>/, numerals/<source>/)")
    parser.add_argument("--errors", action="store_true", help="list the confusions of every source and kind")
    parser.add_argument("--d12-d20", action="store_true",
                        help="only list every real d12 and d20, each read by the networks that never saw its source")
    parser.add_argument("--pip-count", action="store_true",
                        help="read the pip sources with the pip count rule, measured, not shipped (CountingReader)")
    parser.add_argument("--heats", type=float, nargs="+", default=[HEAT_MIN], metavar="HEAT",
                        help="pip detector thresholds to choose from per source, on the other sources "
                             f"(default the reader's {HEAT_MIN})")
    parser.add_argument("--read-dice", action="store_true",
                        help="read the numbered sources with vision.read_dice (every kind), not read_numbered")
    args = parser.parse_args()
    if not args.runs.is_dir():
        parser.error(f"{args.runs}: no such folder (make it with tools/train_loso.sh)")
    cv2.setNumThreads(1)
    if args.d12_d20:
        rare_kinds(args.runs)
        return 0
    learned = {s.split("/")[-1] for s in numerals_data.SOURCES}
    runs: dict[str, SourceRun] = {}
    family: dict[str, str] = {}
    pip_runs: dict[float, dict[str, SourceRun]] = {heat: {} for heat in args.heats}
    for source in PIP_SOURCES:
        folder = args.runs / "pips" / source
        if (folder / "classifier.done").exists():
            for heat in args.heats:
                pip_runs[heat][source] = read_pip_source(source, folder, 0.0 if args.pip_count else NO_COUNT,
                                                         heat=heat)
            family[source] = "pip"
        else:
            print(f"{source}: left out, no finished run in {folder}")
    heat_of = {source: choose_heat(pip_runs, source) for source in pip_runs[args.heats[0]]}
    runs.update({source: pip_runs[heat][source] for source, heat in heat_of.items()})
    for path in NUMBERED_SOURCES:
        source = path.split("/")[-1]
        folder: Path | None = args.runs / "numerals" / source
        if source not in learned:
            folder = None  # the shipped networks never learned from it
        elif not (folder / "detector.done").exists():
            print(f"{source}: left out, no finished run in {folder}")
            continue
        runs[source], family[source] = (read_numbered_source(path, folder, read_dice if args.read_dice
                                                             else numerals.read_numbered), "numbered")
        if folder is None:
            print(f"{source}: read by the shipped networks (tools/train_numerals.py never learns from it)")
    print(f"{'source / kind':44}" + "".join(f"{c:>8}" for c in COLUMNS) + f"{'acc %':>7}{'ph/100':>7}"
          "  ms wall/CPU")
    totals: dict[str, Counter] = defaultdict(Counter)
    chosen: dict[str, float] = {}
    reported: dict[str, SourceRun] = {}  # the runs the rows give (a pip source read again at its agree_min)
    for source, run in runs.items():
        peers = pip_runs[heat_of[source]] if family[source] == "pip" else runs  # read at the source's heat
        others = {t: [o for s, r in peers.items() if s != source and family[s] == family[source]
                      for o in r.outcomes[t]] for t in THRESHOLDS}
        threshold = choose_threshold(others) if others[THRESHOLDS[0]] else 0.0
        chosen[source] = threshold
        agree_min = NO_COUNT
        if family[source] == "pip" and args.pip_count:
            agree_min = choose_agree_min(others[threshold], threshold)
            run = read_pip_source(source, args.runs / "pips" / source, agree_min, (threshold,), heat_of[source])
        reported[source] = run
        by_kind: dict[str, Counter] = defaultdict(Counter)
        confusions: dict[str, Counter] = defaultdict(Counter)
        for o in run.outcomes[threshold]:
            v = verdict(o, threshold, agree_min)
            c = by_kind[o.kind]
            c[v] += 1
            c["dice"] += o.label is not None
            if v == "kind":
                confusions[o.kind][o.read_kind] += 1
            elif v == "wrong":
                confusions[o.kind][(o.label, o.value)] += 1
        source_total: Counter = sum(by_kind.values(), Counter())
        counting = f", agree_min {agree_min}" if agree_min != NO_COUNT else ""
        counting += f", heat {heat_of[source]}" if source in heat_of and len(args.heats) > 1 else ""
        _row(f"{source} (value threshold {threshold}{counting})", source_total,
             f"{_ms(run.wall[threshold])}/{_ms(run.cpu[threshold])}")
        for kind in sorted(by_kind, key=numerals.KINDS.index):
            _row(f"  {kind}", by_kind[kind])
            totals[kind].update(by_kind[kind])
            if args.errors and confusions[kind]:
                print(f"{'':46}confused (label→read): {dict(confusions[kind].most_common(8))}")
    print("all sources:")
    for kind in sorted(totals, key=numerals.KINDS.index):
        _row(f"  {kind}", totals[kind])
    _row("overall", sum(totals.values(), Counter()))
    print_times([t for s, r in reported.items() for t in r.wall[chosen[s]]],
                [t for s, r in reported.items() for t in r.cpu[chosen[s]]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
