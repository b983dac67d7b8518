"""Where the full labelled datasets are: the one setting the benchmarks and training tools read.

``DICELENS_DATASETS`` names the folder that holds ``real-dice/``, ``real-polyhedral/`` and
``real-d20/`` (each source a folder with its photos, ``labels.json`` and ``LICENSE.txt``;
docs/benchmarks.md says where they come from). Unset, it is ``../shared/datasets`` beside
the repository. The tests never read it: they use the sample in ``tests/data/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SETTING = "DICELENS_DATASETS"
DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


def root() -> Path:
    """The datasets folder: ``$DICELENS_DATASETS``, else ``../shared/datasets`` beside the repository."""
    value = os.environ.get(SETTING)
    return Path(value).expanduser() if value else DEFAULT


def source(name: str) -> Path:
    """The folder of one source, e.g. ``source("real-dice/byler-tray-d6")``.

    :raises SystemExit: with one line naming what is missing and where to put it, when the
        folder or its ``labels.json`` is not there (a clone without the datasets).
    """
    folder = root() / name
    if not (folder / "labels.json").is_file():
        raise SystemExit(
            f"{Path(sys.argv[0]).name}: needs the labelled photos of {name} in {folder}; "
            f"put the datasets there or set {SETTING} to the folder holding real-dice/, "
            "real-polyhedral/ and real-d20/ (docs/benchmarks.md)")
    return folder
