"""The settings, edited in the game: one field per setting in `settings.SPECS`, each with what
it means and the values it may take. Enter saves when every value is allowed; a value that is
not says why under its field, and nothing is saved."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.lazy import Lazy
from textual.screen import Screen
from textual.widgets import Input, Select, Static

from vocabgame.printable import printable
from vocabgame.settings import SPECS, SettingError, Spec, check_interview_date
from vocabgame.store import StoreError
from vocabgame.ui.host import Host, host
from vocabgame.ui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from textual.visual import VisualType
    from textual.widget import Widget

# The chart's horizon: a month, the span `vocabgame simulate` shows by default.
CHART_DAYS = 30
IN_VIEW = 4  # the fields mounted with the screen: those a 30-row terminal shows at first
CHART_AFTER = 0.1  # seconds after the screen is drawn that the chart is worked out


def parse(spec: Spec, text: str) -> int | float | str:
    """A field's text as the setting's value, or SettingError saying what is allowed."""
    value: object = text.strip()
    if isinstance(spec.default, (int, float)):
        for number in (int, float):
            try:
                value = number(text)
                break
            except ValueError:
                continue  # not this kind of number; check() says so if neither fits
    return spec.check(value)


class Fields(VerticalScroll, inherit_bindings=False):
    """The list of fields: it scrolls to the field with the focus (and with the mouse), and
    leaves ↑ and ↓ to the screen, which moves the focus between fields with them (a
    scrolling container's own ↑ ↓ scrolled it instead, from any field in it)."""


class SettingsScreen(Screen[None]):
    # The first field takes the focus as the screen is shown: by Textual's default the list
    # of fields would take it first, and restyle all of them once as it gave it to the field.
    AUTO_FOCUS = f"#set-{SPECS[0].key}"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", tooltip="save every setting and go back"),
        Binding("escape", "cancel", "Back", tooltip="go back without saving"),
        Binding("down", "app.focus_next", show=False, tooltip="the next field (Tab too)"),
        Binding("up", "app.focus_previous", show=False, tooltip="the field before (Shift+Tab too)"),
        Binding("question_mark", "help", "Keys", tooltip="these keys", show=False),
    ]

    @property
    def vocab(self) -> Host:
        return host(self.app)

    def compose(self) -> ComposeResult:
        yield Static(Text("Settings", style="bold"), id="settings-title")
        yield Static(
            Text(
                "Tab or ↑ ↓ move between fields. Enter or Ctrl+S saves; Escape goes back "
                "without saving. New values apply from the next round.",
                style="dim",
            ),
            id="settings-intro",
        )
        with Fields(id="settings"):
            yield from self._fields(SPECS[:IN_VIEW])
            # The fields below the first screenful are mounted just after its first frame: the
            # screen opens with what can be seen, not with all 13 fields styled and laid out.
            with Lazy(Vertical(id="settings-below")):
                yield from self._fields(SPECS[IN_VIEW:])
        yield KeysFooter()

    def _fields(self, specs: Sequence[Spec]) -> ComposeResult:
        """Each setting of `specs`: its name and what it means, its field, and under the
        retention's the chart of what each retention would cost."""
        settings = self.vocab.session.settings
        for spec in specs:
            value = getattr(settings, spec.key)
            with Vertical(classes="setting"):
                label = Text(spec.label.capitalize(), style="bold")
                label.append(
                    f"\n{spec.help[:1].upper()}{spec.help[1:]}; {spec.describe()}.", style="dim"
                )
                yield Static(label)
                if spec.choices:
                    yield Select(
                        [(c, c) for c in spec.choices],
                        value=value,
                        allow_blank=False,
                        id=f"set-{spec.key}",
                    )
                else:
                    # validate_on=(): the values are checked on saving (`values`); Textual's
                    # check on each change restyled the field as it was made (3 ms a field)
                    yield Input(
                        str(value), id=f"set-{spec.key}", select_on_focus=False, validate_on=()
                    )
                # a field's error line is mounted under it when it first has one (`error`)
            if spec.key == "desired_retention":
                yield Static(
                    Text("Working out what each retention would cost you…", style="dim"),
                    id="retention-chart",
                )

    def on_mount(self) -> None:
        self.query_one(f"#set-{SPECS[0].key}").focus()
        # the screen is drawn first, then simulated (started at once, it delayed the first
        # frame by about 100 ms at 100k faces in `python -m benchmarks --only screen-settings`)
        self.call_after_refresh(self.set_timer, CHART_AFTER, self._start_chart)

    def _start_chart(self) -> None:
        self.run_worker(self._draw_chart(), exclusive=True, group="simulate")

    async def _draw_chart(self) -> None:
        """The chart of what each retention costs, drawn once simulated: one retention at a
        time, letting the screen answer keys between them (the simulator holds the
        interpreter while it runs), so the screen opens at once."""
        from vocabgame.simulate import Forecast, grid_with, inputs, simulate_one
        from vocabgame.stats import deck_sizes
        from vocabgame.ui.widgets.retention_chart import RetentionChart

        session = self.vocab.session
        try:
            given = inputs(session.store, deck_sizes(session.catalog.decks), session.settings)
        except StoreError:
            self._show_chart("")
            return
        runs = []
        for retention in grid_with(given.current):
            await asyncio.sleep(0)
            if not self.is_attached:  # the player left the screen: nothing to draw on
                return
            runs.append(simulate_one(given, CHART_DAYS, retention))
        result = Forecast(CHART_DAYS, given, tuple(p for p, _ in runs), tuple(d for _, d in runs))
        self._show_chart(RetentionChart(result))

    def _show_chart(self, chart: VisualType) -> None:
        """Draw the chart where it goes, if the screen still holds it (a player who leaves
        the screen before the simulation ends leaves nothing to draw on)."""
        for place in self.query("#retention-chart").results(Static):
            place.update(chart)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def values(self) -> dict[str, int | float | str] | None:
        """Every field's value, or None after showing why each bad one is not allowed."""
        values: dict[str, int | float | str] = {}
        bad = None
        settings = self.vocab.session.settings
        for spec in SPECS:
            field = next(iter(self.query(f"#set-{spec.key}")), None)
            if field is None:  # below the first screenful and not mounted yet: unchanged
                values[spec.key] = getattr(settings, spec.key)
                continue
            text = field.value if isinstance(field, Input) else str(cast(Select[str], field).value)
            try:
                values[spec.key] = parse(spec, text)
            except SettingError as exc:
                message = str(exc)
                error = self.error(spec, field)
                error.update(Text(f"{message[:1].upper()}{message[1:]}.", style="bold"))
                error.display = True
                bad = bad or field
            else:
                for shown in self.query(f"#error-{spec.key}").results(Static):
                    shown.display = False
        if bad is not None:
            bad.focus()
            return None
        return values

    def error(self, spec: Spec, field: Widget) -> Static:
        """The line under a field that says why its value is not allowed, mounted there the
        first time it is needed: a field with no error has none (13 fewer widgets to style
        and lay out before the screen's first frame)."""
        found = self.query(f"#error-{spec.key}").results(Static)
        error = next(found, None)
        if error is None:
            error = Static(id=f"error-{spec.key}", classes="error")
            cast("Widget", field.parent).mount(error, after=field)
        return error

    def action_save(self) -> None:
        values = self.values()
        if values is None:
            return
        session = self.vocab.session
        try:
            if values["interview_date"] != session.settings.interview_date:  # a new day only
                check_interview_date(str(values["interview_date"]), session.today())
            session.change_settings(session.settings.changed(**values))
        except (SettingError, StoreError) as exc:
            self.app.notify(
                printable(str(exc)), title="Settings not saved", severity="error", markup=False
            )
            return
        self.vocab.apply_theme()
        self.app.notify("Settings saved.", timeout=3, markup=False)
        self.app.pop_screen()

    def action_cancel(self) -> None:
        self.app.pop_screen()

    def action_help(self) -> None:
        from vocabgame.ui.screens.help import HelpScreen, active_key_rows

        self.app.push_screen(HelpScreen("Settings", active_key_rows(self)))
