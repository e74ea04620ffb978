"""``python -m clfeval``: the command line (see :func:`clfeval._cli.main`)."""

import sys

from clfeval._cli import main

if __name__ == "__main__":
    sys.exit(main())
