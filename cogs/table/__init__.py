"""The table runtime's Discord edge: lobby, controls, delivery, timers — for every game.

`cog.setup` adds it to a bot; `edge.py` says which module does what.
"""
