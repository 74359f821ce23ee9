"""Hostile input, round two (issue #30): what an outside tester sent that the API took or broke on.

Deeply nested JSON, spreadsheet formulas in the CSV reports, ids that are not whole numbers,
currencies that are not ISO 4217 codes, and answers that disagree with the schema.
"""

import pytest
from django.test import Client

from tournaments.models import LedgerRow

pytestmark = pytest.mark.django_db


def refused(r, status=400, code=None):
    assert r.status_code == status, (r.status_code, getattr(r, "content", b"")[:300])
    assert r["Content-Type"].startswith("application/json")
    body = r.json()
    assert set(body) >= {"code", "detail"}, body
    if code:
        assert body["code"] == code, body
    return body


# --- 1. deeply nested JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_body_to_the_token_endpoint_is_a_400_not_a_500(depth):
    body = "[" * depth + "]" * depth
    r = Client(raise_request_exception=False).post("/api/v1/auth/token/", body, content_type="application/json")
    assert "nested" in refused(r, 400, "parse_error")["detail"]


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_body_to_the_cashier_is_a_400_and_sells_nothing(api, cashier_user, tournament, person, depth):
    body = '{"tournament": %d, "person": %d, "method": "CASH", "note": %s}' % (tournament.pk, person.pk, "[" * depth + "]" * depth)
    client = api(cashier_user)
    client.raise_request_exception = False
    r = client.post("/api/v1/cashier/register/", body, content_type="application/json")
    refused(r, 400, "parse_error")
    assert not LedgerRow.objects.exists()


def test_a_body_nested_a_few_levels_is_still_read(api, cashier_user, tournament, person):
    r = api(cashier_user).post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH",
                                                             "note": [[[{"a": [1]}]]]}, format="json")
    assert r.status_code == 201, r.content


def test_every_api_view_reads_json_through_the_bounded_parser():
    from django.urls import get_resolver
    from rest_framework.parsers import JSONParser

    from tdmanager.jsonbody import BoundedJSONParser

    seen, stack = 0, [get_resolver()]
    while stack:
        resolver = stack.pop()
        for p in resolver.url_patterns:
            if hasattr(p, "url_patterns"):
                stack.append(p)
                continue
            view = getattr(p.callback, "cls", None)
            if view is None:
                continue
            seen += 1
            json_parsers = [c for c in view.parser_classes if issubclass(c, JSONParser)]
            assert all(issubclass(c, BoundedJSONParser) for c in json_parsers), (p.pattern, view, json_parsers)
    assert seen > 100


def test_a_structure_file_nested_too_deeply_is_refused(api, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deep.json", b"[" * 5000 + b"]" * 5000, content_type="application/json")
    r = api(director).post("/api/v1/structures/import/", {"file": upload}, format="multipart")
    refused(r, 400, "bad_file")
