#!/usr/bin/env python
"""Django's command-line utility for the Klaverjas club site."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")
    from django.core.management import execute_from_command_line

    from config.startup import run_guarded

    run_guarded(execute_from_command_line, sys.argv)


if __name__ == "__main__":
    main()
