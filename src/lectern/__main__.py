"""`python -m lectern` runs the command line."""

from lectern.entrypoints.cli.main import run

run()
