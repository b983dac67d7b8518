"""The tests' stand-ins for the device, typed against web/controller.py."""
