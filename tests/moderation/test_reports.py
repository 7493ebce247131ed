"""Reports: validated, context attached, rate-limited; the reporter sees status only."""

from __future__ import annotations

import pytest
from django.test import override_settings

from accounts.moderation.models import Report
from accounts.moderation.services import reports, sanctions
from accounts.moderation.services.reports import ReportLimitError
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.models import ChatMessage, Conduct

pytestmark = pytest.mark.django_db


def say(table, user, text):
    """A stored line (straight to the row: the chat service's rate limit is not the
    subject here)."""
    return ChatMessage.objects.create(table=table, user=user, text=text)


def test_a_chat_report_carries_the_chat_around_the_line(cast, playing_table):
    for i in range(14):
        say(playing_table, cast.alice if i % 2 else cast.carol, f"line {i}")
    bad = say(playing_table, cast.bob, "you all play like bots")
    for i in range(3):
        say(playing_table, cast.dan, f"after {i}")
    report = reports.file_report(cast.alice, "bob", "abuse", "Rude again",
                                 source="chat", message_id=bad.pk)
    context = report.context
    texts = [line["text"] for line in context["chat"]]
    assert texts == [f"line {i}" for i in range(4, 14)] + ["you all play like bots"] + \
        [f"after {i}" for i in range(3)]
    assert report.table_id == playing_table.pk and report.chat_message_id == bad.pk
    assert report.series_id and report.game_id and context["series"]["ranked"] is False
    assert context["conduct"] == {"timeouts_90d": 0, "abandons_90d": 0}
    assert report.status == Report.Status.OPEN and report.reporter == cast.alice


def test_a_seat_report_names_the_series_and_its_conduct(cast, playing_table):
    series = playing_table.series.get()
    Conduct.objects.create(user=cast.dan, series=series, position=3,
                           kind=Conduct.Kind.TIMEOUT, reason=Conduct.Reason.CLOCK)
    report = reports.file_report(cast.bob, cast.dan, "stalling", "",
                                 source="seat", table_id=playing_table.pk)
    assert report.series == series and report.context["conduct"]["timeouts_90d"] == 1


@pytest.mark.parametrize("kwargs, error", [
    ({"reported": "nobody-by-that-name"}, NotFoundError),
    ({"reported": "alice"}, InvalidRequestError),             # yourself
    ({"category": "appeal"}, InvalidRequestError),            # not a reporter's category
    ({"category": "other", "text": ""}, InvalidRequestError),  # "other" needs words
    ({"text": "x" * 1001}, InvalidRequestError),
    ({"text": ["a list"]}, InvalidRequestError),
    ({"source": "filter"}, InvalidRequestError),
    ({"message_id": "abc"}, InvalidRequestError),
    ({"message_id": 10**9}, NotFoundError),
    ({"table_id": True}, InvalidRequestError),
    ({"series_id": 10**9}, NotFoundError),
])
def test_bad_reports_are_refused_and_change_nothing(cast, playing_table, kwargs, error):
    args = {"reported": "bob", "category": "abuse", "text": "", "source": "profile"} | kwargs
    with pytest.raises(error):
        reports.file_report(cast.alice, args.pop("reported"), args.pop("category"),
                            args.pop("text"), **args)
    assert not Report.objects.exists()


def test_a_line_that_is_not_the_reported_players_is_refused(cast, playing_table):
    line = say(playing_table, cast.carol, "hello")
    with pytest.raises(InvalidRequestError):
        reports.file_report(cast.alice, cast.bob, "abuse", source="chat", message_id=line.pk)


def test_a_private_table_the_reporter_cannot_see_is_not_found(cast):
    from games.services import tables

    private = tables.create_table(cast.bob, tables.TableSettings(name="Ours",
                                                                 visibility="private"))
    with pytest.raises(NotFoundError):
        reports.file_report(cast.charlie, cast.bob, "abuse", source="seat",
                            table_id=private.pk)


def test_anonymous_cannot_report(cast):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDeniedError):
        reports.file_report(AnonymousUser(), cast.bob, "abuse")


@override_settings(KOZEL_MODERATION={"REPORTS_PER_HOUR": 3})
def test_reports_are_rate_limited_and_not_duplicated(cast):
    reports.file_report(cast.alice, cast.bob, "abuse")
    with pytest.raises(ReportLimitError):
        reports.file_report(cast.alice, cast.bob, "abuse")  # the same, still open
    reports.file_report(cast.alice, cast.bob, "name")
    reports.file_report(cast.alice, cast.carol, "abuse")
    with pytest.raises(ReportLimitError):
        reports.file_report(cast.alice, cast.dan, "abuse")  # the fourth in an hour
    assert Report.objects.count() == 3
    reports.file_report(cast.bob, cast.dan, "abuse")  # another reporter is not limited


def test_the_reporter_sees_the_status_only(cast, mona, client):
    report = reports.file_report(cast.alice, cast.bob, "abuse", "Insults")
    sanctions.mute_chat(mona, cast.bob, 24, "Insults in chat", report_ids=[report.pk])
    client.force_login(cast.alice)
    page = client.get("/account/reports/").content.decode()
    assert "Acted on" in page and "bob" in page
    assert "Muted" not in page and "Insults in chat" not in page
    row = page[page.index(f'data-report="{report.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "24 h" not in row and "mute" not in row.lower()


def test_an_appeal_becomes_a_report_for_moderators(cast, mona):
    ban = sanctions.ban_ranked(mona, cast.bob, 3, "Left four ranked series")
    with pytest.raises(InvalidRequestError):
        reports.appeal(cast.bob, ban.pk, "no")
    with pytest.raises(NotFoundError):
        reports.appeal(cast.alice, ban.pk, "That was not me at all, honestly.")
    appeal = reports.appeal(cast.bob, ban.pk, "My connection died, I was not leaving.")
    assert appeal.category == "appeal" and appeal.sanction == ban and appeal.reported == cast.bob
    with pytest.raises(ReportLimitError):
        reports.appeal(cast.bob, ban.pk, "Again: my connection died, honestly.")
