"""TDManager's ground floor: settings, URL conf, the Celery app, the realtime transport, roles,
money, errors and the launcher. Imports no app."""

from .celery import app as celery_app

__all__ = ("celery_app",)
