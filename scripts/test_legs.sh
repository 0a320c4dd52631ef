#!/usr/bin/env bash
# The two legs of `make test`, side by side: SQLite (with the browser tests)
# and PostgreSQL (when one answers at TEST_DATABASE_URL). Each test process
# has its own test database, so they do not disturb each other.
#
# The PostgreSQL leg runs only the tests that reach the database (see
# tests/conftest.py), in two processes (pytest-xdist, a module a process, each its
# own test database): a test there waits for the server half of its time, and
# while it waits the other process works; in one it ended last, 80 s after the
# rest. The SQLite leg is two processes: the browser tests and the other slow ones
# (a live server, gunicorn or child processes: the racing phones, the LAN and load
# runs, the hostile-input sweep) in one, the rest in the other. With three processes
# on two cores neither core waits while one leg finishes alone: the slow tests wait
# (for a page, a server, a child) and meanwhile another process works, and alone the
# rest ended 260 s after the browser tests. The SQLite report comes first, then the
# slow tests', then PostgreSQL's; each part ends with its wall-clock time and the CPU
# time it and all it started used.
set -u
PY=${PY:-.venv/bin/python}
# Debian's Chromium: its headless shell where installed, else the browser (see
# tests/browser/conftest.py); CHROMIUM names another.
if [ -z "${CHROMIUM:-}" ]; then
  CHROMIUM=/usr/bin/chromium
  [ -x /usr/bin/chromium-headless-shell ] && CHROMIUM=/usr/bin/chromium-headless-shell
fi
export CHROMIUM
TEST_DATABASE_URL=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}

# timed NAME COMMAND...: runs COMMAND, then prints NAME's wall-clock time and the
# CPU time of COMMAND and all it started (bash's `time`, to stderr). In a subshell
# of its own: the shell's `time` would also count a background leg that ends meanwhile.
timed() (
  TIMEFORMAT="== $1: %0R s wall, %1U s user + %1S s system CPU"
  shift
  time "$@"
)

# Python's byte-code cache on: with PYTHONDONTWRITEBYTECODE set (some machines and
# containers set it), each of the legs and each Python process a test starts
# (manage.py, gunicorn and its workers, lint-imports) compiles every module it
# imports again, and pytest rewrites every test module's asserts again: seconds of
# CPU each. Compiled once here, then each process reads the cache (__pycache__/,
# ignored by git).
unset PYTHONDONTWRITEBYTECODE
"$PY" -m compileall -q -j 0 manage.py bench clubs common config leagues scoring scripts tests tournaments >/dev/null

start=$SECONDS
pg_pid=""
pg_log=$(mktemp)
if "$PY" scripts/db_reachable.py "$TEST_DATABASE_URL"; then
  DATABASE_URL="$TEST_DATABASE_URL" timed "PostgreSQL leg" \
    "$PY" -m pytest -q -n 2 --dist loadfile -m "not browser" >"$pg_log" 2>&1 &
  pg_pid=$!
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL at $TEST_DATABASE_URL is not reachable, and CI=true needs it."
  exit 1
else
  echo "PostgreSQL at $TEST_DATABASE_URL is not reachable: skipping the PostgreSQL leg."
fi

browser_log=$(mktemp)
slow="browser and other slow tests"
selection="browser or slow"
if [ ! -x "$CHROMIUM" ] && [ "${CI:-}" != "true" ]; then
  echo "Debian's Chromium is not at $CHROMIUM: skipping the browser tests (apt-get install chromium-headless-shell)."
  slow="slow tests"
  selection="slow and not browser"
fi
timed "SQLite leg, $slow" "$PY" -m pytest -q -m "$selection" >"$browser_log" 2>&1 &
browser_pid=$!

echo "== tests on SQLite"
timed "SQLite leg, the rest" "$PY" -m pytest -q -m "not browser and not slow"
sqlite_status=$?

wait "$browser_pid"
browser_status=$?
echo "== $slow on SQLite"
cat "$browser_log"
pg_status=0
if [ -n "$pg_pid" ]; then
  wait "$pg_pid"
  pg_status=$?
  echo "== tests on PostgreSQL ($TEST_DATABASE_URL)"
  cat "$pg_log"
fi
rm -f "$pg_log" "$browser_log"
echo "== both legs: $((SECONDS - start)) s wall"
[ "$sqlite_status" -eq 0 ] && [ "$browser_status" -eq 0 ] && [ "$pg_status" -eq 0 ]
