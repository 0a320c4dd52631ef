"""Settings: ``base`` holds everything shared; ``development`` (the default for
``manage.py``), ``production`` (secrets and hosts from the environment) and
``test`` adjust it. Every environment variable the site reads is read in
``base`` or ``production``, nowhere else."""
