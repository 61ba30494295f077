"""The table runtime's Discord edge: lobby, controls, delivery, timers."""
