"""What a lab challenge can ask: the changes, the figures asked of each, and the answers.
Apart from the lab's model, so that a deck naming a challenge is checked without loading it."""

UP, DOWN, SAME = "up", "down", "same"
DIRECTIONS = (UP, DOWN, SAME)
WORDS = {UP: "goes up", DOWN: "goes down", SAME: "stays about the same"}
TOLERANCE = 0.10  # within 10% either way counts as "about the same"

# Each change a challenge makes to a setup, and the two figures it asks about.
ROOFLINE_ASKED = {
    "batch": ("tpot", "throughput"),
    "fp8": ("tpot", "throughput"),
    "tp": ("tpot", "throughput"),
    "prompt": ("ttft", "tpot"),
}
KINDS = tuple(ROOFLINE_ASKED)  # the roofline's changes: the lab screen's `x` draws among them
# Changes to the load on a simulated server (vocabgame.lab.load_challenge): twice the arrival
# rate near the knee, and chunked prefill instead of prefill-first.
LOAD_ASKED = {"rate": ("ttft_p99", "tpot_p99"), "chunked": ("itl_p99", "itl_p50")}
# How a setup's GPUs are split (vocabgame.lab.parallel_challenge): two GPUs as TP 2 or as two
# replicas at the same load (simulated), and an MoE's experts split over its TP GPUs.
PARALLEL_ASKED = {"replicas": ("ttft_p99", "tpot_p99"), "alltoall": ("ttft", "tpot")}
ASKED = {**ROOFLINE_ASKED, **LOAD_ASKED, **PARALLEL_ASKED}

__all__ = [
    "ASKED",
    "DIRECTIONS",
    "DOWN",
    "KINDS",
    "LOAD_ASKED",
    "PARALLEL_ASKED",
    "ROOFLINE_ASKED",
    "SAME",
    "TOLERANCE",
    "UP",
    "WORDS",
]
