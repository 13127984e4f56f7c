"""How siege meets the table: its adapter and its words."""
