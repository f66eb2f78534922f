"""Routines: a finished task saved so it can be replayed without the model, healed, exported."""
