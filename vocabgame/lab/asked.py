"""What a lab challenge can ask: the changes, the figures asked of each, and the answers.
Apart from the lab's model, so that a deck naming a challenge is checked without loading it."""

UP, DOWN, SAME = "up", "down", "same"
DIRECTIONS = (UP, DOWN, SAME)
WORDS = {UP: "goes up", DOWN: "goes down", SAME: "stays about the same"}
TOLERANCE = 0.10  # within 10% either way counts as "about the same"

# Each change a challenge makes to a setup, and the two figures it asks about.
ASKED = {
    "batch": ("tpot", "throughput"),
    "fp8": ("tpot", "throughput"),
    "tp": ("tpot", "throughput"),
    "prompt": ("ttft", "tpot"),
}
KINDS = tuple(ASKED)

__all__ = ["ASKED", "DIRECTIONS", "DOWN", "KINDS", "SAME", "TOLERANCE", "UP", "WORDS"]
