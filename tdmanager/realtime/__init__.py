"""The realtime hub: tells every web process that a tournament changed (``fanout``)."""

from .fanout import *  # noqa: F403
from .fanout import _built, _local_listeners  # noqa: F401
