"""Extension points through which another app (moderation) governs play, declared here so
that games never imports it (lila: moderation depends on games, never the reverse).

``settings.KOZEL_POLICY`` names a subclass of :class:`TablePolicy` (the allauth adapter
pattern, like ``ACCOUNT_ADAPTER``); the default allows everything. Each hook is called
by one games service, inside that service's transaction where it has one, and refuses
by raising a :class:`~games.errors.ServiceError`, so a refusal changes nothing.

- ``check_chat(user, table, text) -> str``: before a chat line is stored
  (services/chat.post_message); returns the text to store or raises (a chat mute, the
  chat filter). ``after_chat(message)``: after it is stored, in the same transaction
  (a line the filter flags for review).
- ``hidden_chat_senders(user, table_id) -> set[int] | None``: senders whose lines
  ``user`` does not see at this table (people they blocked); ``None`` hides every line
  (they muted the table's chat). Used by the snapshot and by the consumer for live lines.
  ``hidden_chat_senders_named(user, table_id) -> dict[int, str] | None``: the same, by
  id with each sender's username (the consumer matches live lines by username); the
  default reads the usernames after ``hidden_chat_senders``, a policy may read both in
  one query.
- ``check_seat(user, table)``: before ``user`` sits at ``table`` (services/tables).
- ``check_partner(user, other)``: before a pair-queue invitation between the two is sent
  or accepted (games/queue).
- ``check_ranked(user)``: before ``user`` joins the ranked queue (games/queue).
- ``blocked_pairs(users) -> set[frozenset[int]]``: the pairs of ids among ``users`` who
  must never sit at one table (one blocked the other), read by the queue matchers (ranked
  and casual) before they plan. The default asks ``check_partner`` of every pair, so any
  policy that refuses a partnership also keeps the two apart; a policy may answer in one
  query instead.
- ``user_group(user_id) -> str``: the channel-layer group every table socket of a user
  joins (games/consumers.py); a sanction sends ``user.closed`` or ``user.chat_filter``
  there.

Besides the policy, two registries of read-only functions, registered once in an app's
``ready()`` (functions of the code, not state: every process registers the same ones):

- :func:`register_table_hold`: an app that keeps tables waiting for people on purpose
  (tournaments: a round's tables during its check-in) tells the empty-table sweep
  (services/sweep.close_empty_tables) which of them to leave open.
  ``hold(table_ids, now) -> set[int]``; a table is closed only when no hold keeps it.
- :func:`register_result_corrections`: an app that may correct the result of an ended
  series without touching the series (tournaments: a director's "correct a result")
  tells the ratings (games/ratings/services.series_result) which result to rate.
  ``corrections(series_ids) -> {series_id: winner}``, winner "A", "B" or "" (a tie or
  no result); the series stays the record of what was played (verify_games checks it).
- :func:`register_table_event`: an app whose events play at ordinary tables
  (tournaments: a match's table) says which event a table belongs to, so the table
  speaks of the event (its name and link, "Game 2 of 4", no "Leave": the seats are the
  event's). ``event(table_id) -> dict | None``; the dict is sent in the snapshot as is.
- :func:`register_deal_plan`: an app that deals a table's games from its own stored
  seeds (tournaments: duplicate boards, the same deal at every table) tells the series
  service which seed, dealer and first player game ``number`` at ``table_id`` takes.
  ``plan(table_id, number) -> (seed, dealer, leader) | () | None``: ``()``
  (:data:`NO_MORE_GAMES`) says the series deals no game ``number`` (a match of a fixed
  number of games has played them; the app ends the series), None leaves the deal to
  the series.
- :func:`register_record_hold`: an app that must keep a *finished* game's record (its
  seed, every hand, its result) secret for a while (tournaments: a duplicate board until
  every table has played it, R19 across tables) says which games are held; every place
  that would reveal them (the snapshot's end-of-game reveal, the replay, the record, the
  API) asks :func:`held_records` first. ``hold(game_ids) -> set[int]``.
- :func:`register_record_release`: the other way, games of private tables whose
  records an app publishes to everyone (a duplicate board's traveller links to every
  table's replay once every table has played it). ``release(game_ids) -> set[int]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import lru_cache
from itertools import combinations
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.module_loading import import_string

from games.errors import ServiceError


def user_group(user_id: int) -> str:
    """The group of every open table socket of one signed-in user."""
    return f"user.{user_id}"


class TablePolicy:
    """The default: nothing is refused, nothing hidden."""

    def check_chat(self, user: Any, table: Any, text: str) -> str:
        return text

    def after_chat(self, message: Any) -> None:
        return None

    def after_refused_chat(self, user: Any, table_id: int, text: str,
                           refusal: Exception) -> None:
        """A chat line was refused (``refusal``) and nothing of it was stored: called
        after the rollback, so that a refusal worth keeping can be kept."""
        return None

    def hidden_chat_senders(self, user: Any, table_id: int) -> set[int] | None:
        return set()

    def hidden_chat_senders_named(self, user: Any, table_id: int) -> dict[int, str] | None:
        ids = self.hidden_chat_senders(user, table_id)
        if ids is None:
            return None
        return dict(get_user_model().objects.filter(pk__in=ids)
                    .values_list("pk", "username"))

    def check_seat(self, user: Any, table: Any) -> None:
        return None

    def check_partner(self, user: Any, other: Any) -> None:
        return None

    def check_ranked(self, user: Any) -> None:
        return None

    def blocked_pairs(self, users: Sequence[Any]) -> set[frozenset[int]]:
        """Pairs among ``users`` who may not share a table: those ``check_partner``
        refuses (a block either way, under moderation). One check per pair: queues are
        short, and the matcher runs off the request path."""
        apart: set[frozenset[int]] = set()
        for a, b in combinations(users, 2):
            try:
                self.check_partner(a, b)
            except ServiceError:
                apart.add(frozenset((a.pk, b.pk)))
        return apart


@lru_cache(maxsize=4)
def _policy_for(path: str) -> TablePolicy:
    return import_string(path)() if path else TablePolicy()


def policy() -> TablePolicy:
    """The configured policy (``settings.KOZEL_POLICY``), one instance per path."""
    return _policy_for(getattr(settings, "KOZEL_POLICY", "") or "")


TableHold = Callable[[list[int], datetime], set[int]]
_holds: list[TableHold] = []


def register_table_hold(hold: TableHold) -> None:
    """Register ``hold`` (once; registering the same function again changes nothing).
    Holds are functions of the code, not state: every process registers the same ones
    when its apps are ready."""
    if hold not in _holds:
        _holds.append(hold)


def held_tables(table_ids: Iterable[int], now: datetime) -> set[int]:
    """The tables of ``table_ids`` that a registered hold keeps open at ``now``."""
    ids = list(table_ids)
    held: set[int] = set()
    if ids:
        for hold in _holds:
            held |= hold(ids, now)
    return held


ResultCorrections = Callable[[list[int]], dict[int, str]]
_corrections: list[ResultCorrections] = []


def register_result_corrections(corrections: ResultCorrections) -> None:
    """Register ``corrections`` (once; registering it again changes nothing)."""
    if corrections not in _corrections:
        _corrections.append(corrections)


def corrected_results(series_ids: Iterable[int]) -> dict[int, str]:
    """The corrected winners ("A", "B", "") of those of ``series_ids`` an app corrected."""
    ids = list(series_ids)
    out: dict[int, str] = {}
    if ids:
        for corrections in _corrections:
            out.update(corrections(ids))
    return out


# What a ranked series did to its players' ratings, read by the table's snapshot so the
# series-end card can show it (games never imports the ratings app that stores it).
SeriesRatings = Callable[[int], dict[str, Any]]
_series_ratings: list[SeriesRatings] = []


def register_series_ratings(ratings: SeriesRatings) -> None:
    """Register ``ratings`` (once; registering it again changes nothing).
    ``ratings(series_id)`` answers ``{"status": "pending" | "rated" | "unrated",
    "changes": [{"position", "before", "after", "delta"}, ...]}``."""
    if ratings not in _series_ratings:
        _series_ratings.append(ratings)


def series_ratings(series_id: int) -> dict[str, Any] | None:
    """What the registered app stored about ``series_id``'s rating (None: no app rates)."""
    for ratings in _series_ratings:
        return ratings(series_id)
    return None


