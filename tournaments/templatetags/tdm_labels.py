"""Labels for stored codes in templates (``tournaments.labels``): ``{{ p.kind|penalty_kind }}``,
``{{ p.reason_code|penalty_reason }}``, ``{{ p.status|penalty_status }}``, ``{{ f.status|tournament_status }}``,
``{{ m.status|format_code }}``, ``{{ it|break_note }}``, ``{{ s.description|shipped_text }}``,
``{{ payment.payee|shown_name }}``."""

from django import template
from django.utils.html import json_script

from tournaments import labels
from tournaments.models import shown_name as _shown_name

register = template.Library()


@register.filter
def shipped_text(text):
    return labels.shipped_text(text)


@register.filter
def shown_name(stored):
    """A stored name (a payee) as the reader reads it: an erased person's pseudonym translated."""
    return _shown_name(stored)


@register.filter
def penalty_kind(code):
    return labels.penalty_kind_label(code)


@register.filter
def penalty_reason(code):
    return labels.penalty_reason_label(code)


@register.filter
def tournament_status(code):
    return str(labels.TOURNAMENT_STATUSES.get(code, labels.humanize(code)))


@register.filter
def format_code(code):
    """A heads-up match's state or result, a seat request's kind or state."""
    return str(labels.FORMAT_CODES.get(code, labels.humanize(code)))


@register.filter
def penalty_status(code):
    return str(labels.PENALTY_STATUSES.get(code, labels.humanize(code)))


@register.filter
def break_note(item):
    """``{{ it|break_note }}``: a break's note as typed, else its scheduled colour-up in the reader's language."""
    return labels.break_note(item)


@register.filter
def game_name(code):
    """``{{ it.game|game_name }}``: a level's game (FMT-16) in the reader's language."""
    return labels.game_label(code)


@register.simple_tag
def game_names_script(element_id):
    """``{% game_names_script "game-names" %}``: every game code with its name, for a page's script."""
    return json_script(labels.game_names(), element_id)
