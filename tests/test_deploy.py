"""A deployment that is safe by default: the documented production settings pass
``manage.py check --deploy --fail-level WARNING``; the embedded default still serves plain HTTP
on 127.0.0.1; HTTPS behaviour comes from the environment alone."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parent.parent

# The production environment docs/operating.md ("HTTPS deployment") documents (the secret key is any long random value).
PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "a-long-random-secret-for-the-deploy-check-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "tdm.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://tdm.example.com",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
    "TDM_TRUSTED_PROXIES": "127.0.0.1",
}


def manage(*args, env_extra=None, drop=()):
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_the_documented_production_settings_pass_the_deploy_check():
    r = manage("check", "--deploy", "--fail-level", "WARNING", env_extra=PRODUCTION_ENV, drop=[k for k in os.environ if k in ("ALLOWED_HOSTS", "DEBUG")])
    print(r.stdout, r.stderr)
    assert r.returncode == 0, r.stderr[-5000:]


def test_the_deploy_check_warns_about_an_unsafe_default():
    env = dict(PRODUCTION_ENV, SESSION_COOKIE_SECURE="false")
    env.pop("ALLOWED_HOSTS")
    r = manage("check", "--deploy", "--fail-level", "WARNING", env_extra=env, drop=["ALLOWED_HOSTS"])
    assert r.returncode != 0
    assert "tdmanager.W001" in r.stderr and "security.W012" in r.stderr


def test_redirect_loop_behind_a_proxy_is_caught():
    env = dict(PRODUCTION_ENV)
    env.pop("SECURE_PROXY_SSL_HEADER")
    r = manage("check", "--deploy", env_extra=env, drop=["SECURE_PROXY_SSL_HEADER"])
    assert "tdmanager.W003" in r.stderr


def test_a_proxy_without_trusted_proxies_is_caught():
    env = dict(PRODUCTION_ENV)
    env.pop("TDM_TRUSTED_PROXIES")
    r = manage("check", "--deploy", env_extra=env, drop=["TDM_TRUSTED_PROXIES"])
    assert "tdmanager.W004" in r.stderr


@pytest.mark.django_db
def test_the_embedded_default_serves_plain_http_on_loopback(client, settings, director):
    assert not settings.SECURE_SSL_REDIRECT and not settings.SESSION_COOKIE_SECURE
    assert set(settings.TDM_LOOPBACK_HOSTS) <= set(settings.ALLOWED_HOSTS) and "*" not in settings.ALLOWED_HOSTS
    r = client.get("/login/", HTTP_HOST="127.0.0.1:8000")
    assert r.status_code == 200 and "Strict-Transport-Security" not in r
    assert r["X-Frame-Options"] == "DENY" and r["X-Content-Type-Options"] == "nosniff"
    assert r["Referrer-Policy"] == "same-origin"
    assert client.get("/login/", HTTP_HOST="evil.example").status_code == 400


@pytest.mark.django_db
def test_https_behaviour_from_the_environment(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    r = client.get("/login/")
    assert r.status_code == 301 and r["Location"].startswith("https://")
    r = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
    assert r.status_code == 200
    assert r["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert r.cookies["csrftoken"]["secure"]


def test_the_proxy_ssl_header_setting_is_parsed():
    env = {"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto", "TDM_TRUSTED_PROXIES": "10.0.0.0/8,127.0.0.1"}
    code = "from django.conf import settings as s; print(s.SECURE_PROXY_SSL_HEADER, s.TDM_TRUSTED_PROXIES, s.SESSION_COOKIE_HTTPONLY, s.ALLOWED_HOSTS)"
    r = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != "ALLOWED_HOSTS"}, **env, "DJANGO_SETTINGS_MODULE": "tdmanager.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "('HTTP_X_FORWARDED_PROTO', 'https') ['10.0.0.0/8', '127.0.0.1'] True ['127.0.0.1', 'localhost', '[::1]']" in r.stdout, r.stderr


def test_the_launcher_refuses_every_interface_without_allowed_hosts(settings):
    from tdmanager.management.commands.serve import hosts_for

    settings.ALLOWED_HOSTS_EXPLICIT = False
    settings.ALLOWED_HOSTS = list(settings.TDM_LOOPBACK_HOSTS)
    with pytest.raises(CommandError, match="ALLOWED_HOSTS"):
        call_command("serve", host="0.0.0.0")
    assert hosts_for("127.0.0.1") == ["127.0.0.1", "localhost", "[::1]"]
    assert hosts_for("192.168.1.10") == ["127.0.0.1", "localhost", "[::1]", "192.168.1.10"]
    assert hosts_for("fe80::1")[-1] == "[fe80::1]"
    settings.ALLOWED_HOSTS_EXPLICIT = True
    settings.ALLOWED_HOSTS = ["tdm.example.com"]
    assert hosts_for("0.0.0.0") == ["tdm.example.com"]
