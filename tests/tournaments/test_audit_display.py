"""The audit log as a director reads it: a detail that is a list of names reads as the
names, a result as its figures, never as Python's repr (issue 38's screenshots showed
``absent=['gus & hal']``); every value stays escaped."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone

from games.tournaments.models import AuditEntry
from games.tournaments.templatetags.audit import audit_value


def _render(**details) -> str:
    entry = AuditEntry(action="match.forfeit", details=details, created_at=timezone.now())
    return render_to_string("tournaments/_audit.html", {"audit": [entry]})


def test_a_list_of_names_reads_as_the_names():
    html = _render(round=1, absent=["gus & hal"], missing=["gus", "hal"])
    assert "round=1, absent=gus &amp; hal, missing=gus, hal" in html
    assert "[" not in html and "&#x27;" not in html


def test_a_result_reads_as_its_figures():
    html = _render(after={"outcome": "B", "loss_a": 2, "loss_b": 0})
    assert "after=(outcome=B, loss_a=2, loss_b=0)" in html


def test_values_stay_escaped():
    html = _render(absent=["<b>eve</b> & fay"])
    assert "&lt;b&gt;eve&lt;/b&gt; &amp; fay" in html and "<b>eve" not in html


def test_the_filter_leaves_plain_values_alone():
    assert audit_value(3) == "3" and audit_value("ann & ben") == "ann & ben"
    assert audit_value([["a", "b"], "c"]) == "a, b, c"
