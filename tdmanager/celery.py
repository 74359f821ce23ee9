import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")

app = Celery("tdmanager")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
