"""The interface of Two Fat Dudes in a Narrow Hallway (screens and the board picture)."""
