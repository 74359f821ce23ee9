"""``/api/schema/``: the OpenAPI schema, built once per process, format and language.

The schema describes the API's shape, which is public (it is in the source), so it needs no
login; it is listed in ``tdmanager.public`` and runs on the public threads under the per-address
limit. Generating it takes about half a second and drf-spectacular's generator keeps state in
class attributes, so two generations at once in one process can fail; one generation under a
lock, its bytes kept for the life of the process (the URLs and serializers cannot change without
a restart), makes each later call cost a dictionary lookup.
"""

import threading

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiYamlRenderer

FORMATS = {
    "yaml": (OpenApiYamlRenderer, "application/vnd.oai.openapi"),
    "json": (OpenApiJsonRenderer, "application/vnd.oai.openapi+json"),
}

_lock = threading.Lock()
_built: dict[tuple[str, str], bytes] = {}


def schema_bytes(fmt: str, language: str) -> bytes:
    """The schema rendered as ``fmt`` ("yaml" or "json") with its descriptions in ``language``."""
    key = (fmt, language)
    with _lock:
        if key not in _built:
            with translation.override(language):
                schema = SchemaGenerator().get_schema(request=None, public=True)
                _built[key] = FORMATS[fmt][0]().render(schema, renderer_context={})
        return _built[key]


def requested_format(request) -> str:
    """JSON when asked by ``?format=json`` or an ``Accept`` naming JSON; YAML, drf-spectacular's
    default, otherwise (``?format=`` wins over the header, as in DRF)."""
    fmt = request.GET.get("format", "").lower()
    if fmt in FORMATS:
        return fmt
    return "json" if "json" in request.headers.get("Accept", "") else "yaml"


@require_safe
def schema(request):
    """The schema, in the request's language (``?lang=`` one of ``LANGUAGES``, else the one the
    locale middleware chose)."""
    fmt = requested_format(request)
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language() or settings.LANGUAGE_CODE
    response = HttpResponse(schema_bytes(fmt, language), content_type=FORMATS[fmt][1])
    response["Content-Disposition"] = f'inline; filename="tdmanager-api.{fmt}"'
    response["Content-Language"] = language
    patch_vary_headers(response, ["Accept"])
    return response
