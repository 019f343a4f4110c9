"""vocabgame: a terminal quiz and flashcard game for AI inference and model-serving vocabulary."""

__version__ = "0.1.0"
