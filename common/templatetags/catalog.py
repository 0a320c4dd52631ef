"""``{% catalog_url %}``: the JavaScript catalog's address (``common.catalog``)."""

from django import template

from common import catalog

register = template.Library()


@register.simple_tag
def catalog_url():
    return catalog.catalog_url()
