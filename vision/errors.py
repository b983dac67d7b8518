"""Errors raised by vision/."""

from __future__ import annotations


class VisionError(Exception):
    """Base class of every error raised by vision/."""


class InvalidImage(VisionError, ValueError):
    """The input is not an image: not an H×W×3 (or H×W) uint8 array."""
