"""A whole club evening in real browsers (issue 38).

The director announces the event to the club from its page, forbids the two pairs of
people meeting, pairs round 1, swaps a pairing before starting and starts the round,
with the console open in a second window; the players check in from the banner and
play; one pair never checks in and at the deadline (the real worker's task) loses by
forfeit, is marked absent by name and, the event withdrawing an entry after one absent
round, is withdrawn and not paired again; the server pairs and starts round 2 itself;
the director corrects a round-1 result through its confirmation page and the match's
players are told. At the end every e-mail sent (by the server and by the worker) and
every notification created is walked: every link in every message is absolute, on the
site's address (an e-mail has no page to be relative to).

Screenshots go to ``.run/screenshots/club-evening-*.png``, and also to
``$KOZEL_SHOTS_DIR`` when that is set (the issue's closing note).
"""

from __future__ import annotations

import email
import email.policy
import html
import re
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser import table_helpers as th
from tests.browser.club_helpers import thursday_club

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.slow]

PEOPLE = ["ann", "ben", "cat", "dov", "gus", "hal"]
ABSENT = ("gus", "hal")  # this pair never checks in
# The check-in window: long enough for the console to be seen on a loaded machine; the
# test then moves the deadline to "now" and queues its task (below), as the server
# does when the deadline comes.
CHECKIN_SECONDS = 300
URL = re.compile(r"https?://[^\s<>\"')]+")
# A link that is not absolute: an href/src not starting with a scheme, or a bare site
# path standing alone in a plain-text body.
RELATIVE_ATTR = re.compile(r"""(?:href|src)\s*=\s*["']?(?!https?://)""", re.IGNORECASE)
BARE_PATH = re.compile(r"(?:^|\s)/[\w-]+/", re.MULTILINE)


def _shot(page, name: str, element: Any = None) -> None:
    th.screenshot(page, f"club-evening-{name}", element)


