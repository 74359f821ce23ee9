"""``/api/schema/``: anyone may read the API's shape, as often and as many at once as they like,
and it is generated once per process (format, language), never once per call."""

import json
import threading

import pytest
from django.test import Client

from tdmanager import apischema


@pytest.fixture
def fresh_schema(monkeypatch):
    """No schema built yet in this process; ``generations`` counts the builds."""
    monkeypatch.setattr(apischema, "_built", {})
    generations = []
    generate = apischema.SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        generations.append(1)
        return generate(self, *args, **kwargs)

    monkeypatch.setattr(apischema.SchemaGenerator, "get_schema", counted)
    return generations


def test_eight_clients_at_once_all_get_the_same_schema_built_once(fresh_schema):
    answers, errors = [], []

    def client_calls():
        client = Client()
        for _ in range(5):
            try:
                r = client.get("/api/schema/", HTTP_ACCEPT="application/json")
                answers.append((r.status_code, r.content))
            except Exception as exc:  # a 500 in the test client raises
                errors.append(exc)

    threads = [threading.Thread(target=client_calls) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(answers) == 40
    assert {status for status, _ in answers} == {200}
    assert len({body for _, body in answers}) == 1
    assert "/api/v1/cashier/register/" in json.loads(answers[0][1])["paths"]
    assert len(fresh_schema) == 1


def test_yaml_by_default_json_when_asked_each_built_once(fresh_schema, client):
    yaml = client.get("/api/schema/")
    assert yaml.status_code == 200 and yaml["Content-Type"] == "application/vnd.oai.openapi"
    assert yaml.content.startswith(b"openapi: 3")
    as_json = client.get("/api/schema/?format=json")
    assert as_json["Content-Type"] == "application/vnd.oai.openapi+json" and json.loads(as_json.content)["openapi"].startswith("3")
    for _ in range(3):
        client.get("/api/schema/")
        client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert len(fresh_schema) == 2
