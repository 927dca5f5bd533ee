"""A small rating-over-time chart, drawn on the server as SVG: no chart library, no script.

The line is the rating after each rated match, oldest on the left; the
<title> and <desc> say the same in words for whoever cannot see it.
"""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

WIDTH, HEIGHT, PAD = 320, 96, 6


def points_of(values: list[int]) -> list[tuple[float, float]]:
    """Each value as a point of the drawing: evenly spaced, the highest at the top."""
    low, high = min(values), max(values)
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)
    if high == low:  # an unchanged rating: a level line across the middle
        return [(round(PAD + index * step, 1), HEIGHT / 2) for index in range(len(values))]
    return [
        (round(PAD + index * step, 1), round(HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / (high - low), 1))
        for index, value in enumerate(values)
    ]


def described(values: list[int]) -> str:
    return ngettext(
        "Rating after the last rated match: %(last)d.",
        "Rating after each of the last %(count)d rated matches: from %(first)d to %(last)d; "
        "lowest %(low)d, highest %(high)d.", len(values)) % {
        "count": len(values), "first": values[0], "last": values[-1], "low": min(values), "high": max(values)}


def rating_chart(values: list[int], chart_id: str, title: str) -> SafeString:
    """The chart, or an empty string when there is nothing to draw (no rated match yet)."""
    if not values:
        return SafeString("")
    drawn = values if len(values) > 1 else values * 2  # one match: a flat line, not a lone dot
    line = " ".join(f"{x},{y}" for x, y in points_of(drawn))
    last_x, last_y = points_of(drawn)[-1]
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-title {id}-desc"'
        ' preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{desc}</desc>'
        '<polyline class="rating-chart__line" fill="none" points="{line}"/>'
        '<circle class="rating-chart__last" cx="{x}" cy="{y}" r="3"/></svg>',
        w=WIDTH, h=HEIGHT, id=chart_id, title=title, desc=described(values), line=line, x=last_x, y=last_y,
    )
