"""The move path's hand-written SQL: the locked read of a match with its table,
seats and people, and the write of a move's log row with the new snapshot."""

from .move_rows import locked_match_with_seats, log_move_and_store, match_with_seats, moved_fields

__all__ = ["locked_match_with_seats", "log_move_and_store", "match_with_seats", "moved_fields"]
