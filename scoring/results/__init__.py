"""Results: what the hands add up to, read and shown.

:mod:`.standings` reads a competition's or an evening's standings (the stored evening
totals, the ranking settings); :mod:`.ranking` is the pure ranking (no Django);
:mod:`.tables` holds one column spec per table, which the pages and every file use;
:mod:`.words` states the rules in sentences; :mod:`.views` and :mod:`.urls` are the
public result pages (namespace ``results``). The results only read: every write is in
``scoring.services``, but the stored evening totals, which :mod:`.services` stores
(called by every change below an evening, in its transaction).
"""
