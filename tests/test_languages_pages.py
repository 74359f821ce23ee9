"""German, Spanish and French, whole: every role's pages carry no English message the product
wrote, each login keeps the language it chose, a lobby screen speaks its own.

The room is the running demo (``tests.test_role_links.make_demo``). For each new language each
staff role chooses it once with the page's language picker (kept with the login), then its pages
are walked from its landing page (one address per route, every route the role reaches: 13 to
22 s a language) and read as a user reads them, each page saying ``<html lang>`` is the language
chosen: the visible text, scripts and styles and what the page marks ``lang="en"`` (the
rulebook's texts) left out, the data the demo stored (names) as it is. A player's pages (phone,
seat lookup, rules) are read with the browser's language, the lobby screen with the screen's own. None may show an English word of the product's (``ENGLISH``, less each language's
card-room loanwords) nor a raw code.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.test_role_links import ROLES, login, make_demo, role_starts, walk
from tournaments.models import DisplayScreen, Entry, LoginLanguage

pytestmark = pytest.mark.django_db

NEW = ("de", "es", "fr")
#: words of the product's English that none of the new languages uses
ENGLISH_WORDS = (
    "Players|Prize pool|Payouts?|Winner|Receipt|Cashier|Sold|Finished|Running|Registering|Planned|Next|Average|Busted|Undo|"
    "Amount|Paid|Tournaments?|Seats?|Log out|Save|Cancel|Search|Settings|Devices|Players left|Late registration|Chip sets|"
    "Lobby displays|Floor overview|Import and export|Logins|Payments|Standings|Rulings|Starting stack|Break|Add-ons|Rebuys"
)
#: card-room English a language keeps (its glossary in docs/translating.md)
LOANWORDS = {"de": {"Logins", "Rebuys", "Add-ons"}, "es": {"Add-ons"}, "fr": {"Add-ons", "Prize pool"}}
RAW = re.compile(
    r"\b(BUY_IN|RE_ENTRY|ADD_ON|NOT_STARTED|PAUSED_|HAND_FOR_HAND|MISSED_ROUNDS|SOFT_PLAY|REGISTERING|PLANNED|FINISHED|"
    r"BUSTED|FINAL_TABLE|None|undefined|NaN)\b"
)
#: a bound on the requests of one role's walk, well above what any role's pages take (the
#: director's, every route once: about 60 requests for 51 page types): reaching it fails the test
#: rather than leave page types unread
WALK_BOUND = 300
#: other products' names, the same in every language (the room moves in from The Tournament Director)
PROPER_NAMES = ("The Tournament Director",)


def english(code: str) -> re.Pattern:
    words = [w for w in ENGLISH_WORDS.split("|") if w not in LOANWORDS.get(code, ())]
    return re.compile(r"\b(" + "|".join(words) + r")\b")


def visible_text(html: str) -> str:
    body = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S | re.I)
    # what the page itself marks as English (the rulebook's texts, an option naming English)
    body = re.sub(r"<(\w+)\b[^>]*\blang=\"en\"[^>]*>.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return " ".join(body.split())


def data_words(t) -> list[str]:
    """What the demo stored and the pages show as stored (names), English or not."""
    from tournaments.models import Person

    names = [t.name, t.structure.name, *Person.objects.values_list("first_name", flat=True), *Person.objects.values_list("last_name", flat=True)]
    names += list(DisplayScreen.objects.values_list("name", flat=True))
    return sorted({n for n in names if n}, key=len, reverse=True)


def problems(code: str, path: str, html: str, stored: list[str]) -> list[str]:
    said = re.search(r'<html lang="([^"]*)"', html)
    if said is None or said.group(1) != code:  # a page in another language: no English word proves it is ours
        return [f"{path}: <html lang> is {said.group(1) if said else None!r}, not {code!r}"]
    text = visible_text(html)
    for name in (*PROPER_NAMES, *stored):
        text = text.replace(name, " ")
    found = sorted(set(english(code).findall(text)) | set(RAW.findall(text)))
    return [f"{path}: {', '.join(found)}"] if found else []


def choose(client: Client, code: str) -> None:
    """The page's language picker, as a login uses it once."""
    response = client.post("/i18n/setlang/", {"language": code, "next": "/"})
    assert response.status_code == 302


@pytest.fixture
def demo(director):
    return make_demo(director)


