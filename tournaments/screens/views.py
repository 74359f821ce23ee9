"""The lobby screens' layouts: the page that lists them (new, copy, import, export,
delete, an image uploaded), the editor, and the editor's live preview. Thin: each POST calls one
service of ``services.layouts``; the editor saves through the API like every other client."""

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.db.models import Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import bodylimits, jsonbody, uploads
from tdmanager.api import object_id
from tdmanager.errors import DomainError
from tdmanager.security import no_store
from tournaments.eventlog.services import Actor
from tournaments.live.views import chips_of
from tournaments.models import (
    DisplayScreen,
    ScreenImage,
    ScreenLayout,
    Tournament,
)
from tournaments.screens import rules as screen_rules
from tournaments.screens import services as screen_services
from tournaments.screens.services import choices as layout_choices
from tournaments.screens.services import sounds_of

MAX_FILE = bodylimits.LAYOUT_FILE  # an exported layout with its images (the web app's limit for the page's body is made of it)


def _perform(request) -> str | ScreenLayout:
    op, actor = request.POST.get("op"), Actor.from_request(request)
    if op == "new":
        source = screen_services.resolve(request.POST.get("from") or screen_rules.DEFAULT_KEY)
        return screen_services.save_layout(name=request.POST.get("name", ""), design=source["design"], portrait=source["portrait"], actor=actor)
    if op == "delete":
        screen_services.delete_layout(get_object_or_404(ScreenLayout, pk=object_id(request.POST.get("layout"))), actor=actor)
        return _("Layout deleted.")
    if op in ("import", "image"):
        # the form's files are on disk by now (Django's upload handlers); reading one is the cost
        with uploads.reading(request, bodylimits.IMAGE):
            return _read_file(request, op, actor)
    raise DomainError("unknown_action", _("Unknown action."), status=404)


def _read_file(request, op, actor) -> str | ScreenLayout:
    if op == "import":
        upload = request.FILES.get("file")
        if upload is None or upload.size > MAX_FILE:
            raise DomainError("bad_file", _("Choose a layout file (at most 8 MB)."), field="file", status=400)
        try:
            # bounded like the API's bodies: a file of 100,000 "[" is refused, not a RecursionError
            data = jsonbody.loads(upload.read().decode("utf-8"))
        except jsonbody.TooDeep as exc:
            raise DomainError("bad_file", str(exc), field="file", status=400) from None
        except (UnicodeDecodeError, ValueError):
            raise DomainError("bad_file", _("This is not a layout file of this product."), field="file", status=400) from None
        return screen_services.import_layout(data, actor=actor)
    upload = request.FILES.get("image")
    content = upload.read(screen_services.MAX_UPLOAD + 1) if upload is not None else b""
    image = screen_services.upload_image(name=request.POST.get("name", "") or getattr(upload, "name", ""), content=content, actor=actor)
    return _("Image %(name)s uploaded (%(w)s × %(h)s).") % {"name": image.name, "w": image.width, "h": image.height}


def layouts_page(request):
    if request.method == "POST":
        try:
            done = _perform(request)
        except DomainError as exc:
            messages.error(request, str(exc.message))
            return redirect("screen-layouts")
        if isinstance(done, ScreenLayout):
            messages.success(request, _("Layout %(name)s ready: place its blocks and save.") % {"name": done.name})
            return redirect("screen-layout-edit", pk=done.pk)
        messages.success(request, done)
        return redirect("screen-layouts")
    used = {}
    for screen in DisplayScreen.objects.order_by("name"):
        for key in set((screen.layouts or {}).values()):
            used.setdefault(key, []).append(screen.name)
    rows = [{**c, "screens": used.get(c["key"], [])} for c in screen_services.choices()]
    if not any(r["screens"] for r in rows if r["key"] == screen_rules.DEFAULT_KEY):
        unset = [s.name for s in DisplayScreen.objects.order_by("name") if not (s.layouts or {}).get("live")]
        for r in rows:
            if r["key"] == screen_rules.DEFAULT_KEY:
                r["screens"] = r["screens"] + unset
    images = ScreenImage.objects.order_by("-created_at").values("pk", "name", "width", "height", "digest")[:100]
    return render(request, "screen_layouts.html", {"rows": rows, "images": images})


