"""Board, moves and rules: layouts, positions (CGP), moves and their notation,
the move generator's Python edge (`MoveList`), leave tables, the referee
(`Game`) and game records (GCG)."""
