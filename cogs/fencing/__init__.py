"""Table Fencing: the interface (screens and the map of Ohio)."""
