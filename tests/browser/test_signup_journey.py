"""A new player's first visit, in a real browser against a real daphne server.

Sign up → follow the emailed link → confirm → sign out → sign in by email and by
username → see the profile. Plus the shell at phone width and without JavaScript.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "a long and fine passphrase 42"


def _sign_out(page) -> None:  # type: ignore[no-untyped-def]
    page.locator(".profile-menu summary").click()
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()


def _sign_in(page, login: str) -> None:  # type: ignore[no-untyped-def]
    page.goto("/accounts/login/")
    page.get_by_label("Login").fill(login)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".profile-menu-name")).to_have_text("nadia")


def test_sign_up_verify_sign_in_and_see_the_profile(live_site, page, mailbox, js_errors):
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    page.get_by_label("Email").fill("nadia@example.com")
    page.get_by_label("Username").fill("nadia")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    expect(page.get_by_role("link", name="Sign up")).to_be_visible()  # not signed in yet

    message = mailbox.wait_for(to="nadia@example.com", subject_contains="Confirm")
    [link] = [u for u in mailbox.links(message) if "/accounts/confirm-email/" in u]
    assert link.startswith(live_site.url), link
    page.goto(link)
    page.get_by_role("button", name="Yes, confirm it").click()
    expect(page.locator(".profile-menu-name")).to_have_text("nadia")

    _sign_out(page)
    _sign_in(page, "nadia@example.com")
    _sign_out(page)
    _sign_in(page, "nadia")

    page.locator(".profile-menu summary").click()
    page.get_by_role("link", name="Profile").click()
    expect(page).to_have_url(live_site.path("/@/nadia"))
    expect(page.get_by_role("heading", level=1)).to_have_text("nadia")
    expect(page.locator('[data-stat="games_played"]')).to_have_text("0")
    assert js_errors == []


def test_wrong_password_shows_an_error_and_stays_signed_out(live_site, page,
                                                            django_user_model):
    django_user_model.objects.create_user("oleg", "oleg@example.com", PASSWORD)
    page.goto("/accounts/login/")
    page.get_by_label("Login").fill("oleg")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".form-errors")).to_contain_text("not correct")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()


def test_a_signed_in_context_and_settings_errors_next_to_the_field(live_site, new_context,
                                                                    django_user_model):
    # new_context(user=...) signs in without the form: what multi-player tests use.
    user = django_user_model.objects.create_user("pavel", "pavel@example.com", PASSWORD)
    page = new_context(user=user).new_page()
    page.goto("/account/settings/")
    expect(page.get_by_role("heading", name="Profile settings")).to_be_visible()
    # (An over-long bio never leaves the browser: the textarea has maxlength=280.)
    page.get_by_label("Display name").fill("Deleted Player")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#id_display_name_error")).to_contain_text("reserved")
    expect(page.locator(".profile-menu-name")).to_have_text("pavel")
    page.get_by_label("About you").fill("Plays the 10 of trumps too early.")
    page.get_by_label("Display name").fill("Pavel P.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages[role=status]")).to_contain_text("Your settings are saved.")
    expect(page.locator(".profile-menu-name")).to_have_text("Pavel P.")


@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/@/rita"])
def test_pages_fit_a_375_px_phone(live_site, new_context, django_user_model, path):
    user = django_user_model.objects.create_user("rita", "rita@example.com", PASSWORD)
    page = new_context(user=user, viewport={"width": 375, "height": 740}).new_page()
    page.goto(path)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 375 px"
    expect(page.get_by_role("link", name="Rules").first).to_be_visible()


def test_menu_and_sign_out_work_without_javascript(live_site, new_context, django_user_model):
    user = django_user_model.objects.create_user("sasha", "sasha@example.com", PASSWORD)
    page = new_context(user=user, java_script_enabled=False).new_page()
    page.goto("/rules/")
    expect(page.locator("#r11")).to_contain_text("Molodka")
    expect(page.locator('svg[data-card="TD"] .pc-rank').first).to_have_text("10")
    _sign_out(page)


def test_off_loop_runs_async_to_sync_code_from_a_browser_test(live_site, page, off_loop):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    page.goto("/rules/")  # Playwright's loop is running in this thread now
    layer = get_channel_layer()

    def round_trip() -> dict:
        async def through_redis() -> dict:
            # One loop for all three: the pub/sub layer's subscriptions belong to it.
            name = await layer.new_channel()
            await layer.send(name, {"type": "ping"})
            return await layer.receive(name)

        return async_to_sync(through_redis)()

    assert off_loop(round_trip) == {"type": "ping"}
    with pytest.raises(ZeroDivisionError):
        off_loop(lambda: 1 / 0)
