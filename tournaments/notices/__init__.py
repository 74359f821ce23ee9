"""The players' notices on their phones (Web Push): what is told (``rules``), how one message
reaches a phone (``transport``), the subscriptions and the telling (``services``, the only code
that changes their state), the worker's tasks (``tasks``) and the phone page's subscription
endpoint (``views``).
"""
