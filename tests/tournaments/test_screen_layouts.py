"""Issue #43: the lobby screen's layouts as data. A layout names only blocks the screen knows, on
its grid, in colours it can read; a wrong one is refused naming the field; images are decoded and
encoded again, never served as sent; a layout travels as a file with its images; a screen's
layouts and its speaker are checked; the page draws a layout's text as text."""

import io
import json

import pytest
from PIL import Image

from tournaments.models import DisplayScreen, ScreenImage, ScreenLayout
from tournaments.screens import rules as layouts
from tournaments.screens import services as screen_services

pytestmark = pytest.mark.django_db


def png(width=40, height=20, colour=(200, 30, 30, 255), extra: bytes = b"") -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), colour).save(out, format="PNG")
    return out.getvalue() + extra


def design(*blocks, **theme):
    return {
        "theme": {"background": "#101010", "text": "#fafafa", "accent": "#ffcc00", **theme},
        "blocks": list(blocks) or [{"kind": "clock", "x": 0, "y": 0, "w": 24, "h": 24}],
    }


@pytest.mark.parametrize(
    ("block", "field"),
    [
        ({"kind": "marquee", "x": 0, "y": 0, "w": 2, "h": 2}, "blocks[0].kind"),
        ({"kind": "clock", "x": 20, "y": 0, "w": 5, "h": 2}, "blocks[0].w"),
        ({"kind": "clock", "x": 0, "y": 24, "w": 5, "h": 2}, "blocks[0].y"),
        ({"kind": "clock", "x": 0, "y": 0, "w": 5, "h": 2, "font": 9}, "blocks[0].font"),
        ({"kind": "clock", "x": 0, "y": 0, "w": 5, "h": 2, "fg": "red; background:url(x)"}, "blocks[0].fg"),
        ({"kind": "text", "x": 0, "y": 0, "w": 5, "h": 2, "text": "x" * 1001}, "blocks[0].text"),
        ({"kind": "logo", "x": 0, "y": 0, "w": 5, "h": 2}, "blocks[0].image"),
    ],
)
def test_a_wrong_block_is_refused_naming_its_field(block, field):
    with pytest.raises(screen_services.ValidationFailed) as refused:
        layouts.clean_design(design(block))
    assert refused.value.extra["field"] == field


def test_a_data_block_is_placed_once_texts_and_images_again():
    twice = design({"kind": "clock", "x": 0, "y": 0, "w": 4, "h": 4}, {"kind": "clock", "x": 4, "y": 0, "w": 4, "h": 4})
    with pytest.raises(screen_services.ValidationFailed) as refused:
        layouts.clean_design(twice)
    assert refused.value.extra["field"] == "blocks[1].kind"
    texts = design({"kind": "text", "x": 0, "y": 0, "w": 4, "h": 4, "text": "a"}, {"kind": "text", "x": 4, "y": 0, "w": 4, "h": 4, "text": "b"})
    assert [b["text"] for b in layouts.clean_design(texts)["blocks"]] == ["a", "b"]
    # what the page would not draw is not kept
    kept = layouts.clean_design(design({"kind": "clock", "x": 1, "y": 1, "w": 2, "h": 2, "onclick": "x", "html": "<b>"}))
    assert set(kept["blocks"][0]) == {"kind", "x", "y", "w", "h", "font", "fg", "bg"}


def test_every_built_in_layout_is_valid():
    for name, b in layouts.BUILTIN.items():
        assert layouts.clean_design(b["design"]) == b["design"], name


