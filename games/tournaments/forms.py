"""Forms of clubs and tournaments: they parse and check shapes; services check rules."""

from __future__ import annotations

from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.countries import COUNTRY_CHOICES
from games.tournaments.models import DETAILS_MAX, REASON_MAX, Club, Tournament
from kozel_site import ids

TIME_ZONES = [(name, name) for name in sorted(available_timezones())]
CLOCK_CHOICES = [("", _("No clock")), ("15", "15 s"), ("30", "30 s"), ("60", "60 s")]


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60, min_length=2)
    slug = forms.CharField(label=_("Address"), max_length=40,
                           help_text=_("Your club's page will be /club/&lt;address&gt;/: "
                                     "lower-case letters, digits and hyphens."))
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                                  max_length=2000, label=_("Description"))
    country = forms.ChoiceField(label=_("Country"), choices=[("", "—"), *COUNTRY_CHOICES],
                                required=False)
    language = forms.ChoiceField(choices=settings.LANGUAGES, initial=settings.LANGUAGE_CODE,
                                 label=_("Language"))
    join_policy = forms.ChoiceField(label=_("How people join"), choices=Club.JoinPolicy.choices)
    time_zone = forms.ChoiceField(
        label=_("Time zone"), initial="UTC", choices=lambda: TIME_ZONES, required=False,
        help_text=_("The club's clock: a weekly event keeps its local hour all year."))


class ClubEditForm(ClubForm):
    # Django drops an inherited form field set to None; the stubs allow only fields here.
    slug = None  # type: ignore[assignment]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, min_length=2)
    format = forms.ChoiceField(label=_("Format"), choices=[
        ("swiss", _("Pairs · Swiss")), ("round_robin", _("Pairs · round robin (up to 10 pairs)")),
        ("duplicate", _("Pairs · duplicate (the same boards at every table)")),
        ("rotation", _("Individual · new partner every round")),
        ("whist", _("Individual · whist schedule (8, 9, 12, 13, 16 or 17 players)"))])
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=3,
                                help_text=_("Swiss and individual rounds; a round robin and a "
                                          "whist schedule set their own."))
    target = forms.TypedChoiceField(label=_("Match target (loss points)"), coerce=int,
                                    choices=[(6, "6"), (12, "12")], initial=12)
    games_limit = forms.IntegerField(
        label=_("Or a fixed number of games per match"), min_value=1, max_value=20,
        required=False, help_text=_("Then fewer loss points after those games wins the "
        "match (equal is a tie); a team reaching 18 (12 if rated) still ends it early."))
    boards_per_round = forms.IntegerField(
        label=_("Boards per round (duplicate)"), min_value=1, max_value=8, required=False,
        help_text=_("Duplicate: every table plays these deals each round, each one game; "
                    "no series to 12 across boards."))
    duplicate_scoring = forms.ChoiceField(
        label=_("Duplicate scoring"), choices=Tournament.Scoring.choices, required=False,
        initial=Tournament.Scoring.MATCHPOINTS,
        help_text=_("The difference needs exactly 4 pairs (two tables)."))
    duplicate_basis = forms.ChoiceField(label=_("Matchpoints compare"),
                                        choices=Tournament.Basis.choices, required=False,
                                        initial=Tournament.Basis.CARD)
    turn_seconds = forms.ChoiceField(label=_("Turn clock"), choices=CLOCK_CHOICES, required=False)
    starts_at = forms.DateTimeField(
        required=False, label=_("Starts at"),
        help_text=_("In your time zone (shown below); the site stores it in UTC. "
                    "Empty: a director starts round 1."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    # The director's IANA time zone, filled in by the page from the browser
    # (static/js/tournaments/timezone.js); without it the time is read as UTC.
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput,
                                label=_("Time zone"))
    checkin_minutes = forms.IntegerField(label=_("Check-in window (minutes)"), min_value=1,
                                         max_value=60, initial=5)
    round_minutes = forms.IntegerField(label=_("Round time limit (minutes)"), min_value=5,
                                       max_value=600, initial=60)
    rated = forms.BooleanField(required=False, help_text=_("Rated events move ratings like "
                               "ranked series: people only, 15 or 30 s clock, target 12."),
                               label=_("Rated"))
    bots_allowed = forms.BooleanField(label=_("Bots may fill a missing seat or pair"),
                                      required=False)
    description = forms.CharField(label=_("Description"), required=False,
                                  max_length=DETAILS_MAX,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    rules_text = forms.CharField(label=_("Rules"), required=False, max_length=DETAILS_MAX,
                                 widget=forms.Textarea(attrs={"rows": 3}))
    prizes = forms.CharField(label=_("Prizes"), required=False, max_length=DETAILS_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}))

    absent_policy = forms.ChoiceField(
        label=_("An absent entry (nobody of it checked in)"), choices=Tournament.Absence.choices,
        initial=Tournament.Absence.FORFEIT, required=False,
        help_text=_("Either way it loses that match by forfeit; a bot needs bots allowed, "
                    "and a rated event has none."))
    absent_withdraw_after = forms.IntegerField(
        label=_("Withdraw an entry absent this many rounds"), min_value=0, max_value=30,
        initial=2, required=False, help_text=_("0: never."))
    break_minutes = forms.IntegerField(label=_("Break between rounds (minutes)"), min_value=0,
                                       max_value=60, initial=1, required=False)
    seed_by_rating = forms.BooleanField(
        label=_("Seed round 1 by rating"), required=False,
        help_text=_("Swiss: the top half by rating meets the bottom half in round 1."))

    def clean_time_zone(self) -> str:
        name = self.cleaned_data.get("time_zone") or "UTC"
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError(_("Unknown time zone: %(zone)s.") % {
                "zone": name[:64]}) from None
        return str(name)

    def clean(self) -> dict[str, Any]:
        """The start time as the director meant it: the wall-clock time they picked, in
        their time zone, stored as the instant in UTC."""
        data = super().clean() or {}
        # A setting left empty takes its default (the form's initial value).
        for name in ("absent_policy", "absent_withdraw_after", "break_minutes",
                     "duplicate_scoring", "duplicate_basis"):
            if data.get(name) in (None, ""):
                data[name] = self.fields[name].initial
        if data.get("format") == "duplicate" and data.get("boards_per_round") is None:
            self.add_error("boards_per_round", _("A duplicate event needs its number of "
                                                 "boards per round (1 to 8)."))
        elif data.get("format") not in ("duplicate", None):
            data["boards_per_round"] = None  # the field is for duplicate events only
        when, zone = data.get("starts_at"), data.get("time_zone")
        if when is not None and zone:
            local = when.replace(tzinfo=None).replace(tzinfo=ZoneInfo(zone))
            data["starts_at"] = local.astimezone(UTC)
        return data


