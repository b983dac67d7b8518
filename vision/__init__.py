"""Reading dice in tray photos: an image in, dice readings out (numpy + OpenCV)."""
