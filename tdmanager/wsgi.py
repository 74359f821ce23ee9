"""The WSGI entry point (the ASGI one, ``tdmanager.asgi``, is what ``manage.py serve`` runs)."""

import os

import django
from django.core.handlers.wsgi import WSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
django.setup(set_prefix=False)

from tdmanager import staticbuild  # noqa: E402

staticbuild.ensure_collected()  # before WhiteNoise (a middleware) lists STATIC_ROOT
application = WSGIHandler()
