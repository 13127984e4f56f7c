"""A table with no hardware: typed input, simulated players, the demo, the soak, the review sheet."""
