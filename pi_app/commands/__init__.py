"""Subcommands of `tablekeeper`, one module each (see pi_app.cli)."""
