"""English dates as the site always wrote them, day first: "5 May 2026", "May 2026"."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
YEAR_MONTH_FORMAT = "F Y"
