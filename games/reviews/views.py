"""Ask for a review of a finished game's seat, and read it (JSON for the replay page)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Game

from . import selectors, services
from .models import Review


class SeatForm(forms.Form):
    """The seat to review: 0–3 (the page shows 1–4)."""

    seat = forms.TypedChoiceField(choices=[(str(s), str(s + 1)) for s in range(4)], coerce=int)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def request_review(request: HttpRequest, game_id: int) -> HttpResponse:
    """Queue the review (or find the one made); a page form comes back to the replay."""
    form = SeatForm(request.POST)
    if not form.is_valid():
        message = _("Choose a seat from 1 to 4.")
        if _wants_json(request):
            return JsonResponse({"error": message}, status=400)
        messages.error(request, message)
        return redirect("replay", game_id=game_id)
    try:
        review = services.request_review(request.user, game_id, form.cleaned_data["seat"])
    except services.ReviewRefused as exc:
        if _wants_json(request):
            return JsonResponse({"error": str(exc)}, status=403)
        messages.error(request, str(exc))
        return redirect("replay", game_id=game_id)
    if _wants_json(request):
        return JsonResponse(selectors.review_dict(review), status=202)
    return redirect(f"/game/{game_id}/replay/?review={review.seat}#kz-review")


@require_GET
def review_json(request: HttpRequest, game_id: int, seat: int) -> JsonResponse:
    """One seat's review: its status, then its decisions (the replay page polls this)."""
    game = get_object_or_404(Game.objects.select_related("series__table"), pk=game_id)
    if not 0 <= seat <= 3 or not selectors.may_see_reviews(game, request.user):
        raise Http404(_("There is no such review."))
    review = Review.objects.filter(game=game, seat=seat).first()
    if review is None:
        raise Http404(_("There is no such review."))
    return JsonResponse(selectors.review_dict(review))
