"""What leaves the database after a write, once it has committed.

Leaf modules: the actions call them, through games/actions/on_commit.py,
with everything they need as arguments; they import no action, and they
send Celery tasks by name.
"""
