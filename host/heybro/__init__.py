"""heybro host."""
