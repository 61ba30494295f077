"""Conference / League: the interface (pictures)."""
