"""Forms of clubs and tournaments: they parse and check shapes; services check rules."""

from __future__ import annotations

from django import forms
from django.conf import settings

from accounts.countries import COUNTRY_CHOICES
from games.models import BotLevel
from games.tournaments.models import Club, Tournament

CLOCK_CHOICES = [("", "No clock"), ("15", "15 s"), ("30", "30 s"), ("60", "60 s")]


class ClubForm(forms.Form):
    name = forms.CharField(max_length=60, min_length=2)
    slug = forms.CharField(label="Address", max_length=40,
                           help_text="Your club's page will be /club/&lt;address&gt;/: "
                                     "lower-case letters, digits and hyphens.")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                                  max_length=2000)
    country = forms.ChoiceField(choices=[("", "—"), *COUNTRY_CHOICES], required=False)
    language = forms.ChoiceField(choices=settings.LANGUAGES, initial=settings.LANGUAGE_CODE)
    join_policy = forms.ChoiceField(label="How people join", choices=Club.JoinPolicy.choices)


class ClubEditForm(ClubForm):
    slug = None  # type: ignore[assignment]


class ReasonForm(forms.Form):
    user_id = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(max_length=200)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80, min_length=2)
    format = forms.ChoiceField(choices=[
        ("swiss", "Pairs · Swiss"), ("round_robin", "Pairs · round robin (up to 10 pairs)"),
        ("rotation", "Individual · new partner every round"),
        ("whist", "Individual · whist schedule (8, 9, 12, 13, 16 or 17 players)")])
    rounds = forms.IntegerField(min_value=1, max_value=30, initial=3,
                                help_text="Swiss and individual rounds; a round robin and a "
                                          "whist schedule set their own.")
    target = forms.TypedChoiceField(label="Match target (loss points)", coerce=int,
                                    choices=[(6, "6"), (12, "12")], initial=12)
    games_limit = forms.IntegerField(
        label="Or a fixed number of games per match", min_value=1, max_value=20,
        required=False, help_text="Then fewer loss points after those games wins the "
        "match (equal is a tie); a team reaching 18 (12 if rated) still ends it early.")
    turn_seconds = forms.ChoiceField(label="Turn clock", choices=CLOCK_CHOICES, required=False)
    starts_at = forms.DateTimeField(required=False, help_text="UTC, e.g. 2026-12-31 19:00. "
                                    "Empty: a director starts round 1.",
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    checkin_minutes = forms.IntegerField(label="Check-in window (minutes)", min_value=1,
                                         max_value=60, initial=5)
    round_minutes = forms.IntegerField(label="Round time limit (minutes)", min_value=5,
                                       max_value=600, initial=60)
    rated = forms.BooleanField(required=False, help_text="Rated events move ratings like "
                               "ranked series: people only, 15 or 30 s clock, target 12.")
    bots_allowed = forms.BooleanField(label="Bots may fill a missing seat or pair",
                                      required=False)


class RegisterForm(forms.Form):
    partner = forms.CharField(max_length=150, required=False,
                              help_text="Your partner's username (pairs events): they confirm.")
    email_opt_in = forms.BooleanField(label="Email me when my rounds start", required=False)


class BotEntryForm(forms.Form):
    level = forms.ChoiceField(choices=BotLevel.choices, initial=BotLevel.CASUAL)


class ResultForm(forms.Form):
    match_id = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    outcome = forms.ChoiceField(choices=[("A", "Side A won"), ("B", "Side B won"),
                                         ("tie", "Tie"), ("none", "Both forfeit")])
    loss_a = forms.IntegerField(min_value=0, max_value=60, initial=0)
    loss_b = forms.IntegerField(min_value=0, max_value=60, initial=0)
    reason = forms.CharField(max_length=200)


class PairForm(forms.Form):
    first = forms.IntegerField(min_value=1)
    second = forms.IntegerField(min_value=1)


class EntryActionForm(forms.Form):
    entry_id = forms.IntegerField(min_value=1)
    reason = forms.CharField(max_length=200, required=False)


class SubstituteForm(forms.Form):
    entry_id = forms.IntegerField(min_value=1)
    old = forms.CharField(max_length=150, label="Player leaving")
    new = forms.CharField(max_length=150, label="Player coming in")
    reason = forms.CharField(max_length=200)


def tournament_format_kind(fmt: str) -> str:
    return (Tournament.Kind.PAIRS if fmt in ("swiss", "round_robin")
            else Tournament.Kind.INDIVIDUAL)
