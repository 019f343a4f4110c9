"""The efficiencies the lab assumes by default, fitted to the published measurements in
measurements.yaml by `python -m vocabgame.lab.calibrate --write`. Written by that command;
tests/lab/test_calibrate.py checks these equal a fresh fit."""

BANDWIDTH_EFFICIENCY = 0.63
COMPUTE_EFFICIENCY = 0.50
LINK_EFFICIENCY = 0.67
