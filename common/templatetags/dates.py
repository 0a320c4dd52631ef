"""``{% load dates %}``: ``{{ value|dated:"j M" }}`` writes a date as Django's ``date``
filter does, with the month's abbreviation in the language's case ("1 dec" in Dutch):
:func:`common.formatting.date_written`."""

from django import template

from common.formatting import date_written

register = template.Library()


@register.filter(expects_localtime=True)
def dated(value, pattern):
    return date_written(value, pattern)