def _wait(condition, what: str, timeout: float = 30.0) -> Any:
    """Poll the database (or anything) until ``condition()`` is truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _check_in(pages: list[Any]) -> None:
    """Each presses the banner's button (all at once), which checks them in and opens
    their table; then each table is ready to play."""
    for page in pages:
        page.locator("#tournament-checkin").click()
    for page in pages:
        page.wait_for_url("**/table/*/")
        th.wait_ready(page)


def _bodies(message: EmailMessage) -> list[tuple[str, str]]:
    """Every text part of a message: (content type, text)."""
    return [(part.get_content_type(), str(part.get_content()))
            for part in message.walk()
            if part.get_content_maintype() == "text"]


def _assert_links_absolute(message: EmailMessage, site: str) -> list[str]:
    """Every link of every body part (text and HTML) is absolute, on the site."""
    links: list[str] = []
    for kind, body in _bodies(message):
        where = f"{message['Subject']!s} to {message['To']!s} ({kind})"
        if kind == "text/html":
            assert not RELATIVE_ATTR.search(body), f"relative link in {where}:\n{body}"
        else:
            assert not BARE_PATH.search(body), f"bare site path in {where}:\n{body}"
        found = URL.findall(body)
        for link in found:
            assert link.startswith(site + "/"), f"{link} is not on {site} in {where}"
        links += found
    return links


def test_a_whole_club_evening(live_site, new_context, mailbox,
                              celery_worker, off_loop, js_errors):
    from django.core import mail
    from django.utils import timezone

    from accounts.social import services as social
    from accounts.social.models import Notification
    from accounts.social.notify import text_of
    from games.tournaments.models import AuditEntry, Entry, Match, Round, Tournament
    from games.tournaments.services import events
    from games.tournaments.tasks import checkin_deadline_task
    from tests.tournaments.helpers import act, event

    started = time.monotonic()
    laps: list[tuple[str, float]] = []

    def set_up() -> tuple[Any, Any, dict[str, Any], dict[str, int]]:
        """The club, its six members (all asked for announcement e-mails), the event
        and its entries: three pairs who asked for round e-mails, and a bot pair.
        Off Playwright's loop, so that the services' broadcasts are sent."""
        cast, people = thursday_club(PEOPLE)
        club, director = cast.club, cast.director
        for person in people.values():
            social.update_settings(person, {"email_announcement": True})
        # One game a match, a 60 s turn clock (the console shows it), no break, and an
        # entry absent from one round is withdrawn.
        t = event(cast, name="Thursday Swiss", rounds=2, checkin_seconds=CHECKIN_SECONDS,
                  round_seconds=900, break_seconds=0, bots_allowed=True, games_limit=1,
                  turn_seconds=60, absent_withdraw_after=1)
        entries = {}
        for first, second in (("ann", "ben"), ("cat", "dov"), ABSENT):
            entry = events.register(t.pk, people[first], second, email_opt_in=True)
            events.confirm_partner(t.pk, people[second], entry.pk)
            entries[first + second] = entry.pk
        act(t, director, "add_bot", level="random")
        return club, t, people, entries

    club, t, people, entries = off_loop(set_up)
    director = club.owner
    bot = Entry.objects.get(tournament=t, bot_level="random")
    absent = Entry.objects.get(pk=entries["gushal"])

    # --- The director announces the event to the club from its page. -----------------
    boss = new_context(user=director).new_page()
    boss.goto(f"/club/{club.slug}/")
    boss.locator("#club-announce-text").fill(
        "Thursday Swiss tonight at 19:00: check in from the banner when round 1 starts.")
    boss.locator("#club-announce-form").get_by_role("button", name="Announce").click()
    expect(boss.get_by_text("Announced to 6 members.")).to_be_visible()

    # Players who will come wait on the home page (the banner's socket is open).
    pages = {}
    for name in ("ann", "ben", "cat", "dov"):
        page = new_context(user=people[name]).new_page()
        page.goto("/")
        expect(page.locator("#tournament-banner")).to_have_attribute("data-connected", "1")
        pages[name] = page

    # --- Forbid a pairing, pair round 1, swap a pairing, start it. --------------------
    # The two pairs of people never meet (so round 2 is people against the bot pair,
    # and the pair that won by forfeit, barred from the bye, plays it).
    humans = [entries["annben"], entries["catdov"]]
    boss.goto(f"/tournament/{t.pk}/")
    pair_form = boss.locator("form", has=boss.get_by_role("button", name="Never pair them"))
    pair_form.locator('select[name="first"]').select_option(str(humans[0]))
    pair_form.locator('select[name="second"]').select_option(str(humans[1]))
    pair_form.get_by_role("button", name="Never pair them").click()
    expect(boss.locator(".messages")).to_contain_text("That pairing will not be made.")
    expect(boss.locator("#forbidden-pairs")).to_contain_text(
        "Never paired: ann & ben – cat & dov")
    boss.locator("#pair-round").click()
    expect(boss.locator(".messages")).to_contain_text("Round 1 is paired")
    round1 = Round.objects.get(tournament=t, number=1)
    assert not round1.matches.filter(table__isnull=False).exists()  # nothing started

    def opponents() -> dict[int, int]:
        pairs = [list(m.sides.values_list("entry_id", flat=True))
                 for m in round1.matches.all()]
        return {a: b for x, y in pairs for a, b in ((x, y), (y, x))}

    # The pairs of people meet the absent pair and the bot pair; the swap exchanges them.
    before = opponents()
    assert before[humans[0]] != humans[1] and before[absent.pk] in humans
    swap_form = boss.locator("form", has=boss.locator("#swap-entries"))
    swap_form.locator('select[name="first"]').select_option(str(humans[0]))
    swap_form.locator('select[name="second"]').select_option(str(humans[1]))
    boss.locator("#swap-entries").click()
    expect(boss.locator(".messages")).to_contain_text(
        "ann & ben and cat & dov were swapped in round 1")
    after = opponents()
    assert after[absent.pk] == before[bot.pk] and after[bot.pk] == before[absent.pk]
    waiting_pair = after[absent.pk]  # checks in, waits, wins by forfeit
    playing_pair = after[bot.pk]
    names_of = {entries["annben"]: ("ann", "ben"), entries["catdov"]: ("cat", "dov")}
    # The director's console in a second window, open before the start: it follows the
    # round live.
    desk = new_context(user=director).new_page()
    desk.goto(f"/tournament/{t.pk}/")
    desk.locator("#open-console").click()
    expect(desk.locator("h1")).to_have_text("Director's console")
    expect(desk.locator("#console-live")).to_have_attribute("data-connected", "1")
    laps.append(("round 1 start", time.monotonic()))
    boss.locator("#start-round").click()
    expect(boss.locator(".messages")).to_contain_text("Round 1 has started")

    # --- The players check in from the banner; the director watches the console. -----
    _check_in([pages[n] for n in names_of[waiting_pair] + names_of[playing_pair]])
    players = {n: pages[n] for n in names_of[playing_pair]}
    round1.refresh_from_db()
    assert timezone.now() < round1.checkin_deadline, (
        "too slow: round 1's check-in deadline passed before the console was looked at")
    absent_match = round1.matches.get(sides__entry=absent)
    played_match = round1.matches.get(sides__entry=bot)
    waiting = desk.locator(f'section[data-match="{absent_match.pk}"]')
    expect(waiting).to_contain_text("2 of 4 checked in")
    for name in ABSENT:
        row = waiting.locator("tr", has_text=name)
        expect(row.locator("td[data-checked-in]")).to_have_text("not yet")
    playing = desk.locator(f'section[data-match="{played_match.pk}"]')
    expect(playing).to_have_attribute("data-status", "playing")
    expect(playing.locator(".console-score")).to_contain_text("game 1 of 1")
    expect(playing.locator(".console-clock .countdown")).to_be_visible()
    for name in names_of[playing_pair]:
        # Presence shows on the console's 5 s refresh (console.js), not by an event.
        expect(playing.locator("tr", has_text=name).locator("td[data-connected]")) \
            .to_have_text("● connected", timeout=12_000)
    laps.append(("console seen", time.monotonic()))
    _shot(desk, "console-mid-round")
    desk.set_viewport_size({"width": 375, "height": 800})
    # On a phone (375 px) the console fits the screen: no sideways scrolling.
    assert desk.evaluate("document.documentElement.scrollWidth") <= 375
    _shot(desk, "console-mid-round-375")
    desk.set_viewport_size({"width": 1280, "height": 800})

    # The window runs out (the clock jumps to the deadline): the worker's deadline task
    # settles check-in and the console shows the forfeit live.
    Round.objects.filter(pk=round1.pk).update(checkin_deadline=timezone.now())
    checkin_deadline_task.delay(round1.pk)
    expect(waiting.locator(".console-score")).to_contain_text("won by forfeit", timeout=20_000)

    # --- Play round 1; at the deadline the absent pair forfeits and is withdrawn. ------
    th.play_until(players.values(),
                  lambda: Round.objects.filter(pk=round1.pk, status="finished").exists(),
                  "round 1")
    laps.append(("round 1 end", time.monotonic()))
    absent.refresh_from_db()
    assert (absent.status, absent.status_reason) == (Entry.Status.WITHDRAWN, "absent")
    absent_match.refresh_from_db()
    assert absent_match.forfeit and absent_match.absent == [absent.pk]
    assert absent_match.outcome == absent_match.sides.exclude(entry=absent).get().side
    assert AuditEntry.objects.filter(action="entry.withdraw", actor=None,
                                     reason="absent in 1 rounds").exists()
    assert AuditEntry.objects.filter(action="match.forfeit",
                                     details__absent=[absent.name]).exists()

    # --- The server pairs round 2 without the withdrawn pair and starts it. ------------
    round2 = _wait(lambda: Round.objects.filter(tournament=t, number=2)
                   .exclude(status="paired").first(), "the server to start round 2")
    laps.append(("round 2 start", time.monotonic()))
    paired = set(Match.objects.filter(round=round2).values_list("sides__entry_id", flat=True))
    assert absent.pk not in paired
    assert {waiting_pair, bot.pk} <= paired  # the forbidden pairing is not made
    assert round2.matches.get(outcome="bye").sides.get().entry_id == playing_pair
    in_play = [name for m in round2.matches.exclude(outcome="bye")
               for side in m.sides.all() for name in names_of.get(side.entry_id, ())]
    players = {name: pages[name] for name in in_play}
    for page in players.values():
        page.goto("/")
    _check_in(list(players.values()))
    laps.append((f"round 2 checked in ({len(players)} people)", time.monotonic()))
    th.play_until(players.values(),
                  lambda: Tournament.objects.filter(pk=t.pk, status="finished").exists(),
                  "round 2")

    laps.append(("round 2 end", time.monotonic()))
    # The absent pair by name on the console and in the standings: forfeit, absent,
    # withdrawn, no place.
    boss.goto(f"/tournament/{t.pk}/console/")
    expect(boss.locator("section.console-round")).to_have_attribute("data-round", "2")
    boss.goto(f"/tournament/{t.pk}/")
    row = boss.locator(f"#standings tr[data-entry='{absent.pk}']")
    expect(row).to_contain_text(absent.name)
    expect(row.locator("[data-absent-rounds]")).to_have_text("absent 1 round")
    expect(row).to_contain_text("(withdrawn)")
    expect(row.locator("td").first).to_have_text("–")
    expect(boss.locator(f"[data-absent='{absent.pk}']")).to_have_text("absent")
    expect(boss.locator("[data-absent-names]").first).to_have_text(f"absent: {absent.name}")
    _shot(boss, "standings-absent-withdrawn", boss.locator("#tournament-live"))
    # The audit log names them too, as names (not a Python list).
    expect(boss.locator(".audit-log li[data-action='match.forfeit']")).to_contain_text(
        f"absent={absent.name}, missing=gus, hal")
    expect(boss.locator(".audit-log li[data-action='entry.withdraw']")).to_contain_text(
        "absent in 1 rounds")

    # --- The director corrects round 1's played result, through its confirmation. ------
    played_match.refresh_from_db()
    outcome, loss_a, loss_b = ("B", 2, 0) if played_match.outcome == "A" else ("A", 0, 2)
    form = boss.locator("form", has=boss.locator('input[name="action"][value="correct"]'))
    form.locator('select[name="match_id"]').select_option(str(played_match.pk))
    form.locator('select[name="outcome"]').select_option(outcome)
    form.locator('input[name="loss_a"]').fill(str(loss_a))
    form.locator('input[name="loss_b"]').fill(str(loss_b))
    form.locator('input[name="reason"]').fill("the score sheet was read wrongly")
    form.get_by_role("button", name="Correct the result").click()
    expect(boss.locator("h1")).to_have_text("Confirm the correction")
    expect(boss.locator("[data-after]")).to_have_text(
        f"Side {outcome} won · loss points A {loss_a}, B {loss_b}")
    played_match.refresh_from_db()
    assert played_match.outcome != outcome, "nothing is saved before the confirmation"
    _shot(boss, "correction-confirm")
    boss.get_by_role("button", name="Confirm the correction").click()
    expect(boss.get_by_text("Result corrected; the players of the match are told.")) \
        .to_be_visible()
    played_match.refresh_from_db()
    assert (played_match.outcome, played_match.loss_a, played_match.loss_b,
            played_match.corrected) == (outcome, loss_a, loss_b, True)
    expect(boss.locator(f"tr[data-match='{played_match.pk}'] [data-result]")) \
        .to_contain_text("corrected")
    # Its players are told: the centre lists it, and its link opens the standings.
    told = pages[names_of[playing_pair][0]]
    told.goto("/notifications/")
    item = told.locator("#kz-notification-list li", has_text=(
        "A director corrected the result of your match in round 1 of Thursday Swiss."))
    expect(item).to_be_visible()
    item.get_by_role("button", name="Open").click()
    expect(told).to_have_url(live_site.path(f"/tournament/{t.pk}/"))
    expect(told.locator(f"tr[data-match='{played_match.pk}'] [data-result]")) \
        .to_contain_text("corrected")

    # --- Every message: absolute links only, on the site's address. --------------------
    site = live_site.url
    sent = mailbox.messages() + [
        email.message_from_bytes(m.message().as_bytes(), policy=email.policy.default)
        for m in mail.outbox]
    subjects = [str(m["Subject"]) for m in sent]
    kinds = {"announcement": 0, "round start": 0}
    for message in sent:
        links = _assert_links_absolute(message, site)
        subject = str(message["Subject"])
        if "An announcement from Thursday Goats" in subject:
            kinds["announcement"] += 1
            assert f"{site}/club/{club.slug}/" in links
        elif "of Thursday Swiss has started" in subject:
            kinds["round start"] += 1
            assert f"{site}/tournament/{t.pk}/" in links
            assert any(link.startswith(f"{site}/table/") for link in links), links
    assert kinds["announcement"] == 6, subjects  # every member opted in
    # Round 1 (the director's start, the server's mail) and round 2 (the worker's).
    assert {"Kozel: Round 1 of Thursday Swiss has started",
            "Kozel: Round 2 of Thursday Swiss has started"} <= set(subjects), subjects
    assert len(mail.outbox) >= 1, "the worker's round-2 mail"
    # Notifications are shown on the site (their link is a site path, rendered absolute
    # only in an e-mail); their text carries no link of its own.
    notifications = list(Notification.objects.all())
    seen = {n.kind for n in notifications}
    assert {Notification.Kind.ANNOUNCEMENT, Notification.Kind.ROUND,
            Notification.Kind.RESULT} <= seen, seen
    for n in notifications:
        assert n.url.startswith("/") and not n.url.startswith("//"), n.url
        assert not URL.search(text_of(n)) and not BARE_PATH.search(text_of(n)), text_of(n)
    assert Notification.objects.filter(kind=Notification.Kind.RESULT).count() == 2

    # One e-mail as its reader sees it (the site sends plain text only: no HTML part).
    round_mail = next(m for m in sent if "has started" in str(m["Subject"]))
    assert [kind for kind, _ in _bodies(round_mail)] == ["text/plain"]
    rendered = Path(live_site.mail_dir).parent / "round-start-mail.html"
    rendered.write_text(
        "<!doctype html><meta charset='utf-8'><body style='font:15px sans-serif;"
        "max-width:720px;margin:2em auto'>"
        + "".join(f"<p><b>{h}:</b> {html.escape(str(round_mail[h]))}</p>"
                  for h in ("From", "To", "Subject"))
        + "<hr><pre style='white-space:pre-wrap;font:15px sans-serif'>"
        + URL.sub(lambda m: f"<a href='{m[0]}'>{m[0]}</a>",
                  html.escape(_bodies(round_mail)[0][1]))
        + "</pre></body>")
    reader = new_context().new_page()
    reader.goto(rendered.as_uri())
    _shot(reader, "round-start-email")

    elapsed = time.monotonic() - started
    print(f"club evening: {elapsed:.1f} s in the test body; "
          + ", ".join(f"{what} at {at - started:.1f} s" for what, at in laps))
    assert js_errors == []