def layout_editor(request, pk: int):
    layout = get_object_or_404(ScreenLayout, pk=pk)
    tournaments = Tournament.objects.exclude(status=Tournament.CANCELLED).order_by("-start_at").values("pk", "name")[:30]
    context = {
        "layout": layout,
        "editor": {
            "id": layout.pk,
            "name": layout.name,
            "portrait": layout.portrait,
            "design": layout.design,
            "grid": screen_rules.GRID,
            "kinds": {k: str(v) for k, v in screen_rules.BLOCKS.items()},
            "repeatable": [*screen_rules.TEXT_KINDS, *screen_rules.IMAGE_KINDS],
            "images": [{"id": i["pk"], "name": i["name"]} for i in ScreenImage.objects.order_by("name").values("pk", "name")],
            "font": screen_rules.FONT_RANGE,
            "takesOver": screen_rules.TAKES_OVER_AT_THE_END,
        },
        "tournaments": tournaments,
    }
    return render(request, "screen_layout_editor.html", context)


def layout_preview(request):
    """The lobby screen as a TV shows it, for the editor's preview (staff: no screen token): the
    tournament chosen, the layout the editor sends (``display.js`` listens for it)."""
    t = Tournament.objects.filter(pk=object_id(request.GET.get("tournament"))).first()
    if t is None:
        raise Http404
    chosen = screen_services.resolve(request.GET.get("key") or screen_rules.DEFAULT_KEY)
    panels = {p: p != "sounds" for p in DisplayScreen.PANELS}
    rotation = {
        "seconds": 20,
        "tournaments": [{"id": t.pk, "name": t.name, "chips": chips_of(t)}],
        "panels": panels,
        # every image: the editor may place any of them while the preview is open
        "design": {"layouts": {"live": chosen}, "images": screen_services.image_addresses(), "speaker": False, "sounds": screen_rules.default_sounds()},
    }
    return render(request, "display.html", {"t": t, "panels": panels, "token": "", "rotation": rotation, "preview": True})


def layout_export(request):
    """A layout as a file to share with another room (``services.layouts.export_layout``)."""
    key = request.GET.get("key") or screen_rules.DEFAULT_KEY
    data = screen_services.export_layout(key)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in data["name"]).strip("-")[:40] or "layout"
    response["Content-Disposition"] = f'attachment; filename="{slug}.tdm-layout.json"'
    return response


def displays_page(request):
    """The venue's lobby screens: what each shows, and the tournaments it rotates between. A
    director revokes a screen's link or gives it a new one (POST ``op`` revoke / rotate)."""
    if request.method == "POST":
        screen = get_object_or_404(DisplayScreen, pk=object_id(request.POST.get("screen")))
        if request.POST.get("op") == "rotate":
            screen_services.rotate_screen_token(screen, actor=Actor.from_request(request))
            messages.success(request, _("%(name)s has a new link: open it on the screen. The old link no longer works.") % {"name": screen.name})
        else:
            screen_services.revoke_screen_token(screen, actor=Actor.from_request(request))
            messages.success(request, _("%(name)s: its link no longer works.") % {"name": screen.name})
        return redirect("displays")
    screens = DisplayScreen.objects.select_related("tournament").prefetch_related("rotate").order_by("name")
    recent = timezone.now() - timedelta(days=3)
    choices = (
        Tournament.objects.filter(Q(status__in=[Tournament.PLANNED, Tournament.REGISTERING, Tournament.RUNNING]) | Q(start_at__gte=recent))
        .exclude(status=Tournament.CANCELLED)
        .order_by("start_at", "id")
    )
    rows = []
    for sc in screens:
        sounds = sounds_of(sc)
        events = [{"name": e, "label": label, **sounds["events"][e]} for e, label in screen_rules.SOUND_EVENTS.items()]
        rows.append(
            {"screen": sc, "rotating": {t.pk for t in sc.rotate.all()}, "layouts": sc.layouts or {}, "warn_minutes": sounds["warn_minutes"], "events": events}
        )
    response = render(
        request,
        "displays.html",
        {
            "rows": rows,
            "choices": choices,
            "layout_choices": layout_choices(),
            "states": screen_rules.STATES.items(),
            "sound_choices": screen_rules.SOUNDS.items(),
            "languages": settings.LANGUAGES,
        },
    )
    return no_store(response)  # each screen's link is its key
