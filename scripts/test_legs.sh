#!/usr/bin/env bash
# The two legs of `make test`, side by side: SQLite (with the browser tests)
# and PostgreSQL (when one answers at TEST_DATABASE_URL). Each test process
# has its own test database, so the legs do not disturb each other. The
# PostgreSQL leg runs only the tests that reach the database (tests/conftest.py
# says which); its report is printed after the SQLite leg's. Each leg ends with
# its wall-clock time and the CPU time of its processes (user + system).
set -u
PY=${PY:-.venv/bin/python}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}

# timed NAME COMMAND...: runs COMMAND, then prints NAME's wall-clock time and the
# CPU time of COMMAND and all it started (bash's `time`, to stderr).
timed() {
  local TIMEFORMAT="== $1 leg: %0R s wall, %1U s user + %1S s system CPU"
  shift
  time "$@"
}

pg_pid=""
pg_log=$(mktemp)
if "$PY" scripts/db_reachable.py "$TEST_DATABASE_URL"; then
  DATABASE_URL="$TEST_DATABASE_URL" timed PostgreSQL "$PY" -m pytest -q -m "not browser" >"$pg_log" 2>&1 &
  pg_pid=$!
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL at $TEST_DATABASE_URL is not reachable, and CI=true needs it."
  exit 1
else
  echo "PostgreSQL at $TEST_DATABASE_URL is not reachable: skipping the PostgreSQL leg."
fi

echo "== tests on SQLite"
if [ -x "$CHROMIUM" ] || [ "${CI:-}" = "true" ]; then
  timed SQLite "$PY" -m pytest -q
else
  echo "Debian's Chromium is not at $CHROMIUM: skipping the browser tests (apt-get install chromium)."
  timed SQLite "$PY" -m pytest -q -m "not browser"
fi
sqlite_status=$?

pg_status=0
if [ -n "$pg_pid" ]; then
  wait "$pg_pid"
  pg_status=$?
  echo "== tests on PostgreSQL ($TEST_DATABASE_URL)"
  cat "$pg_log"
fi
rm -f "$pg_log"
[ "$sqlite_status" -eq 0 ] && [ "$pg_status" -eq 0 ]
