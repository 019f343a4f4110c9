"""`vocabgame lab --rate`: the simulated load's figures beside the estimate's, in JSON and text."""

from __future__ import annotations

import json

import pytest

from vocabgame.cli import main

SETUP = ["lab", "--gpu", "H100-SXM", "--model", "llama-3.1-8b", "--prompt", "500", "--output", "50"]


def test_rate_adds_the_tail_latencies_and_goodput_at_the_top_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*SETUP, "--rate", "5", "--requests", "100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "ttft_p99_ms",
        "tpot_p99_ms",
        "goodput_requests_per_s",
        "ttft_p50_ms",
        "tpot_p90_ms",
        "itl_p99_ms",
        "queue_wait_p99_ms",
        "queue_wait_mean_ms",
    ):
        assert isinstance(out[key], float), key
    # The estimate's contract is untouched, its headline first.
    assert list(out)[:2] == ["batch", "throughput_tokens_per_s"]
    assert out["ttft_p99_ms"] >= out["ttft_p50_ms"] > 0
    assert out["load"]["scheduler"] == "prefill-first"
    assert out["load"]["slo_ttft_ms"] == 200
    # At 5 requests a second an 8B on an H100 is far from busy: every request meets both.
    assert out["load"]["slo_attainment"] == 1.0


def test_chunked_prefill_seed_and_objectives_are_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [
        *SETUP,
        "--rate",
        "40",
        "--requests",
        "150",
        "--chunked-prefill",
        "256",
        "--seed",
        "3",
        "--spread",
        "uniform",
        "--slo-ttft-ms",
        "50",
        "--slo-tpot-ms",
        "20",
    ]
    assert main([*args, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first  # seeded
    load = first["load"]
    assert (load["chunked_prefill_tokens"], load["seed"], load["spread"]) == (256, 3, "uniform")
    assert (load["slo_ttft_ms"], load["slo_tpot_ms"]) == (50, 20)
    assert first["goodput_requests_per_s"] <= 40 * load["slo_attainment"] * 1.5


def test_text_output_ends_with_the_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SETUP, "--rate", "5", "--requests", "50"]) == 0
    text = capsys.readouterr().out
    assert "Under load: 50 requests at 5 a second" in text
    assert "Goodput" in text and "TTFT" in text.split("Under load")[1]


def test_load_options_without_a_rate_are_refused_in_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*SETUP, "--chunked-prefill", "512"]) == 1
    assert capsys.readouterr().err.strip() == (
        "vocabgame: --chunked-prefill describes a simulated load; add --rate R"
    )
    with pytest.raises(SystemExit):
        main([*SETUP, "--rate", "-1"])


def test_one_token_replies_have_no_tpot_and_say_so_in_valid_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*SETUP, "--output", "1", "--rate", "5", "--requests", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # no NaN: json.loads would take it, so look
    assert out["tpot_p99_ms"] is None and out["itl_p50_ms"] is None
    assert out["ttft_p99_ms"] > 0
    assert main([*SETUP, "--output", "1", "--rate", "5", "--requests", "20"]) == 0
    assert "none: every reply is one token" in capsys.readouterr().out
