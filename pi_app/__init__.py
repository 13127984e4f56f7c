"""Tablekeeper's daemon: the table's hardware, screens, journal and games.

The table's own refusals (``table.*`` IllegalMove codes) are registered in
rules.catalogue here, with the package: whichever module of the daemon is
imported first, a refusal it holds reads as a sentence, never as its code.
"""

import contextlib

# A refused game data file (rules.datafile.DataError, a ValueError) stops the
# games' import here; the command line then says which file and how to mend it
# (pi_app.cli.main), so importing the package must not be what fails.
with contextlib.suppress(ValueError):
    from pi_app import i18n as _i18n  # noqa: F401  (registers the table.* sentences)
