"""What the clubs layer tells the layers above it.

- ``club_deleting``: sent by ``clubs.services.club_delete`` with ``club=`` inside
  its transaction, before anything is deleted. A receiver raises a translated
  ``ValidationError`` to refuse (leagues: while a league of other clubs depends on
  the club); the refusal changes nothing.
- ``members_merged``: sent by ``clubs.services.member_merge`` with ``keep=`` and
  ``remove=`` inside its transaction, after every row of ``remove`` points at
  ``keep`` (by queryset updates, which send no model signals).
- ``account_ties``: sent by ``clubs.permissions.account_confined_to`` with
  ``user=`` and ``club=``. A receiver answers True when the account acts for
  something that is not ``club``'s (leagues: a captain of another club's team,
  an organiser of another club's league); such an account is not the club's
  alone, so the club makes no password link for it and does not close it.
"""

from django.dispatch import Signal

club_deleting = Signal()
members_merged = Signal()
account_ties = Signal()
