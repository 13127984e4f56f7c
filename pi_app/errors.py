"""Errors the command line reports to the user as a sentence, not a traceback."""


class UsageError(Exception):
    """Bad input from the user: a file, a line, an argument. Exit status 2."""