@pytest.mark.parametrize("code", NEW)
def test_every_roles_pages_carry_no_english(code, demo, director):
    stored = data_words(demo)
    found, read = [], {}
    for role in ROLES:
        client = login(role, director)
        choose(client, code)
        user = director if role == "director" else get_user_model().objects.get(username=role)
        assert LoginLanguage.objects.get(user=user).language == code
        device = login(role, director)  # another device of the same login: no cookie, its language all the same
        _dead, opened, pages = walk(
            device, role_starts(device, demo), per_route=1, limit=WALK_BOUND, on_page=lambda p, h: found.extend(problems(code, p, h, stored))
        )
        assert opened < WALK_BOUND, f"{role}: the walk stopped at its bound, not at its last page"
        read[role] = len(pages)
    assert found == [], "English left:\n" + "\n".join(found)
    assert read["director"] >= 45 and read["cashier"] >= 15 and read["floor"] >= 30, read  # the walks reached the pages


@pytest.mark.parametrize("code", NEW)
def test_the_players_pages_follow_the_browsers_language(code, demo):
    stored = data_words(demo)
    entry = demo.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
    client = Client(HTTP_ACCEPT_LANGUAGE=f"{code}-{code.upper()},{code};q=0.9,en;q=0.5")
    found = []
    for path in (f"/p/{entry.phone_token}/", f"/seats/{demo.pk}/", f"/rules/{demo.pk}/", "/login/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert f'<html lang="{code}"' in response.content.decode(), path
        found += problems(code, path, response.content.decode(), stored)
    assert found == [], "English left:\n" + "\n".join(found)


@pytest.mark.parametrize("code", NEW)
def test_a_lobby_screen_shows_its_own_language_whatever_the_tvs_browser(code, demo):
    screen = DisplayScreen.objects.get(token="walk-screen-token")
    screen.language = code
    screen.save()
    italian_tv = Client(HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")
    html = italian_tv.get(f"/display/{screen.token}/").content.decode()
    assert f'<html lang="{code}"' in html
    assert problems(code, "display", html, data_words(demo)) == []
    other = DisplayScreen.objects.create(name="Other TV", tournament=demo, token="other-screen-token")
    assert '<html lang="it"' in italian_tv.get(f"/display/{other.token}/").content.decode()  # one without: the browser's


def test_a_login_that_chose_no_language_follows_the_browser(demo, director):
    client = login("cashier", director)
    client.cookies["django_language"] = "es"
    assert '<html lang="es"' in client.get("/desk/").content.decode()
    assert not LoginLanguage.objects.exists()


def test_the_picker_refuses_no_language_and_stores_none_it_does_not_offer(demo, director):
    client = login("floor", director)
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert not LoginLanguage.objects.exists()
    choose(client, "fr")
    choose(client, "de")  # chosen again: the last choice is kept
    assert list(LoginLanguage.objects.values_list("language", flat=True)) == ["de"]


def test_the_phone_page_offers_each_language_by_its_own_name_and_keeps_the_one_picked(demo):
    entry = demo.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
    client = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    client.cookies["django_language"] = "fr"  # what the page's picker sets (phone.js), over the browser's
    html = client.get(f"/p/{entry.phone_token}/").content.decode()
    assert '<html lang="fr"' in html
    picker = re.search(r'<select id="phone-language-pick".*?</select>', html, re.S).group(0)
    options = re.findall(r'<option value="(\w+)" lang="\w+" ?(selected)?>([^<]+)</option>', picker)
    assert [(code, name) for code, _sel, name in options] == [("en", "English"), ("it", "Italiano"), ("de", "Deutsch"), ("es", "Español"), ("fr", "Français")]
    assert [code for code, selected, _name in options if selected] == ["fr"]


def test_a_language_chosen_on_one_device_reaches_a_device_already_open_on_its_next_page(demo, director):
    desk = login("cashier", director)
    tablet = login("cashier", director)  # the same login, already open on another device
    assert '<html lang="en"' in tablet.get("/desk/").content.decode()
    choose(desk, "de")
    assert '<html lang="de"' in tablet.get("/desk/").content.decode()  # no new login needed
    choose(tablet, "fr")
    assert '<html lang="fr"' in desk.get("/desk/").content.decode()


def test_a_device_tokens_api_calls_speak_the_logins_language_over_the_request_header(demo, director, make_tournament):
    from tournaments.clock import services as clock_services
    from tournaments.eventlog.services import Actor
    from tournaments.staff.logins import issue_token

    t = make_tournament()
    clock_services.start_clock(t, actor=Actor(director, "test"))
    key = issue_token(director, device="Floor tablet")[1]
    api = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}")

    def refusal(accept):
        r = api.post(f"/api/v1/tournaments/{t.pk}/clock/start/", {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE=accept)
        assert r.status_code == 409
        return r.json(), r.headers["Content-Language"]

    assert refusal("es") == ({"code": "already_started", "detail": "El reloj ya se ha iniciado."}, "es")  # no choice: the header's
    choose(login("director", director), "fr")
    assert refusal("es") == ({"code": "already_started", "detail": "L'horloge a déjà été lancée."}, "fr")
    assert refusal("de")[1] == "fr"
