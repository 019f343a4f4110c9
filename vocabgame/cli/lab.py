"""`vocabgame lab`: the serving lab's estimate of a setup, or with no setup options its
screen in the game."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from vocabgame.cli.common import EXIT_OK, EXIT_PROBLEM, EXIT_USAGE, Command, Where, err, print_json
from vocabgame.cli.options import json_option, positive_int
from vocabgame.cli.play import run_app
from vocabgame.lab.fitted import (
    BANDWIDTH_EFFICIENCY,
    COMPUTE_EFFICIENCY,
    LINK_EFFICIENCY,
    STEP_OVERHEAD_US,
)
from vocabgame.printable import printable
from vocabgame.settings import Settings

if TYPE_CHECKING:
    from vocabgame.lab import Setup
    from vocabgame.lab.load import LoadResult

LAB_ASSUMED = (
    "bandwidth_efficiency",
    "compute_efficiency",
    "link_efficiency",
    "allreduce_latency_us",
    "alltoall_latency_us",
    "step_overhead_us",
    "usd_per_gpu_hour",
)
LAB_LOAD = (
    "rate",
    "requests",
    "seed",
    "spread",
    "chunked_prefill",
    "max_seqs",
    "slo_ttft_ms",
    "slo_tpot_ms",
)
LAB_SETUP = (
    "gpu",
    "model",
    "tp",
    "pp",
    "ep",
    "micro_batches",
    "batch",
    "prompt",
    "output",
    "weights",
    "kv",
    *LAB_ASSUMED,
    *LAB_LOAD,
)


def lab_options(p: argparse.ArgumentParser, settings: Settings) -> None:
    p.add_argument("--gpu", metavar="G", help="GPU id, e.g. H100-SXM (default H100-SXM)")
    p.add_argument("--model", metavar="M", help="model id, e.g. llama-3.1-8b (the default)")
    p.add_argument("--tp", type=positive_int, metavar="N", help="tensor-parallel GPUs (1)")
    p.add_argument(
        "--pp", type=positive_int, metavar="N", help="pipeline stages, each of TP GPUs (1)"
    )
    p.add_argument(
        "--ep",
        type=positive_int,
        metavar="N",
        help="expert parallelism: an MoE's experts split over N of the TP GPUs (1)",
    )
    p.add_argument(
        "--micro-batches",
        type=positive_int,
        metavar="M",
        help="micro-batches a batch is cut into under PP, for the bubble (min(batch, PP))",
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
        help=f"achieved share of peak memory bandwidth (fitted: {BANDWIDTH_EFFICIENCY:g})",
    )
    p.add_argument(
        "--compute-efficiency",
        type=float,
        metavar="R",
        help=f"achieved share of peak dense math (fitted: {COMPUTE_EFFICIENCY:g})",
    )
    p.add_argument(
        "--link-efficiency",
        type=float,
        metavar="R",
        help=f"achieved share of the GPU-to-GPU link's bandwidth (fitted: {LINK_EFFICIENCY:g})",
    )
    p.add_argument(
        "--allreduce-latency-us",
        type=float,
        metavar="US",
        help="fixed cost of one tensor-parallel all-reduce, microseconds (assumed 9)",
    )
    p.add_argument(
        "--alltoall-latency-us",
        type=float,
        metavar="US",
        help="fixed cost of one expert-parallel all-to-all, microseconds (assumed 42)",
    )
    p.add_argument(
        "--step-overhead-us",
        type=float,
        metavar="US",
        help="fixed cost of every forward pass: launches, sampling, scheduling, microseconds "
        f"(fitted: {STEP_OVERHEAD_US:g})",
    )
    p.add_argument("--usd-per-gpu-hour", type=float, metavar="USD", help="GPU price (2.00)")
    load_options(p)
    json_option(p)


def load_options(p: argparse.ArgumentParser) -> None:
    """The options of a simulated load; `--rate` turns the simulation on."""
    p.add_argument(
        "--rate",
        type=positive_float,
        metavar="R",
        help="simulate a loaded server: requests arriving at R a second (Poisson)",
    )
    p.add_argument(
        "--requests", type=positive_int, metavar="N", help="requests in the simulation (1000)"
    )
    p.add_argument("--seed", type=int, metavar="S", help="seed of the arrivals and lengths (0)")
    p.add_argument(
        "--spread",
        choices=("fixed", "uniform", "lognormal"),
        help="prompt and output lengths around --prompt and --output (fixed)",
    )
    p.add_argument(
        "--chunked-prefill",
        type=positive_int,
        metavar="TOKENS",
        help="chunked prefill with this token budget a pass (default: prefill-first)",
    )
    p.add_argument(
        "--max-seqs",
        type=positive_int,
        metavar="N",
        help="sequences decoding at once (256, vLLM's default max_num_seqs)",
    )
    p.add_argument(
        "--slo-ttft-ms",
        type=positive_float,
        metavar="MS",
        help="goodput's TTFT objective (200: DistServe's chatbot example)",
    )
    p.add_argument(
        "--slo-tpot-ms",
        type=positive_float,
        metavar="MS",
        help="goodput's TPOT objective (100: about reading speed, 10 tokens a second)",
    )


def positive_float(text: str) -> float:
    """An option's finite number greater than zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number greater than zero")
    return value


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
    from vocabgame.lab.errorbar import annotate, error_bars
    from vocabgame.lab.measurements import load_measurements
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
        k: getattr(args, k)
        for k in ("tp", "pp", "ep", "micro_batches", "batch", "prompt", "output", "weights", "kv")
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
        # Each figure's error bar: the nearest published measurement and the lab's error on it.
        bars = error_bars(result, load_measurements(), catalogue)
        loaded = simulate_load(args, setup)
    except LabError as exc:
        err(str(exc))
        return EXIT_PROBLEM
    if args.json:
        out = list(annotate(result.as_dict(), bars).items())
        if loaded is not None:  # the load's figures after the headline, before the setup
            at = [k for k, _ in out].index("setup")
            out[at:at] = loaded.as_dict().items()
        print_json(dict(out))
    else:
        text = render(result, bars=bars) + ("\n\n" + "\n".join(loaded.lines()) if loaded else "")
        print("\n".join(printable(line) for line in text.split("\n")))
    return EXIT_OK


def simulate_load(args: argparse.Namespace, setup: Setup) -> LoadResult | None:
    """The simulated load the options ask for, or None without `--rate`."""
    from vocabgame.lab import LabError

    if args.rate is None:
        given = [k for k in LAB_LOAD if getattr(args, k) is not None]
        if given:
            raise LabError(
                f"--{given[0].replace('_', '-')} describes a simulated load; add --rate R"
            )
        return None
    from vocabgame.lab.load import MAX_SEQS, Scheduler, Slo, Workload, simulate

    work = Workload(
        args.rate,
        args.requests or 1000,
        spread=args.spread or "fixed",
        seed=args.seed if args.seed is not None else 0,
    )
    slo = Slo(
        **{
            k: v
            for k, v in (("ttft_ms", args.slo_ttft_ms), ("tpot_ms", args.slo_tpot_ms))
            if v is not None
        }
    )
    return simulate(setup, work, Scheduler(args.chunked_prefill, args.max_seqs or MAX_SEQS), slo)
