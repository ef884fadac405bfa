"""The ``sequence`` command."""
