"""Club services and pages: create, join by policy, requests, removal and bans (audited),
roles, the clubs list and search, a player's profile listing their clubs."""

from __future__ import annotations

import pytest

from games.errors import InvalidRequestError, PermissionDeniedError
from games.tournaments.models import AuditEntry, Club, Membership
from games.tournaments.services import clubs
from tests.games.conftest import make_user


def settings_for(slug="chess-and-goats", **kw):
    return clubs.ClubSettings(name=kw.pop("name", "Goats"), slug=slug, **kw)


@pytest.mark.django_db
def test_any_verified_user_creates_a_club_and_owns_it():
    vera = make_user("vera")
    club = clubs.create_club(vera, settings_for())
    m = Membership.objects.get(club=club, user=vera)
    assert m.role == "owner" and m.status == "active"
    assert AuditEntry.objects.filter(club=club, action="club.create").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), [
    ({"slug": "X"}, "lower-case"), ({"slug": "new"}, "lower-case"), ({"name": "A"}, "2 to 60"),
    ({"country": "ZZ"}, "country"), ({"language": "xx"}, "language"),
    ({"join_policy": "maybe"}, "open, by request"),
])
def test_bad_club_settings_are_refused_and_nothing_is_created(change, message):
    vera = make_user("vera")
    kwargs = {"name": "Goats", "slug": "goats", **change}
    with pytest.raises(InvalidRequestError, match=message):
        clubs.create_club(vera, clubs.ClubSettings(**kwargs))
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_an_unverified_user_cannot_create_a_club_and_a_taken_address_is_refused(club_cast):
    with pytest.raises(PermissionDeniedError, match="Verify"):
        clubs.create_club(make_user("nova", verified=False), settings_for())
    with pytest.raises(InvalidRequestError, match="taken"):
        clubs.create_club(club_cast.stranger, settings_for(slug="friday-goats"))


@pytest.mark.django_db
def test_join_follows_the_clubs_policy(club_cast):
    club = club_cast.club
    sam = club_cast.stranger
    assert clubs.join(club.pk, sam).status == "active"  # open
    clubs.leave(club.pk, sam)
    club.join_policy = Club.JoinPolicy.REQUEST
    club.save()
    assert clubs.join(club.pk, sam).status == "requested"
    clubs.decide_request(club.pk, club_cast.director, sam.pk, approve=True)
    assert Membership.objects.get(club=club, user=sam).status == "active"
    clubs.leave(club.pk, sam)
    club.join_policy = Club.JoinPolicy.INVITE
    club.save()
    with pytest.raises(PermissionDeniedError, match="invite link"):
        clubs.join(club.pk, sam)
    assert clubs.join(club.pk, sam, token=club.invite_token).status == "active"


@pytest.mark.django_db
def test_a_ban_needs_a_reason_is_audited_and_keeps_the_person_out(club_cast):
    club, mila = club_cast.club, club_cast.member
    with pytest.raises(InvalidRequestError, match="reason"):
        clubs.remove_member(club.pk, club_cast.director, mila.pk, "  ", ban=True)
    assert Membership.objects.get(club=club, user=mila).status == "active"
    clubs.remove_member(club.pk, club_cast.director, mila.pk, "abusive chat", ban=True)
    assert Membership.objects.get(club=club, user=mila).status == "banned"
    entry = AuditEntry.objects.get(club=club, action="member.ban")
    assert entry.reason == "abusive chat" and entry.actor == club_cast.director
    with pytest.raises(PermissionDeniedError, match="banned"):
        clubs.join(club.pk, mila)


@pytest.mark.django_db
def test_directors_cannot_remove_the_owner_or_other_directors(club_cast):
    club = club_cast.club
    other = make_user("dora")
    Membership.objects.create(club=club, user=other, role="director")
    with pytest.raises(PermissionDeniedError, match="owner cannot"):
        clubs.remove_member(club.pk, club_cast.director, club_cast.owner.pk, "coup")
    with pytest.raises(PermissionDeniedError, match="Only the owner"):
        clubs.remove_member(club.pk, club_cast.director, other.pk, "rival")
    clubs.remove_member(club.pk, club_cast.owner, other.pk, "stepped down")
    assert not Membership.objects.filter(club=club, user=other).exists()


@pytest.mark.django_db
def test_the_owner_appoints_directors_and_cannot_leave(club_cast):
    club = club_cast.club
    with pytest.raises(PermissionDeniedError):
        clubs.set_role(club.pk, club_cast.director, club_cast.member.pk, "director")
    clubs.set_role(club.pk, club_cast.owner, club_cast.member.pk, "director")
    assert Membership.objects.get(club=club, user=club_cast.member).role == "director"
    with pytest.raises(InvalidRequestError, match="director or member"):
        clubs.set_role(club.pk, club_cast.owner, club_cast.member.pk, "owner")
    with pytest.raises(PermissionDeniedError, match="owner cannot leave"):
        clubs.leave(club.pk, club_cast.owner)


@pytest.mark.django_db
def test_clubs_page_lists_and_searches_clubs(client, club_cast):
    clubs.create_club(club_cast.stranger, settings_for(slug="moscow-kozel", name="Moscow Kozel"))
    html = client.get("/clubs/").content.decode()
    assert "<h1>Clubs</h1>" in html and "Friday Goats" in html and "Moscow Kozel" in html
    assert "coming soon" not in html
    found = client.get("/clubs/", {"q": "moscow"}).content.decode()
    assert "Moscow Kozel" in found and "Friday Goats" not in found
    assert "No club matches" in client.get("/clubs/", {"q": "zzz"}).content.decode()


@pytest.mark.django_db
def test_club_page_shows_members_and_the_join_button(client, club_cast):
    html = client.get("/club/friday-goats/").content.decode()
    assert "Friday Goats" in html and 'data-member="mila"' in html
    assert "Sign in to join" in html
    client.force_login(club_cast.stranger)
    assert "Join the club" in client.get("/club/friday-goats/").content.decode()
    assert client.get("/club/nope/").status_code == 404


@pytest.mark.django_db
def test_a_players_profile_lists_their_clubs(client, club_cast):
    html = client.get(f"/@/{club_cast.director.username}").content.decode()
    assert 'id="profile-clubs"' in html and "Friday Goats" in html and "(director)" in html
    stranger = client.get(f"/@/{club_cast.stranger.username}").content.decode()
    assert 'id="profile-clubs"' not in stranger


@pytest.mark.django_db
def test_create_club_form_shows_errors_and_changes_nothing(client, club_cast):
    client.force_login(club_cast.stranger)
    response = client.post("/clubs/new/", {"name": "X", "slug": "Bad Slug!",
                                           "language": "en", "join_policy": "open"})
    assert response.status_code == 400
    assert Club.objects.count() == 1
    response = client.post("/clubs/new/", {"name": "Sam's", "slug": "sams-club",
                                           "language": "en", "join_policy": "request"})
    assert response.status_code == 302 and response["Location"] == "/club/sams-club/"
