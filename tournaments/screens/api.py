"""REST API of the lobby screens: the screens and their links, and their layouts and images for
the layout editor and any other client (thin, one service per call)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import bodylimits, uploads
from tdmanager.errors import DomainError
from tdmanager.fields import TextField
from tdmanager.roles import HasRole
from tdmanager.security import no_store
from tournaments.api.base import validated_body
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, ScreenImage, ScreenLayout
from tournaments.screens import rules as screen_rules
from tournaments.screens import services as screen_services
from tournaments.screens.serializers import DisplayScreenSerializer


class LayoutSerializer(serializers.Serializer):
    name = TextField(max_length=80)
    portrait = serializers.BooleanField(default=False, help_text="a 9:16 screen")
    design = serializers.JSONField(
        help_text=f'{{"theme": {{"background", "text", "accent"}} (#rrggbb), "blocks": [{{"kind", "x", "y", "w", "h" (a grid of {screen_rules.GRID}), '
        '"font" (0.5–2), "fg", "bg", "text" (rules, text), "image" (logo, sponsor)}]}'
    )


class LayoutImportSerializer(serializers.Serializer):
    file = serializers.JSONField(help_text="an exported layout file (GET …/export/)")
    name = TextField(max_length=80, required=False, help_text="its name here (else the file's, numbered when taken)")


def _layout(row: ScreenLayout) -> dict:
    return {"id": row.pk, "key": f"layout:{row.pk}", "name": row.name, "portrait": row.portrait, "design": row.design, "updated_at": row.updated_at}


def _image(row) -> dict:
    return {"id": row.pk, "name": row.name, "width": row.width, "height": row.height, "url": f"/screens/images/{row.digest}.png"}


class ScreenLayoutsView(APIView):
    """GET: every layout a screen may show (the built-in ones first, ``key`` for a screen's
    ``layouts``); POST: a new layout."""

    permission_classes = [HasRole]

    @extend_schema(operation_id="screen_layouts_list", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"layouts": screen_services.choices(), "blocks": {k: str(v) for k, v in screen_rules.BLOCKS.items()}, "grid": screen_rules.GRID})

    @extend_schema(request=LayoutSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = validated_body(LayoutSerializer, request)
        return Response(_layout(screen_services.save_layout(**d, actor=Actor.from_request(request))), status=201)


class ScreenLayoutView(APIView):
    """GET, PUT (the editor's save), DELETE (409 ``layout_in_use`` while a screen shows it)."""

    permission_classes = [HasRole]

    @extend_schema(operation_id="screen_layout_retrieve", responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(_layout(get_object_or_404(ScreenLayout, pk=pk)))

    @extend_schema(request=LayoutSerializer, responses=OpenApiTypes.OBJECT)
    def put(self, request, pk):
        row = get_object_or_404(ScreenLayout, pk=pk)
        d = validated_body(LayoutSerializer, request)
        return Response(_layout(screen_services.save_layout(**d, layout=row, actor=Actor.from_request(request))))

    @extend_schema(responses={204: None})
    def delete(self, request, pk):
        screen_services.delete_layout(get_object_or_404(ScreenLayout, pk=pk), actor=Actor.from_request(request))
        return Response(status=204)


class ScreenLayoutExportView(APIView):
    """GET ``?key=builtin:default`` or ``layout:<id>``: the layout as a file, its images inside."""

    permission_classes = [HasRole]

    @extend_schema(parameters=[OpenApiParameter("key", str, description="builtin:<name> or layout:<id>")], responses=OpenApiTypes.OBJECT)
    def get(self, request):
        key = request.query_params.get("key", screen_rules.DEFAULT_KEY)
        if not isinstance(key, str) or len(key) > 40 or key not in {c["key"] for c in screen_services.choices()}:
            raise DomainError("not_found", _("There is no such layout."), status=404, field="key")
        return Response(screen_services.export_layout(key))


class ScreenLayoutImportView(APIView):
    """POST ``{"file": <an exported layout>, "name"}``: a new layout from another room's file (the
    images its blocks show are decoded, the others dropped unread)."""

    permission_classes = [HasRole]

    @extend_schema(request=LayoutImportSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        with uploads.reading(request, bodylimits.IMAGE):  # before the body is read: it is most of the cost
            d = validated_body(LayoutImportSerializer, request)
            layout = screen_services.import_layout(d["file"], name=d.get("name"), actor=Actor.from_request(request))
        return Response(_layout(layout), status=201)


class ScreenImagesView(APIView):
    """GET: the images the layouts may show; POST (multipart ``image``, ``name``): an image
    uploaded, decoded and stored again as PNG (400 ``bad_image`` or ``too_large``, read from the
    header before anything is decoded; 503 ``busy`` while other images are being read)."""

    permission_classes = [HasRole]
    parser_classes = [MultiPartParser]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"images": [_image(r) for r in ScreenImage.objects.order_by("name").only("pk", "name", "width", "height", "digest")]})

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"image": {"type": "string", "format": "binary"}, "name": {"type": "string"}}}},
        responses={201: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        with uploads.reading(request, bodylimits.IMAGE):  # before the body is read: it is most of the cost
            upload = request.FILES.get("image")
            if upload is None:
                raise DomainError("invalid", _("Choose an image file."), status=400, field="image")
            content = upload.read(screen_services.MAX_UPLOAD + 1)
            name = request.data.get("name") or upload.name or "image"
            row = screen_services.upload_image(name=str(name)[:80], content=content, actor=Actor.from_request(request))
        return Response(_image(row), status=201)


class DisplayScreenViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = DisplayScreenSerializer

    def finalize_response(self, request, response, *args, **kwargs):
        # every answer names the screens' tokens, their keys: no cache keeps one
        return no_store(super().finalize_response(request, response, *args, **kwargs))

    def get_queryset(self):
        return DisplayScreen.objects.all().order_by("name")

    def perform_create(self, serializer):
        serializer.instance = screen_services.create_screen(serializer.validated_data, actor=Actor.from_request(self.request))

    def perform_update(self, serializer):
        serializer.instance = screen_services.update_screen(serializer.instance, serializer.validated_data, actor=Actor.from_request(self.request))

    def perform_destroy(self, instance):
        screen_services.delete_screen(instance, actor=Actor.from_request(self.request))

    @extend_schema(request=None, responses=DisplayScreenSerializer)
    @action(detail=True, methods=["post"], url_path="revoke-token")
    def revoke_token(self, request, pk=None):
        """The screen's link stops working at once (page, state, stream); a new one with ``rotate-token``."""
        return Response(DisplayScreenSerializer(screen_services.revoke_screen_token(self.get_object(), actor=Actor.from_request(request))).data)

    @extend_schema(request=None, responses=DisplayScreenSerializer)
    @action(detail=True, methods=["post"], url_path="rotate-token")
    def rotate_token(self, request, pk=None):
        """A new link for the screen (``token``, ``url``); the old one stops working at once."""
        return Response(DisplayScreenSerializer(screen_services.rotate_screen_token(self.get_object(), actor=Actor.from_request(request))).data)
