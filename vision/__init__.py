"""Reading dice in tray photos: an image in, dice readings out (numpy + OpenCV)."""

from vision.annotate import annotate
from vision.errors import InvalidImage, VisionError
from vision.reading import DieReading, TrayReading
from vision.tray import read_tray

__all__ = ["DieReading", "InvalidImage", "TrayReading", "VisionError", "annotate", "read_tray"]
