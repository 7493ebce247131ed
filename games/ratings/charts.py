"""The rating-history chart, drawn on the server as inline SVG (no JavaScript)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from games.ratings.selectors import HistoryPoint

WIDTH, HEIGHT, PAD_X, PAD_Y = 600, 180, 44, 16


def history_svg(points: Sequence[HistoryPoint]) -> SafeString:
    """A line of the displayed rating after each rated series (oldest on the left)."""
    if not points:
        return mark_safe("")
    values = [points[0].display - points[0].delta] + [p.display for p in points]
    low, high = min(values), max(values)
    if high - low < 40:
        middle = (high + low) / 2
        low, high = middle - 20, middle + 20
    span_x = max(1, len(values) - 1)

    def x(i: int) -> float:
        return PAD_X + (WIDTH - PAD_X - 8) * i / span_x

    def y(v: float) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (high - v) / (high - low)

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = format_html_join(
        "", '<circle cx="{}" cy="{}" r="2.5"><title>{}: {} ({})</title></circle>',
        ((f"{x(i + 1):.1f}", f"{y(p.display):.1f}", p.at.strftime("%-d %b %Y"), p.display,
          f"{p.delta:+d}") for i, p in enumerate(points)))
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-label="Rating after each ranked series: from {first} to {last}">'
        '<line x1="{px}" y1="{top}" x2="{px}" y2="{bottom}" class="axis"/>'
        '<text x="{tx}" y="{ty_high}" class="tick">{high}</text>'
        '<text x="{tx}" y="{ty_low}" class="tick">{low}</text>'
        '<polyline points="{path}" fill="none"/>{dots}</svg>',
        w=WIDTH, h=HEIGHT, first=values[0], last=values[-1], px=PAD_X - 6, top=PAD_Y,
        bottom=HEIGHT - PAD_Y, tx=2, ty_high=PAD_Y + 4, ty_low=HEIGHT - PAD_Y + 4,
        high=round(high), low=round(low), path=path, dots=dots)
