from vocabgame.deck import load_deck
from vocabgame.model import Tolerance

from .conftest import DATA


def test_the_format_example_from_the_docs_loads_into_the_model() -> None:
    deck = load_deck(DATA / "latency-basics.yaml")
    assert deck.id == "latency-basics"
    assert [t.id for t in deck.terms] == ["ttft", "tpot"]
    assert deck.terms[0].aliases == ("TTFT",)
    assert deck.scenarios[0].why_not_for("tpot") == "It measures the pace after the first token."
    calc = deck.calculations[0]
    assert calc.tolerance == Tolerance(0.05, relative=True)
    assert [g.name for g in calc.given] == ["params", "precision"]
    assert calc.given[1].options == (("FP16", 2.0), ("INT4", 0.5))
    assert deck.sources["aiperf"].title == "AIPerf metrics reference"
