"""A pytest plugin, loaded before Django's settings (pytest.ini: ``-p tests.isolation``): each
pytest-xdist worker gets a Redis namespace of its own.

The workers already have their own database (SQLite: a file per process; PostgreSQL: pytest-django's
``_gwN`` names), ports (``tests.servers`` binds free ones) and browser (``tests.browser``). On the
PostgreSQL leg they would share one Redis under one TDM_NAMESPACE: the cache (login-throttle
counters of the same fixed test users), the Celery queues and the live channels would cross
workers. The namespace is read once, when the settings load, hence a plugin and not a fixture.
"""

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:
    os.environ["TDM_NAMESPACE"] = f"{os.environ.get('TDM_NAMESPACE') or 'tdm-test'}-{_worker}"
