"""How king is dead meets the table: its adapter and its words."""
