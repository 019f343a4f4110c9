"""The efficiencies and the fixed cost of a forward pass the lab assumes by default,
fitted to the published measurements in measurements.yaml by `python -m
vocabgame.lab.calibrate --write`. Written by that command; tests/lab/test_calibrate.py
checks these equal a fresh fit."""

BANDWIDTH_EFFICIENCY = 0.77
COMPUTE_EFFICIENCY = 0.50
LINK_EFFICIENCY = 0.81
STEP_OVERHEAD_US = 2700
