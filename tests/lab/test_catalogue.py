"""The GPU and model catalogue: the built-in files are valid and sourced, a player's
*.lab.yaml adds to them, mistakes are reported at file:line:col, and every card a figure
names exists in the built-in decks."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocabgame.deck import load_catalog
from vocabgame.lab import Setup, estimate, load_catalogue
from vocabgame.lab.catalogue import load_text
from vocabgame.lab.model import CARDS, weights_read_b
from vocabgame.paths import builtin_decks_dir
from vocabgame.reading.files import deck_files

MINE = """\
lab: 1
sources:
  mine: {title: "My GPU's datasheet", url: "https://example.com/gpu.pdf"}
gpus:
  - id: My-GPU
    name: My GPU
    memory_gb: 24
    bandwidth_gbs: 1000
    tflops: {bf16: 165}
    sources: [mine]
"""


def test_builtin_catalogue_loads_cleanly_with_every_figure_sourced() -> None:
    catalogue = load_catalogue()
    assert catalogue.problems == ()
    assert {"H100-SXM", "A100-SXM-80GB", "H200-SXM", "L40S"} <= set(catalogue.gpus)
    assert {"llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b"} <= set(catalogue.models)
    for spec in [*catalogue.gpus.values(), *catalogue.models.values()]:
        assert spec.sources, spec.id
        for key in spec.sources:
            assert catalogue.sources[key].url.startswith("https://"), key


def test_builtin_figures_match_their_datasheets_and_configs() -> None:
    c = load_catalogue()
    h100 = c.gpus["H100-SXM"]
    assert (h100.memory_gb, h100.bandwidth_gbs, h100.tflops["bf16"]) == (80, 3350, 989)
    assert "fp8" not in c.gpus["A100-SXM-80GB"].tflops  # Ampere has no FP8 tensor cores
    llama = c.models["llama-3.1-8b"]
    assert (llama.layers, llama.hidden, llama.heads, llama.kv_heads, llama.head_dim) == (
        32, 4096, 32, 8, 128,
    )  # fmt: skip
    assert c.models["mixtral-8x7b"].active_b == 12.9
    # Links as the datasheets print them (both directions); a ring uses one direction's half.
    assert (h100.nvlink_gbs, h100.pcie_gbs, h100.link()) == (900, 128, ("NVLink", 450))
    assert c.gpus["L40S"].link() == ("PCIe", 32)  # no NVLink on an L40S


def test_the_newer_models_and_gpus_by_hand() -> None:
    c = load_catalogue()
    ds = c.models["deepseek-v3"]
    # MLA: 61 layers x (512 latent + 64 RoPE key) x 2 bytes = 70,272 bytes a token in BF16,
    # against 61 x 2 x 128 heads x 128 x 2 = 3,997,696 were every head's K and V kept.
    gpu = c.gpus["H200-SXM"]
    e = estimate(Setup(gpu, ds, weights="fp8", kv="bf16", tp=8, prompt=1000, output=100))
    assert e.value("kv_per_token") == 61 * 576 * 2 == 70272
    # 256 routed experts of (671 - 37) / 248 = 2.556B; shared part (attention, embeddings,
    # the 3 dense layers, the shared expert) 671 - 256 x 2.556 = 16.55B
    per_expert = (671 - 37) / 248
    assert weights_read_b(ds, 1) == pytest.approx(671 - 256 * per_expert + 8 * per_expert)
    assert weights_read_b(ds, 1) == pytest.approx(37)
    assert weights_read_b(ds, 4096) == pytest.approx(671)
    # Matmul parameters: 37B active less the 129,280 x 7,168 input embedding (0.93B)
    assert ds.matmul_b == pytest.approx(37 - 0.92668, abs=1e-4)
    big = c.models["llama-3.1-405b"]
    assert (big.layers, big.hidden, big.heads, big.kv_heads) == (126, 16384, 128, 8)
    assert big.matmul_b == pytest.approx(405.9 - 2.1014, abs=1e-3)
    dense, moe = c.models["qwen3-32b"], c.models["qwen3-30b-a3b"]
    assert dense.heads * dense.head_dim == 8192 != dense.hidden  # Qwen3's heads are wider
    assert (moe.experts, moe.active_experts, moe.active_b, moe.params_b) == (128, 8, 3.3, 30.5)
    b200, h20, mi = c.gpus["B200"], c.gpus["H20"], c.gpus["MI300X"]
    assert (b200.memory_gb, b200.bandwidth_gbs, b200.tflops["fp8"]) == (180, 8000, 4500)
    assert b200.link() == ("NVLink", 900)
    assert (h20.memory_gb, h20.tflops["bf16"], h20.link()) == (96, 148, ("NVLink", 450))
    assert (mi.memory_gb, mi.bandwidth_gbs, mi.tflops["bf16"]) == (192, 5300, 1307.4)
    assert mi.link() == ("NVLink", 448)  # 7 Infinity Fabric links x 128 GB/s, one way


def test_ids_are_found_whatever_their_case() -> None:
    c = load_catalogue()
    assert c.gpu("h100-sxm") is c.gpus["H100-SXM"]
    assert c.model("Llama-3.1-8B") is c.models["llama-3.1-8b"]


def test_a_players_lab_file_in_a_decks_folder_adds_a_gpu_and_is_not_read_as_a_deck(
    tmp_path: Path,
) -> None:
    (tmp_path / "my.lab.yaml").write_text(MINE, encoding="utf-8")
    catalogue = load_catalogue([tmp_path])
    assert catalogue.problems == ()
    assert catalogue.gpus["My-GPU"].tflops["bf16"] == 165
    assert deck_files([tmp_path]) == []
    assert load_catalog([tmp_path]).problems == ()


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        ("memory_gb: 24", "memory_gb: lots", "7:16", "memory_gb should be a number"),
        ("memory_gb: 24", "memory_gb: -24", "7:16", "must be a positive number"),
        (
            "memory_gb: 24",
            "memroy_gb: 24",
            "7:5",
            "unknown key 'memroy_gb' in a GPU (did you mean 'memory_gb'?)",
        ),
        (
            "sources: [mine]",
            "sources: [yours]",
            "10:15",
            "source 'yours' is not in the file's sources",
        ),
        ("tflops: {bf16: 165}", "tflops: {fp8: 165}", "9:13", "missing required key 'bf16'"),
        ("lab: 1", "lab: 2", "1:6", "unsupported lab format"),
        ("memory_gb: 24", "memory_gb: 24\n    nvlink_gbs: 0", "8:17", "must be a positive number"),
        ("id: My-GPU", "id: my gpu", "5:9", "may hold only letters, digits"),
    ],
)
def test_mistakes_are_reported_at_file_line_col(
    old: str, new: str, where: str, message: str, tmp_path: Path
) -> None:
    spec, problems = load_text(MINE.replace(old, new), "my.lab.yaml")
    assert spec is None
    shown = [str(p) for p in problems]
    assert any(s.startswith(f"my.lab.yaml:{where}: error: ") and message in s for s in shown), shown


def test_a_file_with_problems_is_left_out_and_its_problems_reported(tmp_path: Path) -> None:
    (tmp_path / "bad.lab.yaml").write_text(MINE.replace("memory_gb: 24", "memory_gb: x"), "utf-8")
    catalogue = load_catalogue([tmp_path])
    assert "My-GPU" not in catalogue.gpus
    assert "H100-SXM" in catalogue.gpus
    assert [p.line for p in catalogue.problems] == [7]


def test_a_model_without_a_source_or_with_half_an_moe_is_refused() -> None:
    text = """\
lab: 1
models:
  - id: m
    name: M
    params_b: 7
    layers: 32
    hidden: 4096
    heads: 32
    kv_heads: 8
    head_dim: 128
    experts: 8
"""
    spec, problems = load_text(text, "m.lab.yaml")
    assert spec is None
    messages = " | ".join(p.message for p in problems)
    assert "has no sources" in messages
    assert "lacks active_experts, active_params_b" in messages
    half_mla = text.replace("    experts: 8\n", "    kv_lora_rank: 512\n    vocab: 32000\n")
    spec, problems = load_text(half_mla + "    sources: [x]\n", "m.lab.yaml")
    assert "has latent attention but lacks qk_rope_head_dim" in " | ".join(
        p.message for p in problems
    )


def test_every_card_a_figure_names_exists_in_the_builtin_decks() -> None:
    decks = {d.id: d for d in load_catalog([builtin_decks_dir()]).decks}
    for key, card in CARDS.items():
        deck = decks.get(card.deck)
        assert deck is not None, f"{key}: no deck {card.deck}"
        ids = {item.id for items in deck.sections.values() for item in items}
        assert card.item in ids, f"{key}: no item {card}"
