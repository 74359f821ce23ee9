"""The players' notices, the page's side: a phone subscribes to its player's notices, chooses
their kinds, or stops them, at ``/p/<token>/push/`` (keyed by the phone page's token).
"""

from django.conf import settings
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from tdmanager import jsonbody
from tdmanager.errors import DomainError
from tournaments.eventlog.services import Actor
from tournaments.phone.views import entry_for

from ..house import HouseRules
from . import rules as notices
from . import services as push_service


def _refused(code: str, detail, status: int = 400) -> JsonResponse:
    return JsonResponse({"code": code, "detail": str(detail)}, status=status)


# No CSRF token: the page's token in the path is the key, no cookie grants anything here, and a
# write must be JSON (which another site's form cannot send without the browser asking first).
@csrf_exempt
def phone_push(request, token: str):
    """This phone and the player's notices (Web Push). GET: the installation's public key, the
    kinds of notice the house sends and, given ``?endpoint=``, whether this phone is subscribed
    and to which kinds. POST: subscribe (the body is the browser's ``PushSubscription.toJSON()``
    and ``kinds``, the kinds chosen). DELETE: stop (``{"endpoint"}``). Refusals are 4xx
    ``{"code", "detail"}``; an endpoint off the push services' allow-list is one."""
    entry = entry_for(token)
    if request.method == "GET":
        endpoint = request.GET.get("endpoint", "")
        sub = push_service.subscribed(entry, endpoint) if endpoint else None
        rules = HouseRules.of(entry.tournament)
        return JsonResponse(
            {
                "key": push_service.public_key(),
                "kinds": [{"kind": k, "label": str(notices.KIND_LABELS[k])} for k in notices.KINDS if rules.notifies(k)],
                "subscribed": sub is not None,
                "chosen": sub.kinds if sub is not None else [],
                "language": sub.language if sub is not None else "",
            }
        )
    if request.method not in ("POST", "DELETE"):
        return _refused("method_not_allowed", _("Method not allowed."), 405)
    if request.content_type != "application/json":
        return _refused("json_required", _("The body must be JSON."), 415)
    try:
        data = jsonbody.loads(request.body or b"null")
    except ValueError:
        return _refused("json_invalid", _("The body is not valid JSON."))
    if not isinstance(data, dict):
        return _refused("json_invalid", _("The body must be a JSON object."))
    actor = Actor.from_request(request)
    try:
        if request.method == "POST":
            sub = push_service.subscribe(entry, data, kinds=data.get("kinds"), language=translation.get_language() or settings.LANGUAGE_CODE, actor=actor)
            return JsonResponse({"subscribed": True, "kinds": sub.kinds}, status=201)
        push_service.unsubscribe(entry, data.get("endpoint"), actor=actor)
        return JsonResponse({"subscribed": False})
    except DomainError as exc:
        return JsonResponse(exc.as_dict(), status=exc.status)
