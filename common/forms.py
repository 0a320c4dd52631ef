"""Form helpers shared by every app."""

from django import forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS


def form_status(form):
    """The status of a form page: 429 when a brake refused it (a form error of code
    ``throttled``), else 200."""
    return 429 if form.has_error(NON_FIELD_ERRORS, "throttled") else 200


def apply_validation_error(form, exc):
    """Put a service's ValidationError on the form, field by field where it can."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)  # keeps each error's code (``throttled``: form_status)


def error_messages(request, exc):
    """Each message of a service's ValidationError as an error message on the next
    page: what a button's POST answers before it redirects back."""
    for message in exc.messages:
        messages.error(request, message)


class DateInput(forms.DateInput):
    """The browser's date picker, in every language.

    ``<input type="date">`` takes only ISO dates (2026-12-01); Django would write
    the active language's format (01-12-2026 in Dutch), which the browser drops,
    leaving the field empty. The format is fixed here, so the value always shows.
    """

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs=attrs, format="%Y-%m-%d")
