"""The interface of Fighting Words (screens and the letter tiles)."""
