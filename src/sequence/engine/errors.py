"""The engine's exceptions. Every one is a :class:`ValueError` whose message says what is wrong."""


class SequenceError(ValueError):
    """Base class of every error the engine raises on bad input."""


class ConfigError(SequenceError):
    """A game configuration that the rules do not allow (player count, teams, options)."""


class InvalidNotationError(SequenceError):
    """Text that is not valid notation for a card, space, move or position."""


class IllegalMoveError(SequenceError):
    """A well-formed move that is not legal in the current position. The state is unchanged."""


class InvalidPositionError(SequenceError):
    """A position (from notation) that cannot arise: card counts, chip counts, sequences."""


class RecordError(SequenceError):
    """A game record that is malformed or does not replay; the message names the move."""
