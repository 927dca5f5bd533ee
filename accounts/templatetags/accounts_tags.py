from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def minutes(duration: timedelta | None) -> int:
    """Whole minutes in a duration, rounded up, so a wait is never understated."""
    if not duration:
        return 0
    return max(1, -(-int(duration.total_seconds()) // 60))
