"""Strings for a page's script, passed as data (the CSP forbids inline script)::

    {% load tdm_data %}
    {% json_strings "desk-i18n" %}
    banned: {% translate "BANNED" %}
    playing: {% translate "Playing, entry" %}
    {% endjson_strings %}

renders ``<script id="desk-i18n" type="application/json">{"banned": "…", …}</script>``, which the
browser never executes; the script reads it with
``JSON.parse(document.getElementById("desk-i18n").textContent)``. One ``key: text`` per line;
the text is taken as plain text and JSON-escaped (quotes and ``<`` in a translation are safe).
"""

from django import template
from django.utils.html import json_script

register = template.Library()


class JsonStringsNode(template.Node):
    def __init__(self, element_id, nodelist):
        self.element_id, self.nodelist = element_id, nodelist

    def render(self, context):
        autoescape, context.autoescape = context.autoescape, False  # plain text: json_script escapes
        try:
            text = self.nodelist.render(context)
        finally:
            context.autoescape = autoescape
        values = {}
        for line in text.splitlines():
            key, sep, value = line.strip().partition(":")
            if sep:
                values[key.strip()] = value.strip()
        return json_script(values, self.element_id.resolve(context))


@register.tag
def json_strings(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError('{% json_strings "element-id" %} takes one argument')
    nodelist = parser.parse(("endjson_strings",))
    parser.delete_first_token()
    return JsonStringsNode(parser.compile_filter(bits[1]), nodelist)
