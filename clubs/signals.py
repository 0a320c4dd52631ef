"""What the clubs layer tells the layers above it.

- ``club_deleting``: sent by ``clubs.services.club_delete`` with ``club=`` inside
  its transaction, before anything is deleted. A receiver raises a translated
  ``ValidationError`` to refuse (leagues: while a league of other clubs depends on
  the club); the refusal changes nothing.
"""

from django.dispatch import Signal

club_deleting = Signal()
