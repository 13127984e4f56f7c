"""How king and assassins meets the table: its adapter and its words."""
