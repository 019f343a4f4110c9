"""The serving lab: pick a setup with keys, read every figure with its working, see TPOT and
throughput against the batch, open the card that teaches a figure, and take a challenge."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from vocabgame.lab import Catalogue, Estimate, LabError, Setup, estimate, load_catalogue, sweep
from vocabgame.lab.errorbar import Nearest, error_bars
from vocabgame.lab.load import KNEE_CHUNK, KNEE_REQUESTS, KNEE_SHARES, Scheduler, knee, knee_rates
from vocabgame.lab.measurements import load_measurements
from vocabgame.lab.model import (
    BATCH_STEPS,
    COMPUTE_BOUND,
    KV_PRECISIONS,
    WEIGHT_PRECISIONS,
    fmt,
    next_batch,
)
from vocabgame.lab.report import SECTIONS
from vocabgame.printable import printable
from vocabgame.ui.host import Host, host
from vocabgame.ui.screens.card import CardScreen
from vocabgame.ui.screens.challenge import ChallengeScreen
from vocabgame.ui.screens.help import HelpScreen, active_key_rows
from vocabgame.ui.widgets.footer import KeysFooter
from vocabgame.ui.widgets.knee_chart import knee_chart, knee_legend
from vocabgame.ui.widgets.lab_chart import (
    COMPUTE_STYLE,
    CURRENT_STYLE,
    MEMORY_STYLE,
    ColumnChart,
    memory_bar,
)
from vocabgame.ui.widgets.title import TitleBar

TP_STEPS = (1, 2, 4, 8)
BANDWIDTH_STEPS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
COMPUTE_STEPS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _next_step(steps: Sequence[float], now: float) -> float:
    return next((x for x in steps if x > now + 1e-9), steps[0])


HONESTY = "A roofline estimate fitted to published measurements, not a measurement."
# Labels short enough for the list beside the working; the working shows the full one.
SHORT = {
    "weights": "Weights",
    "weights_per_gpu": "Weights per GPU",
    "kv_per_token": "KV per token",
    "kv_per_sequence": "KV per sequence",
    "kv_space": "Room for KV per GPU",
    "kv_batch": "KV of batch per GPU",
    "max_batch": "Largest batch",
    "ops_byte": "Ops:byte (datasheet)",
    "ridge": "Ridge point",
    "prefill_intensity": "Prefill intensity",
    "decode_intensity": "Decode intensity",
    "knee": "Knee batch (matmuls)",
    "allreduce_prefill": "Prefill all-reduces",
    "handoff_prefill": "Prefill hand-offs",
    "alltoall_prefill": "Prefill all-to-alls",
    "prefill": "Prefill time",
    "ttft": "TTFT",
    "decode_memory": "Decode memory term",
    "decode_compute": "Decode compute term",
    "allreduce_decode": "Step all-reduces",
    "handoff_decode": "Step hand-offs",
    "alltoall_decode": "Step all-to-alls",
    "pipeline_bubble": "Pipeline bubble",
    "tpot": "TPOT",
    "tpot_loaded": "TPOT with prefills",
    "e2e": "End-to-end latency",
    "user_speed": "Speed per user",
    "throughput": "Throughput, loaded",
    "decode_throughput": "Decode-only tok/s",
    "cost": "$ per 1M output",
}
LEGEND = Text.assemble(
    "Decode, per batch: ",
    ("██", MEMORY_STYLE),
    " memory-bound  ",
    ("██", COMPUTE_STYLE),
    " compute-bound  ",
    ("██", CURRENT_STYLE),
    " this batch",
)
# Narrower than the whole legend: its keys alone (the charts' titles say what is drawn).
SHORT_LEGEND = LEGEND[len("Decode, per batch: ") :]
CHARTS_NEED = 20  # rows: below that the charts give way to a line saying so
NO_ROOM = Text("The charts need 20 rows.", style="dim")
NARROW = 60  # columns: below that the working goes under the figures, not beside them
ORDER = tuple(key for _, keys in SECTIONS for key in keys)
FIRST = "tpot"


def expert_splits(setup: Setup) -> list[int]:
    """The expert-parallel degrees a setup can take: 1, and for an MoE each divisor of its TP
    that also divides its experts (as the lab's check allows)."""
    m = setup.model
    if not m.is_moe:
        return [1]
    return [n for n in range(1, setup.tp + 1) if setup.tp % n == 0 and m.experts % n == 0]


def _cycle(options: Sequence[str], current: str) -> str:
    return (
        options[(options.index(current) + 1) % len(options)] if current in options else options[0]
    )


class LabScreen(Screen[None]):
    BINDINGS = [
        Binding("b", "batch(1)", "Batch+", tooltip="batch up the doubling ladder"),
        Binding("B", "batch(-1)", "Batch-", show=False, tooltip="batch down the ladder"),
        Binding("p", "prompt(2)", "Prompt", show=False, tooltip="prompt twice as long"),
        Binding("P", "prompt(0.5)", "", show=False, tooltip="prompt half as long"),
        Binding("o", "output(2)", "Output", show=False, tooltip="output twice as long"),
        Binding("O", "output(0.5)", "", show=False, tooltip="output half as long"),
        Binding("t", "tp(1)", "TP", show=False, tooltip="tensor parallelism up (1, 2, 4, 8)"),
        Binding("T", "tp(-1)", "", show=False, tooltip="tensor parallelism down"),
        Binding(
            "a",
            "ep(1)",
            "",
            show=False,
            tooltip="expert parallelism up (an MoE's experts over TP GPUs: its all-to-alls)",
        ),
        Binding("A", "ep(-1)", "", show=False, tooltip="expert parallelism down"),
        Binding("g", "gpu", "GPU", tooltip="next GPU in the catalogue"),
        Binding("m", "model", "Model", tooltip="next model in the catalogue"),
        Binding("w", "weights", "Weights", show=False, tooltip="next weight precision"),
        Binding("k", "kv", "KV", show=False, tooltip="next KV cache precision"),
        Binding(
            "e",
            "efficiency('bandwidth')",
            "",
            show=False,
            tooltip="next assumed share of peak bandwidth (0.5 to 1)",
        ),
        Binding(
            "E",
            "efficiency('compute')",
            "",
            show=False,
            tooltip="next assumed share of peak math (0.3 to 1)",
        ),
        Binding("c", "card", "Card", tooltip="open the card that teaches the highlighted figure"),
        Binding("x", "challenge", "Challenge", tooltip="predict, then see: a fresh challenge"),
        Binding(
            "r",
            "lab_round",
            "Round",
            show=False,
            tooltip="a round of lab challenges, saved and scheduled like other cards",
        ),
        Binding(
            "l",
            "knee",
            "Load",
            show=False,
            tooltip="TTFT p99 against the arrival rate, chunked prefill on and off, or back",
        ),
        Binding("question_mark", "help", "Keys", tooltip="these keys"),
        Binding("escape,q", "back", "Back", tooltip="back to the decks"),
    ]

    def __init__(self, folders: Sequence[Path] = (), catalogue: Catalogue | None = None) -> None:
        super().__init__()
        self.catalogue = catalogue or load_catalogue(folders)
        gpu = self.catalogue.gpu("H100-SXM") or next(iter(self.catalogue.gpus.values()))
        model = self.catalogue.model("llama-3.1-8b") or next(iter(self.catalogue.models.values()))
        # Short prompts and replies, so the charts show decode turning compute-bound.
        self.setup = Setup(gpu, model, batch=8, prompt=200, output=200)
        self.result: Estimate | None = None
        self.bars: dict[str, Nearest | None] = {}
        self.problem: str | None = None
        self.challenges = 0
        self.seed_base = 0
        self.right = 0
        self.asked = 0
        self.knee_on = False  # the charts row shows the load's knee instead of the batch's
        self.knee_requests = KNEE_REQUESTS  # requests simulated a point of the knee

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="lab-setup")
        yield Static(Text(HONESTY), id="lab-honesty")
        with Horizontal(id="lab-main"):
            yield OptionList(id="lab-figures")
            with VerticalScroll(id="lab-side"):
                yield Static(id="lab-working")
        yield Static(id="lab-problem")
        yield Static(LEGEND, id="lab-legend")
        with Horizontal(id="lab-charts"):
            yield Static(id="lab-tpot-chart")
            yield Static(id="lab-throughput-chart")
            yield Static(id="lab-knee-chart")
            yield Static(id="lab-knee-note")
        yield Static(id="lab-memory")
        yield Static(NO_ROOM, id="lab-no-room")
        yield KeysFooter()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < CHARTS_NEED, "short")
        self.set_class(event.size.width < NARROW, "narrow")
        legend = LEGEND if event.size.width - 2 >= LEGEND.cell_len else SHORT_LEGEND
        self.query_one("#lab-legend", Static).update(knee_legend() if self.knee_on else legend)
        self.query_one("#lab-knee-note").display = self.knee_on and event.size.width >= NARROW

    def on_mount(self) -> None:
        self.title = "Serving lab"
        # The app's seed makes challenges repeatable (tests pin it); otherwise a fresh one.
        seed = self.vocab.seed
        self.seed_base = seed if seed is not None else random.randrange(1 << 30)
        for problem in self.catalogue.problems:
            self.notify(str(problem), severity="warning", markup=False, timeout=10)
        # The knee chart as wide as its columns; its reading takes the rest of the row.
        self.query_one("#lab-knee-chart").styles.width = "auto"
        self.query_one("#lab-knee-note").styles.width = "1fr"
        self.query_one("#lab-knee-note").styles.padding = (0, 0, 0, 2)
        self._show_charts()
        self.refresh_lab()
        self.query_one("#lab-figures", OptionList).focus()

    # -- drawing --------------------------------------------------------------------------

    def refresh_lab(self) -> None:
        s = self.setup
        self.query_one("#lab-setup", Static).update(
            Text(
                f"{s.model.name} · {s.tp}x {s.gpu.name}"
                + (f" · EP {s.ep}" if s.ep > 1 else "")
                + f" · W {s.weights.upper()} · "
                f"KV {s.kv.upper()} · batch {s.batch} · in {s.prompt} · out {s.output}",
                style="bold",
            )
        )
        try:
            self.result, self.problem = estimate(s), None
            self.bars = error_bars(self.result, load_measurements(), self.catalogue)
        except LabError as exc:
            self.result, self.problem, self.bars = None, str(exc), {}
        problem = self.query_one("#lab-problem", Static)
        problem.update(Text(f"Does not fit: {self.problem}" if self.problem else ""))
        problem.display = self.problem is not None
        self._figures()
        self._charts()
        if self.knee_on:
            self._start_knee()

    def _figures(self) -> None:
        figures = self.query_one("#lab-figures", OptionList)
        keep = figures.highlighted_option.id if figures.highlighted_option else FIRST
        figures.clear_options()
        if self.result is None:
            self.query_one("#lab-working", Static).update("")
            return
        for key in ORDER:
            fig = self.result[key]
            label = Text(f"{SHORT.get(key, fig.label)[:20]:<21}")
            label.append(fig.shown(), style="bold")
            figures.add_option(Option(label, id=key))
        figures.highlighted = ORDER.index(keep or FIRST)
        self._working(keep or FIRST)

    def _working(self, key: str) -> None:
        if self.result is None:
            return
        fig = self.result[key]
        out = Text(f"{fig.label}: ", style="bold")
        out.append(fig.shown())
        if fig.note:
            out.append(f" ({fig.note})", style="italic")
        out.append(f"\n= {fig.formula}\n", style="")
        for name, value in fig.inputs:
            out.append(f"  {name} = {value}\n")
        if key in ("tpot", "decode_intensity", "ridge"):
            out.append(f"Decode is {self.result.decode_regime}.\n", style="bold")
        if key in ("prefill", "prefill_intensity", "ttft"):
            out.append(f"Prefill is {self.result.prefill_regime}.\n", style="bold")
        bar = self.bars.get(key)
        if bar is not None:
            out.append(f"Measured: {bar.words()}\n", style="bold")
        if fig.card:
            title = self._card_title(fig.card.deck, fig.card.item)
            out.append(f"Taught by: {title} ({fig.card}); c opens it\n", style="italic")
        a = self.setup.assumptions
        out.append(
            f"Assumed: bandwidth {a.bandwidth_efficiency:.0%} (e), math "
            f"{a.compute_efficiency:.0%} (E), memory {a.usable_memory:.0%}, "
            f"{a.step_overhead_us / 1000:g} ms a pass, ${a.usd_per_gpu_hour:.2f}/GPU-h",
            style="dim",
        )
        self.query_one("#lab-working", Static).update(out)

    def _card_title(self, deck_id: str, item_id: str) -> str:
        deck = self.vocab.session.catalog.get(deck_id)
        item = deck.item(item_id) if deck is not None else None
        return getattr(item, "term", None) or item_id

    def _charts(self) -> None:
        points = sweep(self.setup, BATCH_STEPS)
        tpot = [
            (b, e.value("tpot") if e else None, bool(e and e.decode_regime == COMPUTE_BOUND))
            for b, e in points
        ]
        thr = [
            (b, e.value("throughput") if e else None, bool(e and e.decode_regime == COMPUTE_BOUND))
            for b, e in points
        ]
        now = self.result
        head_t = f"TPOT by batch{': ' + now['tpot'].shown() if now else ''}"
        head_r = f"Tokens/s by batch{': ' + fmt(now.value('throughput')) if now else ''}"
        self.query_one("#lab-tpot-chart", Static).update(
            ColumnChart(head_t, tpot, self.setup.batch)
        )
        self.query_one("#lab-throughput-chart", Static).update(
            ColumnChart(head_r, thr, self.setup.batch)
        )
        s = self.setup
        weights = s.model.params_b * {"bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}[s.weights] / s.tp
        kv = now.value("kv_batch") if now else 0.0
        usable = s.gpu.memory_gb * s.assumptions.usable_memory
        self.query_one("#lab-memory", Static).update(
            memory_bar(weights, kv, usable, s.gpu.memory_gb)
        )

    @on(OptionList.OptionHighlighted, "#lab-figures")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self._working(event.option.id)

    # -- keys -----------------------------------------------------------------------------

    def _change(self, setup: Setup) -> None:
        if setup.ep not in expert_splits(setup):  # another model or TP: the experts unsplit
            setup = replace(setup, ep=1)
        self.setup = setup
        self.refresh_lab()

    def action_batch(self, step: int) -> None:
        self._change(replace(self.setup, batch=next_batch(self.setup.batch, step > 0)))

    def action_prompt(self, factor: float) -> None:
        self._change(
            replace(self.setup, prompt=max(1, min(131072, round(self.setup.prompt * factor))))
        )

    def action_output(self, factor: float) -> None:
        self._change(
            replace(self.setup, output=max(1, min(131072, round(self.setup.output * factor))))
        )

    def action_tp(self, step: int) -> None:
        i = TP_STEPS.index(self.setup.tp) if self.setup.tp in TP_STEPS else 0
        self._change(replace(self.setup, tp=TP_STEPS[max(0, min(len(TP_STEPS) - 1, i + step))]))

    def action_ep(self, step: int) -> None:
        splits = expert_splits(self.setup)
        if len(splits) == 1:
            m = self.setup.model
            why = (
                "has no experts to split" if not m.is_moe else f"cannot split at TP {self.setup.tp}"
            )
            self.notify(f"{printable(m.name)} {why}: expert parallelism stays 1.", markup=False)
            return
        i = splits.index(self.setup.ep)
        self._change(replace(self.setup, ep=splits[max(0, min(len(splits) - 1, i + step))]))

    def action_gpu(self) -> None:
        ids = list(self.catalogue.gpus)
        self._change(replace(self.setup, gpu=self.catalogue.gpus[_cycle(ids, self.setup.gpu.id)]))

    def action_model(self) -> None:
        ids = list(self.catalogue.models)
        self._change(
            replace(self.setup, model=self.catalogue.models[_cycle(ids, self.setup.model.id)])
        )

    def action_weights(self) -> None:
        self._change(replace(self.setup, weights=_cycle(WEIGHT_PRECISIONS, self.setup.weights)))

    def action_kv(self) -> None:
        self._change(replace(self.setup, kv=_cycle(KV_PRECISIONS, self.setup.kv)))

    def action_efficiency(self, which: str) -> None:
        a = self.setup.assumptions
        if which == "bandwidth":
            a = replace(a, bandwidth_efficiency=_next_step(BANDWIDTH_STEPS, a.bandwidth_efficiency))
        else:
            a = replace(a, compute_efficiency=_next_step(COMPUTE_STEPS, a.compute_efficiency))
        self._change(replace(self.setup, assumptions=a))

    def action_card(self) -> None:
        option = self.query_one("#lab-figures", OptionList).highlighted_option
        if self.result is None or option is None or option.id is None:
            return
        card = self.result[option.id].card
        if card is None:
            self.notify("No card teaches this figure yet.", markup=False)
            return
        deck = self.vocab.session.catalog.get(card.deck)
        if deck is None:
            self.notify(f"The deck {card.deck!r} is not loaded.", markup=False)
            return
        self.app.push_screen(CardScreen(deck, card.item))

    def action_challenge(self) -> None:
        seed = self.seed_base + self.challenges
        self.challenges += 1
        try:
            screen = ChallengeScreen.for_seed(self.catalogue, seed)
        except LabError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return

        def scored(result: tuple[int, int] | None) -> None:
            if result is not None:
                self.right += result[0]
                self.asked += result[1]
                self.sub_title = f"challenges: {self.right} of {self.asked} predictions right"

        self.app.push_screen(screen, scored)

    # -- the load's knee, simulated in a thread so the screen never waits for it ----------

    def _show_charts(self) -> None:
        for name in ("#lab-tpot-chart", "#lab-throughput-chart"):
            self.query_one(name).display = not self.knee_on
        self.query_one("#lab-knee-chart").display = self.knee_on
        # On a narrow screen the reading beside the chart would be a column of single words.
        self.query_one("#lab-knee-note").display = self.knee_on and self.size.width >= NARROW
        legend = knee_legend() if self.knee_on else LEGEND
        self.query_one("#lab-legend", Static).update(legend)

    def action_knee(self) -> None:
        self.knee_on = not self.knee_on
        self._show_charts()
        if self.knee_on:
            self._start_knee()

    def _start_knee(self) -> None:
        setup = self.setup
        self.query_one("#lab-knee-chart", Static).update(
            Text("Simulating the load ...", style="dim")
        )
        self.query_one("#lab-knee-note", Static).update("")
        self.run_worker(lambda: self._simulate_knee(setup), thread=True, exclusive=True)

    def _simulate_knee(self, setup: Setup) -> None:
        try:
            rates = knee_rates(setup)
            n = self.knee_requests
            first = [v for _, v in knee(setup, rates, Scheduler(None), n)]
            chunked = [v for _, v in knee(setup, rates, Scheduler(KNEE_CHUNK), n)]
        except LabError as exc:
            self.app.call_from_thread(self._knee_refused, setup, str(exc))
            return
        self.app.call_from_thread(self._show_knee, setup, rates, first, chunked)

    def _knee_refused(self, setup: Setup, problem: str) -> None:
        if setup == self.setup:
            self.query_one("#lab-knee-chart", Static).update(Text(f"No load: {problem}"))

    def _show_knee(
        self,
        setup: Setup,
        rates: list[float],
        first: list[float | None],
        chunked: list[float | None],
    ) -> None:
        if setup != self.setup:  # a stale run for a setup since changed
            return
        self.query_one("#lab-knee-chart", Static).update(
            knee_chart("TTFT p99 by requests/s (log)", rates, first, chunked)
        )
        at = KNEE_SHARES.index(1.0)

        def ms(v: float | None) -> str:
            return "-" if v is None else f"{fmt(v)} ms"

        self.query_one("#lab-knee-note", Static).update(
            Text(
                f"At {fmt(rates[at])} req/s, the estimate's capacity: TTFT p99 {ms(first[at])} "
                f"prefill-first, {ms(chunked[at])} with {KNEE_CHUNK}-token chunks. At twice "
                f"that: {ms(first[-1])} and {ms(chunked[-1])}. {self.knee_requests} Poisson "
                "requests a point, simulated."
            )
        )

    def action_lab_round(self) -> None:
        self.vocab.play(None, "lab")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("Serving lab", active_key_rows(self)))

    def action_back(self) -> None:
        self.dismiss()
