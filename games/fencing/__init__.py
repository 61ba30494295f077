"""Table Fencing: cards, dice, chess pieces on a road map of Ohio (`/fencing`)."""
