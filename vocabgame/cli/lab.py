"""`vocabgame lab`: the serving lab's estimate of a setup, or with no setup options its
screen in the game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, Command, Where, err, print_json
from vocabgame.cli.options import json_option, positive_int
from vocabgame.cli.play import run_app
from vocabgame.printable import printable
from vocabgame.settings import Settings

LAB_ASSUMED = (
    "bandwidth_efficiency",
    "compute_efficiency",
    "link_efficiency",
    "allreduce_latency_us",
    "usd_per_gpu_hour",
)
LAB_SETUP = ("gpu", "model", "tp", "pp", "batch", "prompt", "output", "weights", "kv", *LAB_ASSUMED)


def lab_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("--gpu", metavar="G", help="GPU id, e.g. H100-SXM (default H100-SXM)")
    p.add_argument("--model", metavar="M", help="model id, e.g. llama-3.1-8b (the default)")
    p.add_argument("--tp", type=positive_int, metavar="N", help="tensor-parallel GPUs (1)")
    p.add_argument(
        "--pp", type=positive_int, metavar="N", help="pipeline stages, each of TP GPUs (1)"
    )
    p.add_argument(
        "--batch",
        type=batch_option,
        metavar="B",
        help="sequences decoding at once (1), or max: the largest batch that fits",
    )
    p.add_argument("--prompt", type=positive_int, metavar="P", help="prompt tokens (1000)")
    p.add_argument("--output", type=positive_int, metavar="O", help="output tokens (200)")
    p.add_argument("--weights", choices=("bf16", "fp8", "int8", "int4"), help="weight precision")
    p.add_argument("--kv", choices=("bf16", "fp8"), help="KV cache precision")
    p.add_argument(
        "--bandwidth-efficiency",
        type=float,
        metavar="R",
        help="achieved share of peak memory bandwidth (assumed 0.8)",
    )
    p.add_argument(
        "--compute-efficiency",
        type=float,
        metavar="R",
        help="achieved share of peak dense math (assumed 0.6)",
    )
    p.add_argument(
        "--link-efficiency",
        type=float,
        metavar="R",
        help="achieved share of the GPU-to-GPU link's bandwidth (assumed 0.8)",
    )
    p.add_argument(
        "--allreduce-latency-us",
        type=float,
        metavar="US",
        help="fixed cost of one tensor-parallel all-reduce, microseconds (assumed 9)",
    )
    p.add_argument("--usd-per-gpu-hour", type=float, metavar="USD", help="GPU price (2.00)")
    json_option(p)


MAX = "max"


def batch_option(text: str) -> int | str:
    """A batch size greater than zero, or `max` for the largest that fits."""
    return MAX if text.strip().lower() == MAX else positive_int(text)


def run_lab(args: argparse.Namespace, where: Where) -> int:
    if args.json or any(getattr(args, k) is not None for k in LAB_SETUP):
        return cmd_lab(args, where.folders)
    return run_app(where.data_dir, where.folders, lab=True, root=where.root)


LAB = Command(
    "lab",
    "estimate a serving setup (the serving lab)",
    "Estimate memory, TTFT, TPOT, throughput and cost of serving a model on GPUs, with "
    "the working for every figure. With no setup options, opens the lab screen. "
    "GPUs and models come from the built-in catalogue and *.lab.yaml files in the "
    "decks folders.",
    lab_options,
    run_lab,
    uses_data_folder=True,  # with no setup options it opens the game
)


def cmd_lab(args: argparse.Namespace, folders: list[Path]) -> int:
    """Print the estimate of the setup the options describe (or it as JSON); the exit code."""
    from vocabgame.lab import Assumptions, LabError, Setup, estimate, load_catalogue
    from vocabgame.lab.model import largest_batch
    from vocabgame.lab.report import render

    catalogue = load_catalogue(folders)
    for problem in catalogue.problems:
        print(printable(str(problem)), file=sys.stderr)
    gpu = catalogue.gpu(args.gpu or "H100-SXM")
    model = catalogue.model(args.model or "llama-3.1-8b")
    if gpu is None or model is None:
        kind, wanted, known = (
            ("GPU", args.gpu, catalogue.gpus)
            if gpu is None
            else ("model", args.model, catalogue.models)
        )
        err(f"no {kind} with id {wanted!r}; known: {', '.join(known) or 'none'}")
        return EXIT_USAGE
    given = {
        k: getattr(args, k) for k in ("tp", "pp", "batch", "prompt", "output", "weights", "kv")
    }
    assumed = {k: getattr(args, k) for k in LAB_ASSUMED if getattr(args, k) is not None}
    setup = Setup(
        gpu,
        model,
        assumptions=Assumptions(**assumed),
        **{k: v for k, v in given.items() if v is not None},
    )
    try:
        if args.batch == MAX:
            setup = setup.with_batch(largest_batch(setup.with_batch(1)))
        result = estimate(setup)
    except LabError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    if args.json:
        print_json(result.as_dict())
    else:
        print("\n".join(printable(line) for line in render(result).split("\n")))
    return EXIT_OK
