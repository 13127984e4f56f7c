"""How artus meets the table: its adapter and its words."""
