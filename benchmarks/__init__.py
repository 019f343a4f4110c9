"""Speed benchmarks for vocabgame: `python -m benchmarks` (see `python -m benchmarks --help`).

Each figure of the performance targets is measured next to a baseline taken in the same run on
the same machine, so what is compared is a ratio rather than a number of milliseconds that
depends on the machine and on what else it is doing.

- `benchmarks.figures`: the figures, and the sizes of a full and a quick run
- `benchmarks.measure`: rows, targets, and timing (medians; whole processes in turn)
- `benchmarks.launch`: one headless launch as a whole process, game or bare Textual app
- `benchmarks.inputs`, `benchmarks.big`: generated decks and stores of a heavy history
"""
