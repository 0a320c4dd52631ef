"""Form helpers shared by every app."""

from django import forms


class DateInput(forms.DateInput):
    """The browser's date picker, in every language.

    ``<input type="date">`` takes only ISO dates (2026-12-01); Django would write
    the active language's format (01-12-2026 in Dutch), which the browser drops,
    leaving the field empty. The format is fixed here, so the value always shows.
    """

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%d")
