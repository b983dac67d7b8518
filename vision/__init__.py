"""Reading dice in tray photos: an image in, dice readings out (numpy + OpenCV)."""

from vision.annotate import annotate
from vision.dice import read_dice
from vision.errors import InvalidImage, VisionError
from vision.numerals import NumberedReading, read_numbered
from vision.reading import DieReading, TrayReading
from vision.tray import read_tray

__all__ = ["DieReading", "InvalidImage", "NumberedReading", "TrayReading", "VisionError", "annotate",
           "read_dice", "read_numbered", "read_tray"]
