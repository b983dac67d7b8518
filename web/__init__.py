"""The table page for phones: Flask app, JSON API and live events."""
