"""Fair moderation in a real browser: an appeal is decided by a second moderator (the
one who imposed the sanction cannot, not even by a hand-made request) and the player
reads the decision's reason; a rated series is voided from the player's page and the
log names whom it touched. Moderators are users in the Moderators group, not staff."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.moderation.models import Report
from accounts.moderation.services import sanctions
from games.models import Series
from tests.browser.test_moderation_journey import moderators_group, people
from tests.ratings.factories import finished_series

pytestmark = pytest.mark.browser


def test_an_appeal_is_judged_by_a_second_moderator(live_site, new_context, django_user_model,
                                                   js_errors):
    bob, mona, otto = people(django_user_model, "bob", "mona", "otto")
    for moderator in (mona, otto):
        moderator.groups.add(moderators_group())
    mona = django_user_model.objects.get(pk=mona.pk)  # fresh: no cached permissions
    ban = sanctions.suspend(mona, bob, 3, "Threats in chat")

    player = new_context(user=bob).new_page()
    player.goto("/")
    expect(player).to_have_url(re.compile(r"/account/standing/$"))
    player.get_by_label("Your appeal").fill("It was my brother on my account, sorry.")
    player.get_by_role("button", name="Send the appeal").click()
    expect(player.locator("#my-appeals")).to_contain_text("With the moderators")
    appeal = Report.objects.get(category="appeal", sanction=ban)

    first = new_context(user=mona).new_page()
    first.goto(f"/moderation/report/{appeal.pk}/")
    expect(first.locator("#appeal-not-yours")).to_contain_text("another moderator decides")
    expect(first.locator("#appeal-decide")).to_have_count(0)
    # A hand-made POST with a valid CSRF token is refused all the same.
    token = first.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    first.request.post(f"{live_site.url}/moderation/report/{appeal.pk}/act/",
                       form={"action": "refuse", "reason": "I stand by it",
                             "csrfmiddlewaretoken": token},
                       headers={"Referer": f"{live_site.url}/moderation/"})
    appeal.refresh_from_db()
    assert appeal.status == Report.Status.OPEN

    second = new_context(user=otto).new_page()
    second.goto("/moderation/")
    second.locator("#mod-queue tr", has_text="Appeal").get_by_role("link", name="Open").click()
    second.get_by_label("Your decision, in words the player reads").fill(
        "The threats came from your session; the suspension stands.")
    second.get_by_role("button", name="Refuse the appeal").click()
    expect(second.locator(".messages")).to_contain_text("Appeal refused")

    player.goto("/account/standing/")
    expect(player.locator("#my-appeals")).to_contain_text("Refused")
    expect(player.locator("#my-appeals")).to_contain_text(
        "The threats came from your session; the suspension stands.")
    assert js_errors == []


def test_a_void_from_a_players_page(live_site, new_context, django_user_model, js_errors):
    alice, bob, carol, dan, mona = people(django_user_model, "alice", "bob", "carol", "dan",
                                          "mona")
    mona.groups.add(moderators_group())
    series = finished_series([alice, bob, carol, dan], ["A", "A", "B", "A"])

    page = new_context(user=mona).new_page()
    page.goto("/moderation/player/bob/")
    page.get_by_label("Action").select_option("void")
    page.get_by_label("Series to void").select_option(str(series.pk))
    page.get_by_label("Reason (the player is told it)").fill("Collusion with dan")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator(".messages")).to_contain_text("Series voided")
    series.refresh_from_db()
    assert series.status == Series.Status.VOIDED

    page.goto("/moderation/log/")
    row = page.locator("#mod-log tbody tr", has_text="Voided a series")
    for name in ("alice", "bob", "carol", "dan"):
        expect(row.locator("td").nth(3)).to_contain_text(name)
    assert js_errors == []


def test_a_suspended_players_open_table_shows_one_message_and_nothing_to_click(
        live_site, new_context, django_user_model, js_errors):
    from games.services import series as series_service
    from games.services import tables
    from tests.browser import table_helpers as th

    alice, bob, carol, dan, mona = people(django_user_model, "alice", "bob", "carol", "dan",
                                          "mona")
    mona.groups.add(moderators_group())
    table = tables.create_table(alice, tables.TableSettings(name="Friday game"))
    for position, user in enumerate([alice, bob, carol, dan]):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, alice)
    page = new_context(user=bob).new_page()
    page.goto(f"/table/{table.pk}/")
    th.wait_ready(page)

    # The moderator acts from her own page (the server process sends the live events).
    moderator = new_context(user=mona).new_page()
    moderator.goto("/moderation/player/bob/")
    moderator.get_by_label("Action").select_option("suspend")
    moderator.get_by_label("How long (mute, ban, suspension)").select_option("72")
    moderator.get_by_label("Reason (the player is told it)").fill("Threats in chat")
    moderator.get_by_role("button", name="Apply").click()
    expect(moderator.locator(".messages")).to_contain_text("Suspended")
    notice = page.locator("#kz-suspended")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Threats in chat")
    # Said once, and nothing else on the table: no seat, no "reclaim", no banner.
    expect(page.get_by_text("Threats in chat")).to_have_count(1)
    expect(page.get_by_text("You cannot watch this private table.")).to_have_count(0)
    expect(page.get_by_role("button", name="Reclaim my seat")).to_have_count(0)
    assert page.locator("#kz-table button:visible").count() == 0
    # The others see a bot in bob's seat, not his name.
    other = new_context(user=alice).new_page()
    other.goto(f"/table/{table.pk}/")
    th.wait_ready(other)
    expect(other.locator(".kz-seat", has_text="bob")).to_have_count(0)
    assert js_errors == []
