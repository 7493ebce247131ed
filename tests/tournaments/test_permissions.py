"""The permission matrix (games/tournaments/permissions.py) through the real views:
every club and tournament page and action, for a stranger, a member, a director, the
owner and a site moderator (and an anonymous visitor where it matters). A refusal
changes nothing: each case checks the stored state, not just the status code.
"""

from __future__ import annotations

import pytest

from games.tournaments.models import AuditEntry, Club, Entry, Membership, Tournament
from games.tournaments.services import events
from tests.games.conftest import make_user

ROLES = ["stranger", "member", "director", "owner", "moderator"]
DIRECTING = {"director", "owner", "moderator"}


@pytest.fixture
def tournament(club_cast) -> Tournament:
    return events.create_tournament(club_cast.club.pk, club_cast.director, events.EventSettings(
        name="Friday Swiss", format="swiss", rounds=3, bots_allowed=True))


def login(client, club_cast, role):
    client.force_login(club_cast.who(role))
    return club_cast.who(role)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", *ROLES])
def test_public_pages_are_open_to_everyone(client, club_cast, tournament, role):
    if role != "anonymous":
        login(client, club_cast, role)
    for url in ["/clubs/", "/club/friday-goats/", f"/tournament/{tournament.pk}/",
                f"/tournament/{tournament.pk}/live/", f"/tournament/{tournament.pk}/standings.csv",
                f"/tournament/{tournament.pk}/results.csv"]:
        assert client.get(url).status_code == 200, url
    page = client.get(f"/tournament/{tournament.pk}/").content.decode()
    club = client.get("/club/friday-goats/").content.decode()
    directing = role in DIRECTING
    assert ('id="director-tools"' in page) is directing
    assert ('id="club-audit"' in club) is directing
    assert ("tournament.create" in page) is directing  # the audit log: directors only


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_director_only_pages(client, club_cast, tournament, role):
    login(client, club_cast, role)
    create = client.get("/club/friday-goats/tournaments/new/").status_code
    edit = client.get("/club/friday-goats/edit/").status_code
    assert create == (200 if role in DIRECTING else 404)
    assert edit == (200 if role in {"owner", "moderator"} else 404)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_approving_a_request(client, club_cast, role):
    club = club_cast.club
    asker = make_user("asker")
    Membership.objects.create(club=club, user=asker, status="requested")
    login(client, club_cast, role)
    client.post("/club/friday-goats/members/decide/", {"user_id": asker.pk,
                                                       "decision": "approve"})
    status = Membership.objects.get(club=club, user=asker).status
    assert status == ("active" if role in DIRECTING else "requested")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("ban", ["", "1"])
def test_removing_or_banning_a_member(client, club_cast, role, ban):
    club, victim = club_cast.club, club_cast.players[0]
    login(client, club_cast, role)
    client.post("/club/friday-goats/members/remove/", {"user_id": victim.pk,
                                                       "reason": "testing", "ban": ban})
    m = Membership.objects.filter(club=club, user=victim).first()
    if role in DIRECTING:
        assert (m is None) if not ban else (m.status == "banned")
        assert AuditEntry.objects.filter(club=club, action__startswith="member.",
                                         actor=club_cast.who(role)).exists()
    else:
        assert m.status == "active"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_appointing_a_director(client, club_cast, role):
    login(client, club_cast, role)
    target = club_cast.players[1]
    client.post("/club/friday-goats/members/role/", {"user_id": target.pk, "role": "director"})
    got = Membership.objects.get(club=club_cast.club, user=target).role
    assert got == ("director" if role in {"owner", "moderator"} else "member")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_joining_and_leaving(client, club_cast, role):
    user = login(client, club_cast, role)
    client.post("/club/friday-goats/join/")
    was = Membership.objects.filter(club=club_cast.club, user=user, status="active").exists()
    assert was  # an open club: everyone who was not a member is one now
    client.post("/club/friday-goats/leave/")
    still = Membership.objects.filter(club=club_cast.club, user=user).exists()
    assert still is (role == "owner")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_creating_a_tournament(client, club_cast, role):
    login(client, club_cast, role)
    before = Tournament.objects.count()
    client.post("/club/friday-goats/tournaments/new/", {
        "name": "Cup", "format": "swiss", "rounds": 3, "target": 12, "turn_seconds": "",
        "checkin_minutes": 5, "round_minutes": 60})
    assert Tournament.objects.count() - before == (1 if role in DIRECTING else 0)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ["close_registration", "add_bot"])
def test_director_tools(client, club_cast, tournament, role, action):
    login(client, club_cast, role)
    client.post(f"/tournament/{tournament.pk}/director/", {"action": action,
                                                           "level": "casual"})
    tournament.refresh_from_db()
    done = (tournament.status == "closed" if action == "close_registration"
            else tournament.entries.filter(bot_level="casual").exists())
    assert done is (role in DIRECTING)
    logged = AuditEntry.objects.filter(tournament=tournament, actor=club_cast.who(role))
    assert logged.exists() is (role in DIRECTING)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_registering(client, club_cast, tournament, role):
    """Members (directors and the owner are members) may register; a stranger and a
    moderator who is not a member may not."""
    user = login(client, club_cast, role)
    partner = club_cast.players[2]
    client.post(f"/tournament/{tournament.pk}/register/", {"partner": partner.username})
    entered = Entry.objects.filter(tournament=tournament, player1=user).exists()
    assert entered is (role in {"member", "director", "owner"})


@pytest.mark.django_db
def test_a_banned_member_can_do_nothing(client, club_cast, tournament):
    mila = club_cast.member
    Membership.objects.filter(club=club_cast.club, user=mila).update(status="banned")
    client.force_login(mila)
    client.post("/club/friday-goats/join/")
    client.post(f"/tournament/{tournament.pk}/register/", {"partner": "p00"})
    assert Membership.objects.get(club=club_cast.club, user=mila).status == "banned"
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_anonymous_posts_go_to_sign_in_and_change_nothing(client, club_cast, tournament):
    for url in ["/club/friday-goats/join/", f"/tournament/{tournament.pk}/director/",
                f"/tournament/{tournament.pk}/register/"]:
        response = client.post(url, {"action": "close_registration"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    tournament.refresh_from_db()
    assert tournament.status == "registration"
    assert Club.objects.get().memberships.count() == 3 + 12
