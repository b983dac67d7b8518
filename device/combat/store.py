"""The fight's file: written whole after every step so that a crash or a power cut
loses no step (temp file, ``fsync``, ``os.replace``, the folder synced), and a file that
cannot be read set aside rather than lost."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path


def write(path: Path, document: dict) -> None:
    """Replace ``path`` with ``document`` as JSON, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        json.dump(document, file, ensure_ascii=False)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    try:  # the rename itself reaches the disk with the folder's entry
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def read(path: Path) -> dict:
    """The document of ``path``.

    :raises OSError: it cannot be read. :raises ValueError: it is not JSON.
    """
    return json.loads(path.read_text(encoding="utf-8"))


def set_aside(path: Path) -> Path:
    """Rename a file that cannot be read to ``<name>.broken-<time>``; returns the new path."""
    broken = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    os.replace(path, broken)
    return broken
