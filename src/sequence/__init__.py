"""Sequence, Sequence for Kids and Sequence Dice.

The package is layered; each part rests only on the ones before it:

- :mod:`sequence.engine` -- the rules, pure and deterministic (the single source of truth);
- :mod:`sequence.bots` -- players that see only their seat's view;
- :mod:`sequence.cli`, :mod:`sequence.tui`, :mod:`sequence.server`, :mod:`sequence.env` --
  front ends.
"""

__version__ = "0.1.0"