def test_an_uploaded_image_is_drawn_again_never_served_as_sent(client, director, actor):
    sent = png(3000, 1500, extra=b"<script>alert(1)</script>")  # a comment riding after the image
    image = screen_services.upload_image(name="Logo", content=sent, actor=actor)
    stored = bytes(image.png)
    assert stored != sent and b"<script>" not in stored
    with Image.open(io.BytesIO(stored)) as again:
        assert again.format == "PNG" and again.size == (1920, 960) == (image.width, image.height)  # at most 1920 wide
    r = client.get(f"/screens/images/{image.digest}.png")  # public: every screen shows it
    assert r.status_code == 200 and r["Content-Type"] == "image/png" and r["X-Content-Type-Options"] == "nosniff" and r.content == stored
    for bad, code in ((b"<html><script>alert(1)</script></html>", "bad_image"), (b"GIF89a" + b"\x00" * 10, "bad_image"), (b"", "invalid")):
        with pytest.raises(screen_services.ValidationFailed) as refused:
            screen_services.upload_image(name="x", content=bad, actor=actor)
        assert refused.value.code == code and refused.value.extra["field"] == "image"


def test_an_image_is_read_once_per_process(client, actor, django_assert_num_queries):
    image = screen_services.upload_image(name="Sponsor", content=png(), actor=actor)
    assert client.get(f"/screens/images/{image.digest}.png").status_code == 200
    with django_assert_num_queries(0):
        assert client.get(f"/screens/images/{image.digest}.png").status_code == 200
    for unknown in ("0" * 64, "999999", "../etc/passwd"):
        assert client.get(f"/screens/images/{unknown}.png").status_code == 404


