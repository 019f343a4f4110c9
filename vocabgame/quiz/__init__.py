"""Questions, responses and grades: the plain objects a round passes between the kinds of item
and the screen, and the text and number rules that grading shares."""

from vocabgame.model import FaceKey
from vocabgame.quiz.question import (
    CHOICES_PER_QUESTION,
    RATING_NAMES,
    Choice,
    Face,
    Grade,
    Kind,
    Picked,
    Question,
    Refused,
    Response,
    SelfGraded,
    Typed,
)
from vocabgame.quiz.text import format_number, normalise, parse_number, same_unit

__all__ = [
    "CHOICES_PER_QUESTION",
    "RATING_NAMES",
    "Choice",
    "Face",
    "FaceKey",
    "Grade",
    "Kind",
    "Picked",
    "Question",
    "Refused",
    "Response",
    "SelfGraded",
    "Typed",
    "format_number",
    "normalise",
    "parse_number",
    "same_unit",
]
