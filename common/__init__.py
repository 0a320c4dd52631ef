"""Shared helpers with no models: the one tabular reader, the one writer layer
(xlsx, CSV with the formula guard, reportlab with an embedded font), number and
date formatting, query-parameter parsing and form helpers.

Everything above the rules core may import from here; nothing here imports from
the apps (clubs, tournaments, scoring, leagues).
"""
