"""The table runtime: the one action loop every game goes through (no discord here)."""
