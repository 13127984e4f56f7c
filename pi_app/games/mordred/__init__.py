"""How mordred meets the table: its adapter and its words."""
