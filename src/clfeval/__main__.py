"""``python -m clfeval``: the command line (see :func:`clfeval.cli.main`)."""

import sys

from clfeval.cli import main

if __name__ == "__main__":
    sys.exit(main())
