"""The request type of a view that only a signed-in user reaches.

``login_required`` (or a check before the call) guarantees ``request.user`` is a real
user; annotating the view with this type lets the type checker know it too.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest

__all__ = ["AuthenticatedHttpRequest"]


class AuthenticatedHttpRequest(HttpRequest):
    user: User
