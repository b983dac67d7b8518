"""The appliance: cameras, buttons, the roll controller, history and the CLI."""

import os

# OpenCV reads its decoding limit once, when it loads (so no OpenCV import above this):
# photos whose size vision.image.read_image cannot read from the header (formats Pillow
# does not know) stop at vision.image.MAX_PIXELS too. Every `dicelens` command imports
# this package first.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "50000000")
