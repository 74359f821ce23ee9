"""The OpenAPI schema class: every answer documented, the errors included (see DocumentedSchema)."""

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """What every refusal answers: a machine-readable code and a message in the user's language."""

    code = serializers.CharField()
    detail = serializers.CharField(help_text="in the user's language; a validation error names each field in words with its message")

    def get_fields(self):
        """``fields`` (the per-field messages of a validation error) added here: it is also the
        name of a Serializer property, so it cannot be declared as an attribute."""
        fields = super().get_fields()
        fields["fields"] = serializers.JSONField(required=False, help_text="per field messages of a validation error")
        return fields


ERROR_STATUSES = {
    "400": "Invalid input",
    "401": "Not signed in",
    "403": "The role does not allow it",
    "404": "Not found",
    "405": "Method not allowed",
    "409": "A rule forbids it now",
    "415": "Unsupported media type",
    "422": "Idempotency key reused",
    "429": "Too many attempts",
}


class DocumentedSchema(AutoSchema):
    """The project's schema class.

    - Every operation documents the error answers (``{"code", "detail"}``) beside its own.
    - Views that take an action from the URL (``…/<op>/``) list the actions in ``op_names``
      (POST) and ``read_op_names`` (GET): the schema gives ``op`` as an enum, the route without
      an action is left out where it only answers "unknown action", and each gets its own
      operationId.
    """

    def _op_names(self):
        view = self.view
        return getattr(view, "read_op_names" if self.method == "GET" else "op_names", None)

    def is_excluded(self) -> bool:
        if super().is_excluded():
            return True
        if not hasattr(self.view, "op_names"):
            return False
        names = self._op_names()
        if "{op}" in self.path:
            return not names
        return self.method != "GET" and not getattr(self.view, "post_without_op", False)

    def get_override_parameters(self):
        params = list(super().get_override_parameters())
        names = self._op_names()
        if names and "{op}" in self.path:
            params.append(OpenApiParameter("op", str, OpenApiParameter.PATH, enum=list(names), description="the action"))
        return params

    def get_operation_id(self) -> str:
        op_id = super().get_operation_id()
        if "{op}" in self.path:
            return op_id + "_op"
        if self.path.endswith("}/") and not hasattr(self.view, "action") and self.method == "POST":
            return op_id + "_item"
        return op_id

    def _get_response_bodies(self, direction="response"):
        # A GET on ``…/<op>/`` may answer another shape than the resource's own GET.
        special = getattr(self.view, "op_responses", {}).get(self.method)
        if special is not None and "{op}" in self.path:
            responses = {"200": self._get_response_for_code(special, "200", direction=direction)}
        else:
            responses = super()._get_response_bodies(direction)
        if direction == "response":
            for code, description in ERROR_STATUSES.items():
                if code not in responses:
                    responses[code] = self._get_response_for_code(_error_response(description), code, direction=direction)
        return responses


def _error_response(description):
    return OpenApiResponse(response=ErrorSerializer, description=description)


# An answer that is a list of objects whose fields the view's description lists.
LIST_SCHEMA = {"type": "array", "items": {"type": "object", "additionalProperties": {}}}
OBJECT_LIST = {200: LIST_SCHEMA}
CREATED_LIST = {201: LIST_SCHEMA}


class AmountFieldSchema(OpenApiSerializerFieldExtension):
    """What ``tdmanager.fields.AmountField`` accepts, exactly: a string of plain decimal digits
    (its whole and decimal digits bounded by the field's ``max_digits`` and ``decimal_places``)
    or, in a request, a JSON integer. An answer always writes it as such a string."""

    target_class = "tdmanager.fields.AmountField"

    def map_serializer_field(self, auto_schema, direction):
        field = self.target
        whole = max(1, field.max_digits - field.decimal_places) if field.max_digits else None
        mark = "[.,]" if field.localize else r"\."
        digits = f"[0-9]{{1,{whole}}}" if whole else "[0-9]+"
        decimals = f"(?:{mark}[0-9]{{1,{field.decimal_places}}})?" if field.decimal_places else ""
        text = {"type": "string", "format": "decimal", "pattern": f"^-?{digits}{decimals}$"}
        if direction == "request":
            return {"oneOf": [text, {"type": "integer"}]}
        return text
