"""Pieces more than one screen could use: how a choice, a feedback and a reveal are drawn."""