# The event a table belongs to (a tournament's match), read with the table's facts.
TableEvent = Callable[[int], dict[str, Any] | None]
_table_events: list[TableEvent] = []


def register_table_event(event: TableEvent) -> None:
    """Register ``event`` (once; registering it again changes nothing).
    ``event(table_id)`` answers None (an ordinary table) or a dict of plain values:
    ``{"name", "url", "round", "match", "games_limit", "target"}``."""
    if event not in _table_events:
        _table_events.append(event)


def table_event(table_id: int) -> dict[str, Any] | None:
    """The event ``table_id`` belongs to, as the registered app says (None: none)."""
    for event in _table_events:
        found = event(table_id)
        if found is not None:
            return found
    return None


# Deals an app plans for a table's games (duplicate boards), asked when a game is dealt.
DealPlan = Callable[[int, int], "tuple[int, int, int] | tuple[()] | None"]
#: A deal plan's answer for a game that must not be dealt: the table's series has played
#: its fixed number of games (the app ends it; a next-game task must not deal meanwhile).
NO_MORE_GAMES: tuple[()] = ()
_deal_plans: list[DealPlan] = []


def register_deal_plan(plan: DealPlan) -> None:
    """Register ``plan`` (once; registering it again changes nothing)."""
    if plan not in _deal_plans:
        _deal_plans.append(plan)


