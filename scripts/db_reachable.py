"""Exit 0 when the database at the URL in argv[1] answers within a few seconds."""

import sys


def main(url):
    try:
        import psycopg
    except ImportError:
        print("psycopg is not installed.", file=sys.stderr)
        return 1
    try:
        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("select 1")
    except psycopg.Error as exc:
        print(str(exc).strip().splitlines()[0] if str(exc).strip() else exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
