"""The whole moderation journey in a real browser: a player reports another from the
table; a moderator (a normal user in the Moderators group, not staff) opens the queue,
reads the context, mutes the offender; the offender's next chat line is refused on
screen with the reason, and the notice appears at the table."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from playwright.sync_api import expect

from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th

pytestmark = pytest.mark.browser


def moderators_group():
    import importlib

    group = Group.objects.filter(name="Moderators").first()
    if group is None:  # the flush of an earlier live-site test emptied it
        migration = importlib.import_module(
            "accounts.moderation.migrations.0002_moderators_group_and_append_only_log")
        group = Group.objects.create(name="Moderators")
        group.permissions.set([Permission.objects.get(content_type__app_label=app,
                                                      codename=code)
                               for app, code in migration.PERMISSIONS])
    return group


def people(django_user_model, *names):
    made = []
    for name in names:
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "x" * 20)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        made.append(user)
    return made


def test_report_from_the_table_to_a_moderators_mute(live_site, new_context, django_user_model,
                                                     js_errors):
    alice, bob, carol, dan, mona = people(django_user_model, "alice", "bob", "carol", "dan",
                                          "mona")
    mona.groups.add(moderators_group())
    table = tables.create_table(alice, tables.TableSettings(name="Friday game"))
    for position, user in enumerate([alice, bob, carol, dan]):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, alice)

    offender = new_context(user=bob).new_page()
    offender.goto(f"/table/{table.pk}/")
    th.wait_ready(offender)
    reporter = new_context(user=alice).new_page()
    reporter.goto(f"/table/{table.pk}/")
    th.wait_ready(reporter)

    offender.locator("#kz-chat-input").fill("you all play like potatoes, quit")
    offender.locator("#kz-chat-form button[type=submit]").click()
    line = reporter.locator("#kz-chat-list li", has_text="play like potatoes")
    expect(line).to_be_visible()
    # Never a flag on your own line (a line that came live, after the snapshot).
    own = offender.locator("#kz-chat-list li", has_text="play like potatoes")
    expect(own).to_be_visible()
    expect(own.locator(".kz-report-btn")).to_have_count(0)
    # The flag is quiet until hovered: small, unbordered, faint.
    flag = line.locator(".kz-report-btn")
    assert flag.evaluate("b => getComputedStyle(b).borderTopStyle") in ("none", "hidden")
    assert float(flag.evaluate("b => getComputedStyle(b).opacity")) < 0.5
    line.hover()
    expect(flag).to_have_css("opacity", "1")

    # The seat plate has a report button too (bob sits at 1, on alice's left or right).
    expect(reporter.locator(".kz-seat .kz-report-btn[aria-label='Report bob']")).to_have_count(1)
    line.locator(".kz-report-btn").click()
    dialog = reporter.locator("#kz-report-dialog")
    expect(dialog).to_be_visible()
    # Each field under its own label, one above the other.
    dialog.get_by_label("What happened?").select_option("abuse")
    dialog.get_by_label("Anything moderators should know (optional)").fill("Insults all game")
    category_box = dialog.locator("#kz-report-category").bounding_box()
    text_box = dialog.locator("#kz-report-text").bounding_box()
    assert text_box["y"] >= category_box["y"] + category_box["height"]
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog.locator("#kz-report-status")).to_contain_text("moderators will look")
    dialog.get_by_role("button", name="Close").click()

    moderator = new_context(user=mona).new_page()
    moderator.goto("/moderation/")
    row = moderator.locator("#mod-queue tr", has_text="bob")
    expect(row).to_contain_text("Abusive chat")
    row.get_by_role("link", name="Open").click()
    expect(moderator.locator("#mod-chat li.is-reported")).to_contain_text("play like potatoes")
    expect(moderator.locator(".mod-history")).to_contain_text("timeouts")
    moderator.locator("#mod-action").select_option("mute")
    moderator.locator("#mod-duration").select_option("3")  # 3 hours, chosen explicitly
    moderator.locator("#mod-reason").fill("Insulting the other players")
    moderator.get_by_role("button", name="Apply").click()
    expect(moderator.locator(".messages")).to_contain_text("Muted in chat")

    # The offender's very next line is refused on screen, on the socket already open.
    offender.locator("#kz-chat-input").fill("what did I do")
    offender.locator("#kz-chat-form button[type=submit]").click()
    expect(offender.locator("#kz-toast")).to_contain_text("muted in chat until")
    expect(offender.locator("#kz-toast")).to_contain_text("Insulting the other players")
    expect(reporter.locator("#kz-chat-list")).not_to_contain_text("what did I do")
    # The notice is at the table on the next page load, with the way to appeal.
    offender.reload()
    expect(offender.locator("#sanction-notices")).to_contain_text("Muted in chat")
    expect(offender.locator("#sanction-notices a", has_text="Appeal")).to_be_visible()
    # The reporter sees the status, not what was done.
    reporter.goto("/account/reports/")
    expect(reporter.locator("tr[data-report]")).to_contain_text("Acted on")
    expect(reporter.locator("main")).not_to_contain_text("Insulting the other players")
    assert js_errors == []
