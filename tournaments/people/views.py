"""The people pages: the search and a person's page."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdmanager import policy
from tdmanager.api import named_detail
from tdmanager.errors import DomainError
from tdmanager.paging import Paged
from tdmanager.roles import has_role
from tournaments import signals
from tournaments.eventlog.services import Actor
from tournaments.floor import selectors as floor_selectors
from tournaments.models import Person
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.people.rules import masked_document
from tournaments.people.serializers import PersonSerializer

PEOPLE_FOUND = 200  # a search's answers: the person meant comes first, and a page of 50 shows them


def people_page(request):
    """Everyone, by last name, fifty a page with how many there are; ``?q=`` (two letters or
    more) the people found, the person meant first (``people.search_people``). The page's script
    reads the same page again as one types."""
    query = " ".join(request.GET.get("q", "").split())[:100]
    if len(query) >= 2:
        rows = people.search_people(query, limit=PEOPLE_FOUND, reader=request.user)
    else:
        rows = Person.objects.order_by("last_name", "first_name", "pk")
    paged = Paged(request, rows)
    for p in paged:
        p.masked_document = masked_document(p.document_id)
    # The search finds a document only for who reads whole numbers at the desk: the hint says so to him alone.
    return render(request, "people.html", {"finds_by_document": has_role(request.user, *policy.DOCUMENT_READERS), "paged": paged, "q": query})


def person_page(request, pk):
    person = get_object_or_404(Person, pk=pk)
    if request.method == "POST" and request.POST.get("op") == "erase":  # GDPR erasure (director; the policy checks)
        try:
            privacy.erase_person(person, request.POST.get("reason", ""), actor=Actor.from_request(request))
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The person's data has been erased: only the pseudonym and the money trail remain."))
        return redirect("person", pk=person.pk)
    revealed = None
    if request.method == "POST" and request.POST.get("op") == "reveal":  # a director reads the whole document (logged)
        revealed = privacy.reveal_document(person, actor=Actor.from_request(request))
    elif request.method == "POST" and request.POST.get("op") == "edit":  # the desk corrects the person's data (logged)
        fields = {k: request.POST[k] for k in people.EDITABLE if k in request.POST}
        for name in ("birth_date", "privacy_consent"):  # an emptied date field: no date
            if name in fields and not fields[name].strip():
                fields[name] = None
        if not fields.get("document_id", "").strip():
            fields.pop("document_id", None)  # the form shows the document masked: left empty, it is unchanged
        ser = PersonSerializer(person, data=fields, partial=True)
        if not ser.is_valid():
            messages.error(request, named_detail(ser.errors, PersonSerializer()))
            return redirect("person", pk=person.pk)
        try:
            people.update_person(person, actor=Actor.from_request(request), **ser.validated_data)
        except DomainError as exc:
            messages.error(request, str(exc.message))
        else:
            messages.success(request, _("The person's data has been corrected."))
        return redirect("person", pk=person.pk)
    elif request.method == "POST":  # the desk: the player opts out of the public seat lookup, or back in
        people.set_hidden_from_lookup(person, request.POST.get("hide_from_lookup") == "1", actor=Actor.from_request(request))
        messages.success(request, _("Hidden from the public seat lookup.") if person.hide_from_lookup else _("Shown on the public seat lookup."))
        return redirect("person", pk=person.pk)
    entries = list(person.entries.select_related("tournament").order_by("-created_at"))
    history: dict[int, dict] = {}
    for answer in signals.ask(signals.history_parts, person=person, entries=entries):  # payouts: prizes; formats: league points
        for pk, part in answer.items():
            history.setdefault(pk, {}).update(part)
    for e in entries:
        e.history = history.get(e.pk, {})
    return render(request, "person.html", {"person": person, "revealed": revealed, "entries": entries, "penalties": floor_selectors.penalty_history(person)})
