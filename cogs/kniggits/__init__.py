"""Kniggits on Discord: the battlefield picture and the panels."""
