"""The Celery app: its configuration from the settings, and how a worker process starts."""

import os

from celery import Celery
from celery.signals import celeryd_init, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")

app = Celery("tdmanager")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def without_connection_pool(**_kwargs):
    """A worker connects to PostgreSQL without the web processes' connection pool. The pool is
    there for ASGI, where one request's code may run on any thread; a worker runs a task on its
    one thread and sends notices on threads of its own (the push services' lanes), each with its
    own connection. And Celery closes a prefork child's pool after every task, while a lane
    thread may be taking a connection from it ("pool has already been opened/closed"): the
    notices of that batch were lost. Set before the pool processes start, so each has it."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        database.get("OPTIONS", {}).pop("pool", None)


def lowest_priority() -> None:
    """This process at the lowest priority there is: Linux's idle class (``SCHED_IDLE``) runs it
    only on a core no other process wants, and a request that wakes takes the core at once;
    elsewhere, nice 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        if hasattr(os, "nice"):
            os.nice(19 - os.nice(0))


@worker_ready.connect
@worker_process_init.connect
def idle_once_ready(**_kwargs):
    """A worker started with ``TDM_WORKER_IDLE=1`` (``manage.py serve``'s notices worker) drops to
    the lowest priority once it has started, in its main process and in each pool process: it
    starts at the priority it was given (in the idle class from the start, on a busy machine,
    it could take minutes to import), then sends only on the cores the desk leaves."""
    if os.environ.get("TDM_WORKER_IDLE") == "1":
        lowest_priority()
