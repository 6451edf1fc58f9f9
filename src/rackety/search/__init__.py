"""Search: exact endgames, pre-endgames and Monte Carlo simulation."""
