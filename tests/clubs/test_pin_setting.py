"""The club settings say what confirming with a PIN protects against (issue 25): by
default a table confirms with a name only, and the setting's help says why a club
might want more."""

from django.utils import translation

from clubs.forms import ClubForm


def test_the_pin_setting_says_what_it_protects_against():
    with translation.override("en"):
        help_text = str(ClubForm().fields["confirm_with_pin"].help_text)
    assert "cannot confirm its own score" in help_text
    assert ClubForm().fields["confirm_with_pin"].initial in (None, False)
