"""A Content-Security-Policy on every page. The table, the replay, the admin and
the moderation pages work under it with no violation, and an injected inline script
(or inline event handler) does not run."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import expect

from games.models import Game
from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th
from tests.browser.test_moderation_journey import moderators_group
from tests.games.helpers import play_out_game

pytestmark = pytest.mark.browser

# Registered before any page script; the listener itself runs through the DevTools
# protocol, which the page's CSP does not govern.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
INJECT = """() => {
  const s = document.createElement("script");
  s.textContent = "window.__injected = 'script ran'";
  document.body.append(s);
  const d = document.createElement("div");
  d.innerHTML = '<img src="/static/img/favicon.svg" ' +
    'onload="window.__injected = \\'handler ran\\'">';
  document.body.append(d);
  return true;
}"""


def people(django_user_model, *names):
    made = []
    for name in names:
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "x" * 20)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        made.append(user)
    return made


def open_page(context, path):
    page = context.new_page()
    page.add_init_script(WATCH)
    response = page.goto(path)
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "default-src 'self'" in policy, path
    assert "unsafe-inline" not in policy
    return page


def violations(page):
    return page.evaluate("window.__csp")


def test_pages_work_under_the_policy_and_injected_scripts_do_not_run(
        live_site, new_context, django_user_model, off_loop, js_errors):
    alice, bob, carol, dan, mona, root = people(django_user_model, "alice", "bob", "carol",
                                                "dan", "mona", "root")
    root.is_staff = root.is_superuser = True
    root.save()
    mona.groups.add(moderators_group())
    table = tables.create_table(alice, tables.TableSettings(name="CSP table"))
    for position, user in enumerate([alice, bob, carol, dan]):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, alice)
    game = Game.objects.get(series__table=table)
    off_loop(play_out_game, game, {0: alice, 1: bob, 2: carol, 3: dan})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    # The table: the module runs, the socket connects, chat goes both ways.
    player = new_context(user=alice)
    page = open_page(player, f"/table/{table.pk}/")
    th.wait_ready(page)
    page.locator("#kz-chat-input").fill("good game")
    page.locator("#kz-chat-form button[type=submit]").click()
    expect(page.locator("#kz-chat-list")).to_contain_text("good game")
    expect(page.locator(".kz-seat .kz-report-btn")).to_have_count(3)  # moderation's module
    page.evaluate(INJECT)
    expect(page.locator("#kz-chat-list")).to_contain_text("good game")
    page.wait_for_function("() => window.__csp.length >= 2")
    assert page.evaluate("window.__injected === undefined"), "an injected script ran"
    found = violations(page)
    assert all(v.startswith(("script-src", "script-src-elem", "script-src-attr"))
               for v in found), found

    # The replay: the module steps through the game.
    page = open_page(player, f"/game/{game.pk}/replay/")
    expect(page.locator("#kz-replay.js")).to_be_attached()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rp-step")).to_contain_text("Step 1 of")
    assert violations(page) == []

    # Pages whose scripts and styles were inline before: the lobby, the queue, the board.
    for path in ["/tables/", "/play/ranked/", "/leaderboard/", f"/@/{bob.username}"]:
        page = open_page(player, path)
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], path
    expect(open_page(player, "/leaderboard/").locator("table.leaderboard, .empty-state")
           ).to_have_count(1)

    # The moderation pages (a moderator) and the admin (a superuser), styles and scripts.
    moderator = new_context(user=mona)
    for path in ["/moderation/", "/moderation/log/", f"/moderation/player/{bob.username}/"]:
        page = open_page(moderator, path)
        expect(page.locator("h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], path
    admin = new_context(user=root)
    page = open_page(admin, "/admin/games/chatmessage/")
    expect(page.locator("#changelist")).to_be_visible()
    page.locator("#action-toggle").check()  # the admin's own script selects every row
    expect(page.locator("input.action-select:checked")).to_have_count(1)
    assert page.locator("link[rel=stylesheet]").count() > 0
    header = page.evaluate("getComputedStyle(document.querySelector('#header')).display")
    assert header == "flex", "the admin's stylesheet applies"
    assert violations(page) == []
    assert js_errors == []
