"""One learned network of ``vision/models``, run by onnxruntime (no PyTorch at run time).

onnxruntime rather than OpenCV's dnn module: on one core of the development machine it
runs the numbered-dice networks in about half the time (detector 10.6 → 7.7 ms per
photo, classifier 15.5 → 8.0 ms for 20 crops), with the same outputs (within 3e-6).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime
from numpy.typing import NDArray

_REMEMBERED = threading.local()  # .runs: {(network file, row's shape and digest): {output: row}} while remembering


@contextmanager
def remembering() -> Iterator[None]:
    """While in it, this thread's :meth:`Network.run` runs each input row once: a row (a crop,
    a detector canvas) met again takes the outputs it had. :func:`vision.adapt.fit` reads every
    taught photo several ways, whose passes and crops mostly coincide (outputs of a row differ
    from those of its batch run by float rounding only)."""
    outer = getattr(_REMEMBERED, "runs", None)
    _REMEMBERED.runs = {} if outer is None else outer
    try:
        yield
    finally:
        _REMEMBERED.runs = outer


def to_blob(images: NDArray[Any]) -> NDArray[Any]:
    """N×H×W×3 uint8 BGR → N×3×H×W float32 in [-1, 1], the networks' input."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), np.float32) / 127.5 - 1.0


class Network:
    """An ONNX network loaded on first use; safe to run from several threads.

    It uses as many threads as OpenCV is set to (``cv2.setNumThreads``), read when it is
    loaded: the benchmarks set 1, for one core.

    :param path: the ``.onnx`` file.
    :param what: what the network is, for the error when the file is missing.
    """

    def __init__(self, path: Path, what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._lock = threading.Lock()
        self._session: onnxruntime.InferenceSession | None = None
        self._input = ""  # the input's name, and the outputs' names, read once at loading
        self._outputs: list[str] = []
        self._metadata: dict[str, str] = {}

    def run(self, blob: NDArray[Any]) -> dict[str, NDArray[Any]]:
        """N×3×H×W float32 input (see :func:`to_blob`) → each output by name.

        :raises FileNotFoundError: the network's file is missing.
        """
        return self._run(blob, lambda rows: rows)

    def run_images(self, images: NDArray[Any]) -> dict[str, NDArray[Any]]:
        """N×H×W×3 uint8 BGR images → each output by name, as ``run(to_blob(images))``; while
        remembering, an image is known by its own bytes (a quarter of its float input's) and
        converted only when new (the pip reader's canvases and crops).

        :raises FileNotFoundError: the network's file is missing.
        """
        return self._run(images, to_blob)

    def metadata(self) -> dict[str, str]:
        """The network's own metadata (ONNX metadata_props: what it was trained with that its reader
        must match, such as the numbered classifier's ``crop_scale``).

        :raises FileNotFoundError: the network's file is missing.
        """
        self._loaded()
        return dict(self._metadata)

    def _loaded(self) -> onnxruntime.InferenceSession:
        with self._lock:
            if self._session is None:
                if not self.path.is_file():
                    raise FileNotFoundError(f"{self.what} network missing: {self.path}")
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = max(1, cv2.getNumThreads())
                options.inter_op_num_threads = 1
                self._session = onnxruntime.InferenceSession(str(self.path), options,
                                                             providers=["CPUExecutionProvider"])
                self._input = self._session.get_inputs()[0].name
                self._outputs = [output.name for output in self._session.get_outputs()]
                self._metadata = dict(self._session.get_modelmeta().custom_metadata_map)
            return self._session

    def _run(self, rows: NDArray[Any], blob: Callable[[NDArray[Any]], NDArray[Any]]) -> dict[str, NDArray[Any]]:
        """The outputs of ``blob(rows)``, each row run once while remembering."""
        session = self._loaded()
        runs = getattr(_REMEMBERED, "runs", None)
        if runs is None:
            return dict(zip(self._outputs, session.run(self._outputs, {self._input: blob(rows)}), strict=True))
        rows = np.ascontiguousarray(rows)
        # SHA-1, which CPUs compute in hardware: 1.7 against BLAKE2's 3.0 ms a float detector canvas
        keys = [(self.path, row.dtype.str, row.shape, hashlib.sha1(memoryview(row)).digest()) for row in rows]
        new = [k for k, key in enumerate(keys) if key not in runs]
        if new:
            outputs = session.run(self._outputs, {self._input: blob(rows[new])})
            for j, k in enumerate(new):
                runs[keys[k]] = {name: out[j] for name, out in zip(self._outputs, outputs, strict=True)}
        return {name: np.stack([runs[key][name] for key in keys]) for name in self._outputs}
