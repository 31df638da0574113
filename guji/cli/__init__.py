"""The command line: ``guji COMMAND …`` (see :mod:`guji.cli.main`)."""

from .main import main

__all__ = ["main"]
