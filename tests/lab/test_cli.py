"""`vocabgame lab`: figures with their working, JSON for tools, one sentence for a refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vocabgame.cli import main
from vocabgame.lab.fitted import BANDWIDTH_EFFICIENCY


def lab_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["lab", "--gpu", "H100-SXM", "--model", "llama-3.1-8b", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_batch_1_to_64_moves_decode_towards_compute_bound_as_a_roofline_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one = lab_json(capsys, "--batch", "1")
    many = lab_json(capsys, "--batch", "64")
    f1, f64 = one["figures"], many["figures"]
    assert one["regime"]["decode"] == "memory-bound"
    # Intensity climbs about 40-fold towards the ridge point ...
    assert f64["decode_intensity"]["value"] > 30 * f1["decode_intensity"]["value"]
    assert f64["decode_intensity"]["value"] < f64["ridge"]["value"]
    # ... the compute term grows 64-fold while the memory term grows far less ...
    assert f64["decode_compute"]["value"] / f1["decode_compute"]["value"] == pytest.approx(
        64, rel=0.01
    )
    assert f64["decode_memory"]["value"] / f1["decode_memory"]["value"] < 2
    # ... so TPOT rises a little and total throughput rises almost with the batch.
    assert 1 < f64["tpot"]["value"] / f1["tpot"]["value"] < 2
    assert f64["decode_throughput"]["value"] / f1["decode_throughput"]["value"] > 32
    # Under load each step also carries 64/200 of a prefill, so the cost falls less: 20-fold.
    assert f64["cost"]["value"] < f1["cost"]["value"] / 16


def test_json_carries_each_figures_formula_inputs_card_and_the_assumptions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = lab_json(capsys)
    tpot = out["figures"]["tpot"]
    assert tpot["unit"] == "ms"
    assert "max(memory term, compute term)" in tpot["formula"]
    assert set(tpot["inputs"]) == {
        "memory term",
        "compute term",
        "all-reduces",
        "fixed cost per pass",
    }
    assert tpot["card"] == "latency-throughput/tpot"
    assert out["assumptions"]["bandwidth_efficiency"] == BANDWIDTH_EFFICIENCY
    assert "queueing" in out["assumptions"]["left_out"]
    assert out["setup"] == {
        "gpu": "H100-SXM", "model": "llama-3.1-8b", "weights": "bf16", "kv": "bf16",
        "tp": 1, "pp": 1, "ep": 1, "batch": 1, "prompt": 1000, "output": 200,
    }  # fmt: skip


def test_batch_max_runs_at_the_largest_batch_and_the_headline_is_the_loaded_throughput(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The contract's command, word for word.
    args = ("--gpu", "H100-SXM", "--model", "llama-3.1-70b", "--tp", "2", "--weights", "fp8")
    args += ("--kv", "fp8", "--prompt", "2048", "--output", "128")
    assert main(["lab", *args, "--batch", "max", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    f = out["figures"]
    assert out["batch"] == out["max_batch"] == out["setup"]["batch"] == f["max_batch"]["value"]
    assert out["batch"] > 100
    assert out["throughput_tokens_per_s"] == f["throughput"]["value"]
    # batch / TPOT with prefills: 2048-token prompts make it far below decode steps alone
    assert out["throughput_tokens_per_s"] == pytest.approx(out["batch"] / out["tpot_ms"] * 1000)
    assert out["decode_throughput_tokens_per_s"] > 5 * out["throughput_tokens_per_s"]
    assert out["ttft_ms"] == f["ttft"]["value"] and out["tpot_decode_ms"] == f["tpot"]["value"]
    # One more sequence would not fit.
    assert main(["lab", *args, "--batch", str(out["batch"] + 1)]) == 1
    assert f"the largest batch that fits is {out['batch']}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["lab", "--batch", "most"])
    assert "'most' is not a whole number" in capsys.readouterr().err


def test_text_output_shows_the_working_and_says_it_is_an_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["lab", "--batch", "8"]) == 0
    out = capsys.readouterr().out
    assert "An estimate from a roofline model, not a measurement" in out
    assert "= 2 (K and V) x layers x KV heads x head dim x bytes per element" in out
    assert "layers 32, KV heads 8, head dim 128, bytes per BF16 element 2" in out
    assert "card: latency-throughput/tpot" in out


def test_a_setup_that_does_not_fit_is_one_sentence_and_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["lab", "--model", "llama-3.1-70b"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("vocabgame: Llama 3.1 70B in BF16 needs 141 GB of weights")
    assert "Traceback" not in err
    assert main(["lab", "--batch", "1000", "--prompt", "8000"]) == 1
    assert "the largest batch that fits is" in capsys.readouterr().err


def test_an_unknown_gpu_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "--gpu", "B9000", "--json"]) == 2
    assert "no GPU with id 'B9000'; known: H100-SXM" in capsys.readouterr().err


def test_a_lab_file_in_a_decks_folder_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mine.lab.yaml").write_text(
        "lab: 1\nsources:\n  s: {title: S, url: 'https://example.com'}\n"
        "gpus:\n  - id: G\n    name: G\n    memory_gb: 24\n    bandwidth_gbs: 1000\n"
        "    tflops: {bf16: 100}\n    sources: [s]\n",
        encoding="utf-8",
    )
    assert main(["--decks", str(tmp_path), "lab", "--gpu", "G", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["setup"]["gpu"] == "G"


def test_play_takes_mode_lab() -> None:
    from vocabgame.cli import build_parser

    assert build_parser().parse_args(["play", "--mode", "lab"]).mode == "lab"
    assert build_parser().parse_args(["play"]).mode == "review"


def test_validate_checks_lab_files_given_or_found_in_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = (
        "lab: 1\nsources:\n  s: {title: S, url: 'https://example.com'}\n"
        "gpus:\n  - id: G\n    name: G\n    memory_gb: 24\n    bandwidth_gbs: 1000\n"
        "    tflops: {bf16: 100}\n    sources: [s]\n"
    )
    (tmp_path / "good.lab.yaml").write_text(good, encoding="utf-8")
    assert main(["validate", str(tmp_path / "good.lab.yaml")]) == 0
    (tmp_path / "bad.lab.yaml").write_text(good.replace("memory_gb: 24", "memory_gb: x"), "utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'bad.lab.yaml'}:7:16: error: GPU 'G' memory_gb should be a number" in out


def test_the_assumptions_can_be_changed_and_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    no_fixed = ("--step-overhead-us", "0")  # the fixed cost a pass does not scale with bandwidth
    base = lab_json(capsys, *no_fixed, "--bandwidth-efficiency", "0.8")["figures"]["tpot"]["value"]
    slower = lab_json(capsys, *no_fixed, "--bandwidth-efficiency", "0.4")
    assert slower["figures"]["tpot"]["value"] == pytest.approx(2 * base)
    assert slower["assumptions"]["bandwidth_efficiency"] == 0.4
    cheap = lab_json(capsys, "--usd-per-gpu-hour", "1")["figures"]["cost"]["value"]
    assert cheap == pytest.approx(lab_json(capsys)["figures"]["cost"]["value"] / 2)
    two = ("--tp", "2", "--allreduce-latency-us", "0")
    free = lab_json(capsys, *two, "--link-efficiency", "1")["figures"]["allreduce_decode"]
    half = lab_json(capsys, *two, "--link-efficiency", "0.5")["figures"]["allreduce_decode"]
    assert half["value"] == pytest.approx(2 * free["value"])  # wire time only, halved rate
    none = lab_json(capsys, *no_fixed)["figures"]["tpot"]["value"]
    fixed = lab_json(capsys, "--step-overhead-us", "1000")["figures"]["tpot"]["value"]
    assert fixed == pytest.approx(none + 1)  # 1 ms more a pass
    assert main(["lab", "--step-overhead-us", "-1"]) == 1
    assert "fixed cost of a forward pass must be a finite number" in capsys.readouterr().err
    assert main(["lab", "--allreduce-latency-us", "-1"]) == 1
    assert "all-reduce latency must be a finite number of microseconds" in capsys.readouterr().err
    assert main(["lab", "--allreduce-latency-us", "inf"]) == 1
    assert "0 or more, not inf" in capsys.readouterr().err
    moe = ("--model", "deepseek-v3", "--gpu", "H200-SXM", "--tp", "8", "--ep", "8")
    tpot = {
        us: lab_json(capsys, *moe, "--weights", "fp8", "--alltoall-latency-us", us)
        for us in ("0", "42", "84")
    }
    assert tpot["84"]["assumptions"]["alltoall_latency_us"] == 84
    steps = [tpot[us]["figures"]["tpot"]["value"] for us in ("0", "42", "84")]
    assert steps[0] < steps[1] and steps[2] - steps[1] == pytest.approx(steps[1] - steps[0])
    assert main(["lab", "--alltoall-latency-us", "-1"]) == 1
    assert "all-to-all latency must be a finite number" in capsys.readouterr().err
    assert main(["lab", "--compute-efficiency", "1.5"]) == 1
    assert "compute efficiency must be above 0 and at most 1, not 1.5" in capsys.readouterr().err
