"""Moderation pages (filled in by the next commit)."""

from django.http import HttpRequest, HttpResponse


def _later(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    return HttpResponse("Not available yet.", status=503, content_type="text/plain")


report = my_reports = blocks = suspended = appeal = table_mute = _later
queue = report_detail = act = player = act_on_player = void = log_page = _later
