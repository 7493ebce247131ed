"""The rating-history chart, drawn on the server as inline SVG (no JavaScript).

Its axes speak the page's locale: the rating ticks as numbers of that locale (Django's
``number_format``: "1 234" in Russian), the dates below the plot and in each point's
tooltip in its date formats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

WIDTH, HEIGHT, PAD_X, PAD_Y = 600, 180, 44, 16
DATE_ROW = 14  # the x axis: the first and the last series' dates, below the plot


@dataclass(frozen=True)
class HistoryPoint:
    """The displayed rating after one rated series, and how much that series moved it."""

    at: datetime
    display: int
    delta: int


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
    # Dates and numbers in the page's locale: "5 May 2026", "5 мая 2026 г.".
    dots = format_html_join(
        "", '<circle cx="{}" cy="{}" r="2.5"><title>{}: {} ({})</title></circle>',
        ((f"{x(i + 1):.1f}", f"{y(p.display):.1f}", date_format(p.at, "DATE_FORMAT"),
          number_format(p.display), f"{p.delta:+d}") for i, p in enumerate(points)))
    label = gettext("Rating after each ranked series: from %(first)s to %(last)s") % {
        "first": number_format(values[0]), "last": number_format(values[-1])}
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<line x1="{px}" y1="{top}" x2="{px}" y2="{bottom}" class="axis"/>'
        '<line x1="{px}" y1="{bottom}" x2="{right}" y2="{bottom}" class="axis"/>'
        '<text x="{tx}" y="{ty_high}" class="tick">{high}</text>'
        '<text x="{tx}" y="{ty_low}" class="tick">{low}</text>'
        '<text x="{px}" y="{ty_date}" class="tick">{start}</text>'
        '<text x="{right}" y="{ty_date}" class="tick" text-anchor="end">{end}</text>'
        '<polyline points="{path}" fill="none"/>{dots}</svg>',
        w=WIDTH, h=HEIGHT + DATE_ROW, label=label, px=PAD_X - 6, top=PAD_Y,
        bottom=HEIGHT - PAD_Y, right=WIDTH - 8, tx=2, ty_high=PAD_Y + 4,
        ty_low=HEIGHT - PAD_Y + 4, ty_date=HEIGHT - PAD_Y + DATE_ROW,
        high=number_format(round(high)), low=number_format(round(low)),
        start=date_format(points[0].at, "SHORT_DATE_FORMAT"),
        end=date_format(points[-1].at, "SHORT_DATE_FORMAT"), path=path, dots=dots)
