"""``python -m rackety``: the command line."""

from rackety.frontends.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