class DetailsForm(forms.Form):
    """The event's texts, edited on its page by its directors."""

    description = forms.CharField(label=_("Description"), required=False,
                                  max_length=DETAILS_MAX, strip=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    rules_text = forms.CharField(label=_("Rules"), required=False, max_length=DETAILS_MAX,
                                 strip=False, widget=forms.Textarea(attrs={"rows": 3}))
    prizes = forms.CharField(label=_("Prizes"), required=False, max_length=DETAILS_MAX,
                             strip=False, widget=forms.Textarea(attrs={"rows": 2}))


class RegisterForm(forms.Form):
    partner = forms.CharField(label=_("Partner"), max_length=150, required=False,
                              help_text=_("Your partner's username (pairs events): they confirm."))
    email_opt_in = forms.BooleanField(label=_("Email me when my rounds start"), required=False)


class ResultForm(forms.Form):
    match_id = ids.IdField(widget=forms.HiddenInput)
    outcome = forms.ChoiceField(choices=[("A", _("Side A won")), ("B", _("Side B won")),
                                         ("tie", _("Tie")), ("none", _("Both forfeit"))],
                                label=_("Result"))
    loss_a = forms.IntegerField(min_value=0, max_value=60, initial=0,
                                label=_("Side A's loss points"))
    loss_b = forms.IntegerField(min_value=0, max_value=60, initial=0,
                                label=_("Side B's loss points"))
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)
