"""django-tables2 tables drawn from a column spec (:mod:`common.columns`).

A page's table of listed data is a :class:`SpecTable` built from the same list
of :class:`~common.columns.Column` its files are written from, so the headers'
titles and order on the screen are the files' ones. Rows are dicts keyed by the
columns' keys (plus whatever the table's ``render_*`` methods or row classes
read, such as a ``url``).

Action cells (a form with a button) are not data: a table declares them with
:func:`action_column` (left out of every export); they follow the spec's columns.

Every page orders and paginates its tables from the query string with
:func:`configure_table`, never with django-tables2's ``RequestConfig`` itself,
which hands ``?per_page=0`` or ``-1`` to the paginator (a server error).
"""

import django_tables2 as tables
from django.core.paginator import EmptyPage
from django.utils.encoding import force_str
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from .columns import RANK, Column, column_notes
from .params import parse_int

#: The most rows one page of a table shows, whatever ``?per_page=`` asks.
PER_PAGE_MAX = 200


def configure_table(request, table, *, per_page: int | None = None):
    """Order ``table`` as the request asks (``?sort=``) and, with ``per_page``,
    paginate it: ``?per_page=`` from 1 to :data:`PER_PAGE_MAX` (more is the
    most; 0, negative or not a number is ``per_page``), ``?page=`` a page that
    exists (not a number is the first, past the end the last). Without
    ``per_page`` the table is one page of everything."""
    RequestConfig(request, paginate=False).configure(table)
    if per_page is None:
        return table
    asked = parse_int(request.GET.get(table.prefixed_per_page_field), maximum=PER_PAGE_MAX)
    page = parse_int(request.GET.get(table.prefixed_page_field)) or 1
    try:
        table.paginate(per_page=asked or per_page, page=page)
    except EmptyPage:
        table.paginate(per_page=asked or per_page, page=table.paginator.num_pages)
    return table


class ActionColumn(tables.TemplateColumn):
    """A column of buttons: its header is for screen readers only (``hidden_header``,
    read by ``templates/django_tables2/semantic.html``), so no header cell is empty."""

    hidden_header = True


def action_column(template_name: str, label=None) -> tables.TemplateColumn:
    """A column of buttons drawn by ``template_name``: a header only screen readers
    hear (``label``, "Actions" by default), not sortable, never in a file."""
    return ActionColumn(
        template_name=template_name,
        verbose_name=label or _("Actions"),
        orderable=False,
        exclude_from_export=True,
    )


class SpecColumn(tables.Column):
    """A django-tables2 column drawn from a :class:`common.columns.Column`: the
    page shows :meth:`~common.columns.Column.text`, an export takes
    :meth:`~common.columns.Column.cell`. A column with an ``abbr`` shows it as its
    header, with the title as the header's ``title`` attribute; a column with a
    ``help`` has the help there (after the title, with an ``abbr``). The help is
    also in the list under the table (:attr:`SpecTable.column_notes`): a ``title``
    alone reaches neither a phone nor every screen reader."""

    def __init__(self, spec: Column, **kwargs):
        if spec.kind == RANK:
            attrs = {"td": {"class": "num rank"}}
        elif spec.numeric:
            attrs = {"td": {"class": "num"}, "th": {"class": "num"}}
        else:
            attrs = {}
        if spec.abbr or spec.help:
            title = spec.note if spec.abbr and spec.help else spec.help or spec.title
            attrs.setdefault("th", {})["title"] = title
        kwargs.setdefault("default", spec.text({}))
        super().__init__(verbose_name=spec.abbr or spec.title, attrs=attrs, **kwargs)
        self.spec = spec

    def render(self, value, record):
        return self.spec.text(record)

    def value(self, value, record):
        return self.spec.cell(record)


class SpecTable(tables.Table):
    """A table with one :class:`SpecColumn` per spec of ``columns``, in their order
    (then the columns the table class declares itself, such as action buttons).

    ``order_by_keys``: {spec key: the row keys to sort that column by}.
    """

    class Meta:
        orderable = False

    def __init__(self, data, *, columns, order_by_keys=None, **kwargs):
        order_by_keys = order_by_keys or {}
        self.spec = list(columns)
        extra = [
            (spec.key, SpecColumn(spec, order_by=order_by_keys.get(spec.key))) for spec in self.spec
        ]
        kwargs.setdefault("sequence", [spec.key for spec in self.spec] + ["..."])
        super().__init__(data, extra_columns=extra, **kwargs)

    def as_values(self, exclude_columns=None):
        """django-tables2's rows for an export, headed by the specs' full titles
        (not the page's abbreviations)."""
        exclude_columns = exclude_columns or ()
        values = super().as_values(exclude_columns)
        next(values)
        yield [
            str(column.column.spec.title)
            if isinstance(column.column, SpecColumn)
            else force_str(column.header, strings_only=True)
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in exclude_columns)
        ]
        yield from values

    @property
    def column_notes(self):
        """The columns with a help, for the list under the table
        (``templates/includes/column_notes.html``)."""
        return column_notes(self.spec)

    def text(self, key, record):
        """The spec's text of ``record``'s ``key``, for a ``render_*`` that dresses it."""
        return self.columns[key].column.spec.text(record)

    @staticmethod
    def link(url, text):
        """``text`` as a link to ``url`` (just the text without one)."""
        return format_html('<a href="{}">{}</a>', url, text) if url else text