def test_the_api_saves_refuses_naming_the_field_and_keeps_a_used_layout(api, director, floor_user, make_tournament):
    boss = api(director)
    assert api(floor_user).get("/api/v1/screen-layouts/").status_code == 403
    listed = boss.get("/api/v1/screen-layouts/").json()
    assert [c["key"] for c in listed["layouts"]][:4] == ["builtin:default", "builtin:break", "builtin:final", "builtin:portrait"]
    r = boss.post("/api/v1/screen-layouts/", {"name": "Sala", "design": design()}, format="json")
    assert r.status_code == 201
    lid = r.json()["id"]
    bad = design({"kind": "clock", "x": 0, "y": 0, "w": 4, "h": 4}, {"kind": "payouts", "x": 30, "y": 0, "w": 4, "h": 4})
    r = boss.put(f"/api/v1/screen-layouts/{lid}/", {"name": "Sala", "design": bad}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["field"] == "blocks[1].x" and "da 0 a 23" in r.json()["detail"]
    assert ScreenLayout.objects.get(pk=lid).design == layouts.clean_design(design())  # nothing lost
    r = boss.post("/api/v1/screen-layouts/", {"name": "Sala", "design": design()}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "name_taken"
    t = make_tournament()
    screen = boss.post("/api/v1/screens/", {"name": "TV", "tournament": t.pk, "layouts": {"live": f"layout:{lid}"}}, format="json").json()
    r = boss.delete(f"/api/v1/screen-layouts/{lid}/")
    assert r.status_code == 409 and r.json()["code"] == "layout_in_use" and "TV" in r.json()["detail"]
    r = boss.patch(f"/api/v1/screens/{screen['id']}/", {"layouts": {"live": "layout:99999"}}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "layouts.live"
    r = boss.patch(f"/api/v1/screens/{screen['id']}/", {"layouts": {"live": "builtin:default", "break": "builtin:break"}}, format="json")
    assert r.status_code == 200 and r.json()["layouts"] == {"live": "builtin:default", "break": "builtin:break"}
    assert boss.delete(f"/api/v1/screen-layouts/{lid}/").status_code == 204


def test_a_layout_travels_as_a_file_with_its_images(api, director, actor):
    logo = screen_services.upload_image(name="Casinò", content=png(64, 32), actor=actor)
    made = screen_services.save_layout(
        name="Serata",
        design=design({"kind": "logo", "x": 0, "y": 0, "w": 4, "h": 3, "image": logo.pk}, {"kind": "clock", "x": 4, "y": 0, "w": 20, "h": 24}),
        actor=actor,
    )
    boss = api(director)
    file = boss.get("/api/v1/screen-layouts/export/", {"key": f"layout:{made.pk}"}).json()
    assert file["format"] == "tdmanager-screen-layout" and list(file["images"]) == [str(logo.pk)]
    r = boss.post("/api/v1/screen-layouts/import/", {"file": file}, format="json")
    assert r.status_code == 201
    imported = r.json()
    assert imported["name"] == "Serata (2)"  # the name was taken
    new_logo = imported["design"]["blocks"][0]["image"]
    assert new_logo != logo.pk and bytes(ScreenImage.objects.get(pk=new_logo).png) == bytes(logo.png)
    assert [b["kind"] for b in imported["design"]["blocks"]] == ["logo", "clock"]
    for broken in ({"format": "other"}, {**file, "images": {str(logo.pk): {"name": "x", "png": "bm90IGFuIGltYWdl"}}}):
        r = boss.post("/api/v1/screen-layouts/import/", {"file": broken}, format="json")
        assert r.status_code == 400 and r.json()["code"] in ("bad_file", "bad_image")
    assert boss.get("/api/v1/screen-layouts/export/", {"key": "builtin:nope"}).status_code == 404


def test_one_speaker_among_the_screens_of_a_tournament(actor, make_tournament):
    t, other = make_tournament(name="Main"), make_tournament(name="Side")
    a = screen_services.create_screen({"name": "A", "tournament": t, "speaker": True}, actor=actor)
    c = screen_services.create_screen({"name": "C", "tournament": other, "speaker": True}, actor=actor)
    b = screen_services.create_screen({"name": "B", "tournament": t}, actor=actor)
    screen_services.update_screen(b, {"speaker": True}, actor=actor)
    assert dict(DisplayScreen.objects.values_list("name", "speaker")) == {"A": False, "B": True, "C": True}  # C speaks for another event
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.update_screen(c, {"sounds": {"events": {"level": {"sound": "siren"}}}}, actor=actor)
    assert refused.value.extra["field"] == "sounds.events.level.sound"
    screen_services.update_screen(c, {"sounds": {"warn_minutes": 5, "events": {"level": {"speak": False}}}}, actor=actor)
    stored = DisplayScreen.objects.get(pk=c.pk).sounds
    assert stored["warn_minutes"] == 5 and stored["events"]["level"] == {"on": True, "sound": "chime", "speak": False, "text": ""}
    assert a.pk


def test_the_screen_page_draws_a_layouts_text_as_text_and_serves_it_once(client, actor, make_tournament):
    t = make_tournament(name="Main")
    hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
    made = screen_services.save_layout(
        name="Hostile",
        design=design({"kind": "text", "x": 0, "y": 0, "w": 24, "h": 4, "text": hostile}, {"kind": "clock", "x": 0, "y": 4, "w": 24, "h": 20}),
        actor=actor,
    )
    DisplayScreen.objects.create(name="TV", tournament=t, token="tv-hostile", layouts={"live": f"layout:{made.pk}"})
    page = client.get("/display/tv-hostile/").content.decode()
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    config = client.get("/display/tv-hostile/", {"config": 1}).json()
    assert config["design"]["layouts"]["live"]["design"]["blocks"][0]["text"] == hostile  # data, drawn as a text node
    state = client.get(f"/live/{t.pk}/state/", {"token": "tv-hostile"}).json()
    assert "Hostile" not in json.dumps(state) and "blocks" not in state  # the frames carry no layout


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"layouts": {"live": ["builtin:default"]}}, "layouts.live"),
        ({"layouts": ["live"]}, "layouts"),
        ({"sounds": {"events": {"level": {"sound": ["chime"]}}}}, "sounds.events.level.sound"),
        ({"sounds": "loud"}, "sounds"),
    ],
)
def test_a_screen_refuses_what_is_not_a_layout_or_a_sound_naming_the_field(api, director, make_tournament, body, field):
    boss = api(director)
    screen = boss.post("/api/v1/screens/", {"name": "TV", "tournament": make_tournament().pk}, format="json").json()
    r = boss.patch(f"/api/v1/screens/{screen['id']}/", body, format="json")
    assert r.status_code == 400 and r.json()["field"] == field


