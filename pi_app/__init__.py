"""Tablekeeper's daemon: the table's hardware, screens, journal and games.

The table's own refusals (``table.*`` IllegalMove codes) are registered in
rules.catalogue here, with the package: whichever module of the daemon is
imported first, a refusal it holds reads as a sentence, never as its code.
"""

from pi_app import i18n as _i18n  # noqa: F401  (registers the table.* sentences)
