"""Links a page offers only to whom they open::

    {% load tdm_links %}
    {% openable 'rulings' t.pk as rulings_url %}
    {% if rulings_url %}<a href="{{ rulings_url }}">…</a>{% endif %}
    {% for link in section_links|openable:user %}<a href="{{ link.url }}">…</a>{% endfor %}

Both ask :func:`tdmanager.roles.may_open`: the check the linked view makes (``tdmanager.policy``
with a regulator's tournaments), so no template repeats which role opens what.

An address to be typed or scanned on another device (a lobby screen's) is written whole, as that
device reaches the server: ``{% staff_address 'display' sc.token %}`` (``tdmanager.links``).
"""

from django import template
from django.urls import reverse

from tdmanager import links
from tdmanager.roles import may_open

register = template.Library()

LINK_KEYS = ("url", "pdf", "csv")  # the addresses a link built in Python carries


@register.simple_tag(takes_context=True)
def openable(context, name, *args):
    """The address of route ``name`` (with ``args``) when the page's user may open it, else ``""``."""
    url = reverse(name, args=args)
    return url if may_open(context.get("user"), url) else ""


@register.filter(name="openable")
def openable_links(links, user):
    """The links (dicts with ``url``, or ``pdf`` and ``csv``) whose every address ``user`` may open."""
    return [link for link in links or () if all(may_open(user, link[k]) for k in LINK_KEYS if link.get(k))]


@register.simple_tag(takes_context=True)
def staff_address(context, name, *args):
    """The whole address of route ``name`` as a staff device opens it: on the room's secure
    address when there is one (``tdmanager.links.staff_url``)."""
    return links.staff_url(context["request"], reverse(name, args=args))


@register.simple_tag(takes_context=True)
def room_address(context):
    """The room's secure address (``tdmanager.links.room_url``), "" when none is known."""
    return links.room_url(context.get("request"))
