class IllegalMove(ValueError):
    """A move the rules do not allow now; the message says why, for a person."""
