"""Pages of the control side: the rulings of a tournament (ROLE-05) and the controller's
witness signatures on draws and moves (ROLE-01). Thin: they call ``services.oversight``."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tournaments import signals
from tournaments.eventlog.services import Actor
from tournaments.models import Ruling, Tournament
from tournaments.oversight import selectors as oversight_selectors
from tournaments.oversight import services as oversight


def rulings_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        actor, op, p = Actor.from_request(request), request.POST.get("op"), request.POST
        try:
            if op == "record":
                r = oversight.record_ruling(
                    t,
                    actor=actor,
                    asked_by=p.get("asked_by", ""),
                    question=p.get("question", ""),
                    decision=p.get("decision", ""),
                    asked_at=p.get("asked_at") or None,
                    window=p.get("window", Ruling.HAND),
                    disputed_at=p.get("disputed_at") or None,
                    next_hand_at=p.get("next_hand_at") or None,
                    table_number=p.get("table_number") or None,
                    hand=p.get("hand", ""),
                )
                if r.late:
                    messages.warning(request, oversight.late_warning(r))
                messages.success(request, _("Ruling recorded. It is final: it can only be annotated."))
            elif op == "annotate":
                oversight.annotate_ruling(p.get("ruling"), p.get("text", ""), tournament=t, actor=actor)
                messages.success(request, _("Note added."))
            else:
                raise DomainError("unknown_action", _("Unknown action."), status=400)
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("rulings", pk=t.pk)
    rulings = Ruling.objects.filter(tournament=t).select_related("decided_by").prefetch_related("notes__user")
    reports = [link for answer in signals.ask(signals.report_links, tournament=t) for link in answer if link["name"] == "rulings"]
    return render(request, "rulings.html", {"t": t, "rulings": rulings, "windows": Ruling.WINDOWS, "reports": reports})


def witness_page(request, pk):
    t = get_object_or_404(Tournament, pk=pk)
    if request.method == "POST":
        try:
            oversight.witness(t, request.POST.get("event"), actor=Actor.from_request(request))
            messages.success(request, _("Witnessed."))
        except DomainError as exc:
            messages.error(request, str(exc.message))
        return redirect("witness", pk=t.pk)
    return render(request, "witness.html", {"t": t, "events": oversight_selectors.witness_list(t)})
