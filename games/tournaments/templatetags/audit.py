"""``{{ value|audit_value }}``: one detail of an audit-log entry as a reader reads it.

The details are stored as JSON (names, numbers, lists of names, a result as a small
mapping); rendered as they are, a list would show as Python's ``['gus & hal']`` and a
result as ``{'outcome': 'B', ...}``. This writes ``gus & hal`` and
``(outcome=B, loss_a=2, loss_b=0)`` instead (escaped by the template like any value).
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def audit_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(audit_value(item) for item in value)
    if isinstance(value, dict):
        return "(" + ", ".join(f"{key}={audit_value(item)}"
                               for key, item in value.items()) + ")"
    return str(value)
