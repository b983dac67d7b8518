"""The web's side of the design's boundary (docs/architecture.md, "the rooms"): the pages and the API talk
to the device through its interface, never to OpenCV: the latest frame comes JPEG-encoded
(device/tray/dispatch.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import web

WEB = Path(web.__file__).parent


def imported(path: Path) -> set[str]:
    """The top-level packages a module imports, wherever in it (a lazy import counts too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_web_module_imports_cv2():
    modules = sorted(WEB.rglob("*.py"))
    assert len(modules) > 10  # the whole package is looked at
    assert [str(m.relative_to(WEB)) for m in modules if "cv2" in imported(m)] == []
