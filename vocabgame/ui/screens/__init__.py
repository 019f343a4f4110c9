"""One module per screen: home, a round, its results, and the keys."""
