"""The error bar on every figure: the nearest published measurement by the stated distance,
and the lab's error on it; in `--json`, on the lab's text and on the screen."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vocabgame.cli import main
from vocabgame.lab import Assumptions, Setup, estimate, load_catalogue
from vocabgame.lab.errorbar import KIND, distance, error_bars, nearest
from vocabgame.lab.measurements import lab_estimate, load_measurements


def nim_setup(batch: int = 1, **kw: object) -> Setup:
    c = load_catalogue()
    base: dict[str, object] = dict(weights="fp8", kv="fp8", tp=2, batch=batch, prompt=5000)
    base.update(output=500, **kw)
    return Setup(c.gpus["H100-SXM"], c.models["llama-3.1-70b"], **base)  # type: ignore[arg-type]


def test_on_a_measured_setup_the_nearest_is_that_measurement_and_its_error() -> None:
    table, c = load_measurements(), load_catalogue()
    n = nearest(nim_setup(25), "itl_ms", table, c)
    assert n is not None and n.row.id == "nim-70b-5000in-c25-itl" and n.same_setup
    # The lab's loaded TPOT on that very setup against the measured 38.75 ms.
    lab = estimate(nim_setup(25)).value("tpot_loaded")
    assert n.lab == pytest.approx(lab) and n.error == pytest.approx(lab / 38.75 - 1)
    assert n.words().startswith(f"this setup: {abs(n.error):.0%} slow against NIM's measured ITL")


def test_the_distance_ranks_gpu_then_model_then_tp_then_precision_then_shape() -> None:
    rows = {r.id: r for r in load_measurements().rows}
    s = nim_setup()
    same = rows["nim-70b-5000in-c1-itl"]
    assert distance(s, same) == (0, 0, 0, 0, 0)
    # 500 in / 2000 out: log2(10) + log2(4) of shape away, same everything else
    assert distance(s, rows["nim-70b-500in-c1-itl"])[4] == pytest.approx(3.3219 + 2, abs=1e-3)
    # The H200 70B row at TP 4 in BF16: another GPU first of all
    far = distance(s, rows["vllm-h200-70b-tp4-e2e"])
    assert far[:4] == (1, 0, 1, 2)
    assert far > distance(s, rows["nim-70b-500in-c1-itl"])
    # On an H200, the H200 rows come first even for another model.
    c = load_catalogue()
    h200_8b = Setup(c.gpus["H200-SXM"], c.models["llama-3.1-8b"], batch=8, prompt=32, output=128)
    n = nearest(h200_8b, "e2e_ms", load_measurements(), c)
    assert n is not None and n.row.id == "vllm-h200-8b-tp1-e2e"


def test_the_error_follows_the_assumptions() -> None:
    table, c = load_measurements(), load_catalogue()
    slow = replace(nim_setup(), assumptions=Assumptions(bandwidth_efficiency=0.3))
    n = nearest(slow, "itl_ms", table, c)
    assert n is not None and n.error > 0.5 and not n.fast
    row = n.row
    assert n.lab == pytest.approx(lab_estimate(row, c, slow.assumptions))


def test_every_timed_figure_has_a_bar_and_memory_figures_have_none() -> None:
    e = estimate(nim_setup(5))
    bars = error_bars(e, load_measurements(), load_catalogue())
    assert set(bars) == set(e.figures)
    for key, bar in bars.items():
        if key in KIND:
            assert bar is not None and bar.row.figure == KIND[key], key
        else:
            assert bar is None, key
    assert bars["throughput"] is not None and bars["throughput"].row.id.endswith("c5-throughput")
    assert bars["ttft"] is not None and bars["ttft"].row.id == "nim-70b-5000in-c1-ttft"


def test_json_figures_name_their_nearest_measurement_and_keep_the_contract(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["lab", "--gpu", "H100-SXM", "--model", "llama-3.1-70b", "--tp", "2"]
    args += ["--weights", "fp8", "--kv", "fp8", "--prompt", "5000", "--output", "500"]
    assert main([*args, "--batch", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:9] == [
        "batch",
        "throughput_tokens_per_s",
        "decode_throughput_tokens_per_s",
        "ttft_ms",
        "tpot_ms",
        "tpot_decode_ms",
        "e2e_s",
        "max_batch",
        "usd_per_million_output_tokens",
    ]
    bar = out["figures"]["tpot_loaded"]["nearest_measurement"]
    assert (
        bar["source"] == "NIM" and bar["value"] == 59.73 and bar["id"] == "nim-70b-5000in-c50-itl"
    )
    assert bar["lab"] == pytest.approx(out["tpot_ms"])  # the same setup: the lab's own figure
    assert bar["error"] == pytest.approx(out["tpot_ms"] / 59.73 - 1)
    assert "59.73" in bar["passage"] and bar["url"].startswith("https://")
    assert out["figures"]["weights"]["nearest_measurement"] is None
    assert main([*args, "--batch", "50"]) == 0
    text = capsys.readouterr().out
    assert f"measured: this setup: {abs(bar['error']):.0%} slow against NIM's measured ITL" in text
