"""Who gets which language: a visitor by Accept-Language, then by the cookie
the footer's switcher sets; a signed-in user by the profile's preferred_language, which
the switcher and the settings page save; URLs never change; a table socket speaks its
user's language (refusals, notices, preset chat lines)."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

from accounts.models import Profile
from accounts.services import update_profile
from games import events
from games.services import publish
from tests.games.helpers import current_game, first_legal, state_of
from tests.games.ws import connect

LANGUAGE_COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(response) -> str:
    return re.search(r'<html lang="([\w-]+)"', response.content.decode())[1]


@pytest.mark.parametrize(("header", "expected", "heading"), [
    ("ru-RU,ru;q=0.9,en;q=0.5", "ru", "Как играть в козла на 4 картах"),
    ("eu", "eu", "Nola jokatu Akerra 4 kartarekin"),
    ("mk", "mk", "Како се игра Јарец на 4 карти"),
    ("id-ID", "id", "Cara bermain Kozel dengan 4 kartu"),
    ("et", "et", "Kuidas mängida Kozelit 4 kaardiga"),
    ("sq-AL", "sq", "Si luhet Kozel me 4 letra"),
    ("fr-FR,de;q=0.8", "en", "How to play Kozel on 4 cards"),
])
def test_a_visitor_gets_the_browsers_language(client, db, header, expected, heading):
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert html_lang(response) == expected and response["Content-Language"] == expected
    assert f"<h1>{heading}</h1>" in response.content.decode()


def test_the_footer_switcher_sets_the_cookie_and_comes_back_to_the_same_url(client, db):
    page = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    form = page.split('class="language-switcher"')[1].split("</form>")[0]
    assert 'name="next" value="/rules/"' in form
    assert [m for m in re.findall(r'<option value="(\w+)"', form)] == [
        code for code, _ in settings.LANGUAGES]
    response = client.post("/i18n/setlang/", {"language": "et", "next": "/rules/"},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert response.cookies[LANGUAGE_COOKIE].value == "et"
    # The cookie now wins over the browser's header.
    assert html_lang(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ru")) == "et"
    # Another site's address is not followed.
    assert client.post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"}
                       )["Location"] == "/"


def test_a_signed_in_user_gets_the_profiles_language(client, cast):
    update_profile(cast.alice, preferred_language="mk")
    client.cookies[LANGUAGE_COOKIE] = "en"
    client.force_login(cast.alice)
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="ru")) == "mk"
    # The switcher saves the choice on the profile: it follows the user to other devices.
    client.post("/i18n/setlang/", {"language": "sq", "next": "/"})
    assert Profile.objects.get(user=cast.alice).preferred_language == "sq"
    assert html_lang(client.get("/")) == "sq"
    other_device = type(client)()
    other_device.force_login(cast.alice)
    assert html_lang(other_device.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "sq"


def test_the_settings_page_offers_every_language_and_switches_at_once(client, cast):
    client.force_login(cast.alice)
    page = client.get("/account/settings/").content.decode()
    select = page.split('name="preferred_language"')[1].split("</select>")[0]
    for code, name in settings.LANGUAGES:
        assert f'value="{code}"' in select and name in select
    response = client.post("/account/settings/", {
        "display_name": "", "bio": "", "country": "", "preferred_language": "ru"}, follow=True)
    assert html_lang(response) == "ru" and "Настройки сохранены." in response.content.decode()
    assert Profile.objects.get(user=cast.alice).preferred_language == "ru"


def test_urls_carry_no_language_prefix(client, db):
    assert client.get("/ru/rules/").status_code == 404
    assert client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ru").status_code == 200


def test_russian_plurals_have_three_forms():
    with translation.override("ru"):
        words = [translation.ngettext("%(n)s game", "%(n)s games", n) % {"n": n}
                 for n in (1, 2, 5, 11, 21, 22, 25)]
    assert words == ["1 игра", "2 игры", "5 игр", "11 игр", "21 игра", "22 игры", "25 игр"]


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_speaks_its_users_language(cast):
    from games.services import series as series_service
    from games.services import tables

    def setup():
        update_profile(cast.bob, preferred_language="ru")
        table = tables.create_table(cast.alice, tables.TableSettings(name="ws"))
        for position, user in enumerate(cast.seated):
            tables.take_seat(table.pk, user, position)
        series = series_service.start_series(table.pk, cast.alice)
        game = current_game(series)
        return table, game, state_of(game)

    table, game, state = await database_sync_to_async(setup)()
    ours = translation.get_language()
    leader = state.turn
    bob_seat = 1
    russian = await connect(table.pk, cast.bob)
    english = await connect(table.pk, cast.carol)
    await russian.receive_type("snapshot")
    await english.receive_type("snapshot")
    # A refusal in the sender's language, the rule number kept.
    # Bob leads out of turn (R8), or beats with nothing led when he is on lead (R9).
    action = first_legal(state, leader, "lead").to_dict()
    if leader == bob_seat:
        action = {"kind": "beat", "cards": action["cards"]}
    await russian.send({"type": "act", "action": action, "version": game.version})
    error = (await russian.receive_type("error"))["message"]
    assert error.startswith(("R8: заходит место", "R9: бить пока нечего")), error
    # A notice said once reaches each socket in its own language.
    await database_sync_to_async(_notice)(table.pk)
    assert (await russian.receive_type("notice"))["text"] == "Партия на паузе."
    assert (await english.receive_type("notice"))["text"] == "The series is paused."
    # Each socket's language lives in its own consumer's task, not in the caller's.
    assert translation.get_language() == ours
    await russian.close()
    await english.close()


def _notice(table_id: int) -> None:
    from django.db import transaction

    with transaction.atomic():
        events.send_event_on_commit(*publish.notice(table_id, "The series is paused."))
