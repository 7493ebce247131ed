"""Reads about players. Never writes: a user without a profile row yet gets an unsaved,
empty one, so a page view never creates data."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist

from accounts.models import Profile
from games.ratings.selectors import totals


@dataclass(frozen=True)
class ProfileStats:
    """The numbers on a public profile.

    ``goats`` counts series this player's team lost (R18); ``eggs`` counts 60–60 games
    this player took part in (R17); ``goats_with_eggs`` the goats of series with eggs.
    """

    games_played: int = 0
    series_won: int = 0
    series_lost: int = 0
    goats: int = 0
    eggs: int = 0
    games_won: int = 0
    games_lost: int = 0
    goats_with_eggs: int = 0


def profile_stats(user: User) -> ProfileStats:
    """The player's game statistics for the public profile (one query).

    Counted from the per-player series records the ratings app writes when a series
    finishes (games/ratings), ranked and casual alike; a voided series no
    longer counts. A player who left a series counts it as lost.
    """
    t = totals(user)
    return ProfileStats(games_played=t.games_played, series_won=t.series_won,
                        series_lost=t.series_lost, goats=t.goats, eggs=t.eggs,
                        games_won=t.games_won, games_lost=t.games_lost,
                        goats_with_eggs=t.goats_with_eggs)


def profile_for(user: User) -> Profile:
    """The user's profile, or an unsaved blank one if the row does not exist yet.

    Users created outside sign-up get their row from an on-commit hook, which a page
    may beat; this keeps such pages working without writing on a read.
    """
    try:
        return user.profile
    except ObjectDoesNotExist:
        return Profile(user=user)


def user_by_username(username: str) -> User | None:
    """The user with exactly this username, else the only case-insensitive match, else None.

    allauth keeps usernames unique regardless of case, so the fallback is unambiguous
    for accounts created through sign-up; it lets ``/@/Alice`` find ``alice``.
    """
    users = get_user_model().objects.select_related("profile")
    exact = users.filter(username=username).first()
    if exact is not None:
        return exact
    matches = list(users.filter(username__iexact=username)[:2])
    return matches[0] if len(matches) == 1 else None