def planned_deal(table_id: int, number: int) -> tuple[int, int, int] | tuple[()] | None:
    """The (seed, dealer, first leader) an app planned for game ``number`` at
    ``table_id``; :data:`NO_MORE_GAMES` when no such game may be dealt; or None: the
    series draws its own (R4, R5, R15)."""
    for plan in _deal_plans:
        found = plan(table_id, number)
        if found is not None:
            return found
    return None


# Finished games whose record an app keeps secret for now (R19 across a duplicate's tables).
RecordHold = Callable[[list[int]], set[int]]
_record_holds: list[RecordHold] = []


def register_record_hold(hold: RecordHold) -> None:
    """Register ``hold`` (once; registering it again changes nothing)."""
    if hold not in _record_holds:
        _record_holds.append(hold)


def _answered(askers: list[Callable[[list[int]], set[int]]], game_ids: Iterable[int]
              ) -> set[int]:
    """The games of ``game_ids`` that any of ``askers`` names (none asked for no game)."""
    ids = [i for i in game_ids if i is not None]
    return set().union(*(ask(ids) for ask in askers)) if ids else set()


def held_records(game_ids: Iterable[int]) -> set[int]:
    """Those of ``game_ids`` whose seed, hands and result must not be shown yet, even
    though the game is over: every reader of a finished game's record asks this."""
    return _answered(_record_holds, game_ids)


def record_is_public(game_id: int) -> bool:
    """A finished game's record may be shown (no app holds it back)."""
    return game_id not in held_records([game_id])


RecordRelease = Callable[[list[int]], set[int]]
_record_releases: list[RecordRelease] = []


def register_record_release(release: RecordRelease) -> None:
    """Register ``release`` (once; registering it again changes nothing)."""
    if release not in _record_releases:
        _record_releases.append(release)


def released_records(game_ids: Iterable[int]) -> set[int]:
    """The games of ``game_ids`` (of private tables) whose record an app publishes to all."""
    return _answered(_record_releases, game_ids)