def test_a_block_whose_kind_is_not_a_word_is_refused(api, director):
    r = api(director).post("/api/v1/screen-layouts/", {"name": "X", "design": {"blocks": [{"kind": ["clock"], "x": 0, "y": 0, "w": 1, "h": 1}]}}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "blocks[0].kind"


def test_an_image_uploaded_through_the_api_may_hold_nul_bytes_a_text_file_is_no_image(client, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    content = png()
    assert b"\x00" in content  # every PNG does
    r = client.post("/api/v1/screen-images/", {"name": "Logo", "image": SimpleUploadedFile("logo.png", content, content_type="image/png")})
    assert r.status_code == 201 and r.json()["width"] == 40
    for text in (b"kind,small_blind\nLEVEL,1\x0000\n", b'{"name": "x\x00"}'):  # text, whatever type it claims
        r = client.post("/api/v1/screen-images/", {"name": "x", "image": SimpleUploadedFile("logo.png", text, content_type="image/png")})
        assert r.status_code == 400 and r.json()["code"] == "bad_image"  # the image field's bytes are the service's to judge


def test_an_image_address_is_its_bytes_whatever_happens_to_the_rows(client, actor):
    """A restore (or a test database) may give an id to another image: the address is the
    image's digest, so a web process that kept the first never shows it for the second."""
    first = screen_services.upload_image(name="A", content=png(10, 10), actor=actor)
    assert client.get(f"/screens/images/{first.digest}.png").status_code == 200  # kept by this process
    ScreenImage.objects.all().delete()
    second = screen_services.upload_image(name="B", content=png(30, 10), actor=actor)
    with Image.open(io.BytesIO(client.get(f"/screens/images/{second.digest}.png").content)) as shown:
        assert shown.size == (30, 10)


def classic_with(*extra):
    """A copy of the built-in Classic layout with ``extra`` blocks added."""
    blocks = json.loads(json.dumps(layouts.BUILTIN["default"]["design"]["blocks"]))
    return design(*blocks, *extra)


def test_a_block_over_another_is_refused_naming_both_and_their_cells_blocks_that_take_turns_are_not(api, director, actor):
    logo = screen_services.upload_image(name="Logo", content=png(), actor=actor)
    over_players = classic_with({"kind": "logo", "x": 17, "y": 2, "w": 2, "h": 2, "image": logo.pk})  # the logo over "Players left"
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.save_layout(name="Serata", design=over_players, actor=actor)
    assert refused.value.code == "blocks_overlap" and refused.value.extra["field"] == "blocks[14]"
    assert refused.value.message == (
        "blocks[14]: Logo (column 18, row 3, 2 by 2 cells) overlaps Players left and entries (column 18, row 3, 7 by 3 cells): "
        "place them apart, or on exactly the same cells to take turns"
    )
    assert not ScreenLayout.objects.exists()
    # the same through the API, in Italian, and an import of the same design
    boss = api(director)
    r = boss.post("/api/v1/screen-layouts/", {"name": "Serata", "design": over_players}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["code"] == "blocks_overlap" and r.json()["field"] == "blocks[14]"
    assert "colonna 18, riga 3" in r.json()["detail"] and "Giocatori" in r.json()["detail"]
    file = {"format": "tdmanager-screen-layout", "version": 1, "name": "Serata", "design": over_players, "images": {}}
    with pytest.raises(screen_services.ValidationFailed) as refused:
        screen_services.import_layout(file, actor=actor)
    assert refused.value.code == "blocks_overlap"
    # on exactly the same cells as the players, the logo takes turns with them: accepted
    taking_turns = classic_with({"kind": "logo", "x": 17, "y": 2, "w": 7, "h": 3, "image": logo.pk})
    assert screen_services.save_layout(name="A turni", design=taking_turns, actor=actor).design["blocks"][-1]["kind"] == "logo"
    assert [sorted(g) for g in layouts.turns(taking_turns["blocks"])] == [[5, 14], [8, 9]]
    # the results cover the blocks of the play (in their place at the end): a copy of every built-in one is saved
    for name, built in layouts.BUILTIN.items():
        screen_services.save_layout(name=f"Copia {name}", design=built["design"], portrait=built["portrait"], actor=actor)
