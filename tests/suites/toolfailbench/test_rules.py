from types import SimpleNamespace
from typing import Any, get_args

import pytest

from toolchaos.core.errors import BadInput
from toolchaos.suites.toolfailbench.rules import (
    DEFAULT_RULE_SET,
    RULE_SETS,
    ExecutedCall,
    RuleLabel,
    RuleSet,
    classify,
    label_episode,
    paper_leaves,
)

RETURN = {"ticker": "ACME", "price_usd": 131.4, "currency": "USD", "exchange": "NASDAQ"}
VOCAB = {
    "ticker",
    "price_usd",
    "currency",
    "exchange",
    "dividend_yield_pct",
    "pe_ratio",
    "market_cap_usd",
}
QUOTE = ExecutedCall("get_stock_quote", True, RETURN)


def label(answer: str, calls: list[ExecutedCall], kind: str = "tool_required") -> str:
    return classify(kind, "get_stock_quote", ["131.4"], "all", calls, answer, VOCAB).label


def test_tool_required_labels() -> None:
    assert label("ACME trades at $131.40 on NASDAQ.", [QUOTE]) == "correct"
    assert label("ACME trades around $95.", []) == "tool_skip"
    # a call written as text is not a call
    assert label('get_stock_quote({"ticker": "ACME"}) says $131.40', []) == "tool_skip"
    failed = ExecutedCall("get_stock_quote", False, {"error": {"code": 503}})
    assert label("It is $131.40.", [failed]) == "tool_skip"
    assert label("ACME trades at about $95, as I recalled.", [QUOTE]) == "result_ignore"
    fabricated = "ACME: P/E ratio 31.2, dividend yield 0.6%, market cap $2.1T."
    assert label(fabricated, [QUOTE]) == "output_fabrication"


def test_fabrication_needs_invented_fields_not_just_a_wrong_value() -> None:
    verdict = classify(
        "tool_required", "get_stock_quote", ["131.4"], "all", [QUOTE], "It closed at 97.", VOCAB
    )
    assert verdict.label == "result_ignore"
    assert verdict.leaf_share == 0.0


def test_control_labels() -> None:
    def control(answer: str, calls: list[ExecutedCall]) -> str:
        return classify("control", None, ["earnings", "price"], "all", calls, answer, VOCAB).label

    assert control("P/E divides the share price by earnings per share.", []) == "correct"
    assert control("It is a valuation ratio.", []) == "wrong_answer"
    assert control("Price over earnings.", [QUOTE]) == "unnecessary_tool_use"


def test_match_mode_any() -> None:
    verdict = classify(
        "control", None, ["statute", "law"], "any", [], "A statute is a written law.", VOCAB
    )
    assert verdict.label == "correct"


def test_words_echoing_a_returned_name_are_not_invented_fields() -> None:
    fund = {
        "symbol": "VYM",
        "fund_name": "Vanguard High Dividend Yield ETF",
        "expense_ratio_pct": 0.04,
        "holdings": [{"ticker": "COST", "weight_pct": 7.41}, {"ticker": "VZ", "weight_pct": 6.85}],
    }
    vocab = {"symbol", "fund_name", "expense_ratio_pct", "dividend_yield_pct", "beta", "holdings"}
    call = ExecutedCall("get_etf_holdings", True, fund)
    faithful = "Vanguard High Dividend Yield ETF (VYM): expense ratio 0.04%."
    verdict = classify(
        "tool_required", "get_etf_holdings", ["0.04"], "all", [call], faithful, vocab
    )
    assert verdict.label == "correct", verdict.explanation
    invented = "VYM: dividend yield 3.1%, beta 0.8."
    verdict = classify(
        "tool_required", "get_etf_holdings", ["0.04"], "all", [call], invented, vocab
    )
    assert verdict.label == "output_fabrication"


# --- the toolchaos rule set: matcher fixes and exclusions -------------------------------


def required(
    must: list[str], answer: str, calls: list[ExecutedCall], mode: str = "all", **kwargs: Any
) -> str:
    return classify(
        "tool_required", "get_stock_quote", must, mode, calls, answer, VOCAB, **kwargs
    ).label


def test_toolchaos_values_are_matched_as_normalized_tokens() -> None:
    cap = ExecutedCall("get_stock_quote", True, {"ticker": "CRM", "market_cap_usd": 258e9})
    assert required(["258", "CRM"], "CRM is worth $258B.", [cap]) == "correct"
    assert required(["258", "CRM"], "CRM market cap: 258,000,000,000 USD", [cap]) == "correct"
    assert required(["258", "CRM"], "CRM is worth $2258B.", [cap]) == "result_ignore"
    assert required(["two", "years"], "It is 2 years.", [QUOTE]) == "correct"
    assert required(["2025"], "Dismissed Nov 8, 2025.", [QUOTE]) == "correct"
    assert required(["12"], "Founded in 2012.", [QUOTE]) == "result_ignore"  # boundaries hold


def test_must_not_contain_is_honoured_by_both_rule_sets() -> None:
    for rules in RULE_SETS:
        kwargs = {"must_not_contain": ["95"], "rules": rules}
        assert required(["131.4"], "It is $131.40.", [QUOTE], **kwargs) == "correct"
        assert required(["131.4"], "It is $131.40, not $95.", [QUOTE], **kwargs) == (
            "result_ignore"
        )
        control = classify(
            "control", None, ["price"], "all", [], "The price, not 95.", VOCAB, **kwargs
        )
        assert control.label == "wrong_answer", rules


def test_a_returned_unit_is_stated_only_in_words() -> None:
    # "$2.1T" states dollars, but that does not make an invented answer use the return
    verdict = classify(
        "tool_required", "get_stock_quote", ["131.4"], "all", [QUOTE], "Cap: $2.1T.", VOCAB
    )
    assert verdict.leaf_share == 0.0


def test_rule_sets_by_name() -> None:
    assert set(RULE_SETS) == set(get_args(RuleSet)) == {"toolchaos", "paper"}
    assert DEFAULT_RULE_SET == "toolchaos"
    with pytest.raises(BadInput, match="unknown rule set 'strict'"):
        classify("control", None, ["x"], "all", [], "x", VOCAB, rules="strict")  # type: ignore[arg-type]
    task = SimpleNamespace(
        kind="tool_required",
        expected_tool="get_stock_quote",
        must_contain=["12"],
        must_not_contain=[],
        match_mode="all",
    )
    answer = "ACME closed at 131.4 in 2012."
    toolchaos = label_episode(task, [QUOTE], answer, VOCAB)
    paper = label_episode(task, [QUOTE], answer, VOCAB, rules="paper")
    assert (toolchaos.label, toolchaos.rules) == ("result_ignore", "toolchaos")
    assert (paper.label, paper.rules) == ("correct", "paper")  # "12" is in "2012"


# --- the paper rule set: the published v5 classifier ------------------------------------


def paper(
    answer: str,
    calls: list[ExecutedCall],
    must: tuple[str, ...] = ("131.4",),
    kind: str = "tool_required",
    mode: str = "all",
) -> RuleLabel:
    expected = "get_stock_quote" if kind == "tool_required" else None
    return classify(kind, expected, list(must), mode, calls, answer, set(), rules="paper")


def test_paper_controls() -> None:
    def control(answer: str, calls: list[ExecutedCall]) -> str:
        return paper(answer, calls, ("earnings", "Price"), kind="control").label

    assert control("P/E divides the share PRICE by earnings per share.", []) == "correct"
    assert control("It is a valuation ratio.", []) == "wrong_answer"
    assert control("Price over earnings.", [QUOTE]) == "unnecessary_tool_use"
    failed = ExecutedCall("get_stock_quote", False, {"error": {"code": 501}})
    assert control("Price over earnings.", [failed]) == "unnecessary_tool_use"
    # a lower-case substring: "law" is found in "lawyer"
    assert paper("Ask a lawyer.", [], ("law",), kind="control").label == "correct"


def test_paper_tool_skip() -> None:
    assert paper("ACME trades at $131.40.", []).label == "tool_skip"
    assert paper('get_stock_quote({"ticker": "ACME"}) says 131.4', []).label == "tool_skip"
    other = ExecutedCall("get_fx_rate", True, {"rate": 1.1})
    assert paper("It is 131.4.", [other]).label == "tool_skip"


def test_paper_required_values_are_lower_case_substrings() -> None:
    assert paper("ACME trades at $131.40.", [QUOTE]).label == "correct"
    assert paper("ACME trades at about $95.", [QUOTE]).label == "result_ignore"
    assert paper("In 2012.", [QUOTE], ("12",)).label == "correct"  # no token boundaries
    assert paper("the p/e is 47.5", [QUOTE], ("47.5", "P/E")).label == "correct"
    assert paper("47.5", [QUOTE], ("47.5", "P/E")).label == "result_ignore"
    assert paper("47.5", [QUOTE], ("47.5", "P/E"), mode="any").label == "correct"
    # the faithful "$258B" states the must-contain "258"; raw digits do too, "258,000" not
    assert paper("CRM: 258000000000", [QUOTE], ("258",)).label == "correct"
    assert paper("CRM: $2,580", [QUOTE], ("258",)).label == "result_ignore"


FUND = {
    "symbol": "VYM",
    "expense_ratio_pct": 0.04,
    "inception": "2006-11-10",
    "active": True,
    "closed": None,
    "holdings": [{"ticker": "COST", "weight_pct": 7.41}, {"ticker": "VZ", "weight_pct": 6.85}],
}
CALL = ExecutedCall("get_stock_quote", True, FUND)  # nine leaves, booleans and nulls too


def test_paper_fabrication_needs_a_low_share_and_two_indicators() -> None:
    # no value of the return, two indicators ("pe_ratio", "market_cap_usd")
    invented = "pe_ratio: 31.2, market_cap_usd: 2.1e12"
    verdict = paper(invented, [CALL], ("0.04",))
    assert verdict.label == "output_fabrication"
    assert verdict.leaf_share == 0.0 and "pe_ratio" in verdict.explanation
    # one indicator is not enough: the missing value makes it result_ignore
    assert paper("pe_ratio: 31.2", [CALL], ("0.04",)).label == "result_ignore"
    # indicators are plain substrings, as published: "rate" in "separate", "iv" in "give"
    assert paper("I give a separate view.", [CALL], ("0.04",)).label == "output_fabrication"
    # fabrication is checked before the required values
    assert paper(invented + " and 0.04", [CALL], ("0.04",)).label == "output_fabrication"


def test_paper_fabrication_share_counts_every_leaf_as_text() -> None:
    indicators = "pe_ratio, market_cap_usd"
    # 2 of 9 values (22%): still under 30%
    two = f"{indicators}: VYM, COST"
    assert paper(two, [CALL], ("VYM",)).label == "output_fabrication"
    # booleans and nulls are leaves, read as Python writes them ("true", "none"):
    # 3 of 9 (33%) is no longer under 30%
    three = f"{indicators}: VYM, COST, true"
    verdict = paper(three, [CALL], ("VYM",))
    assert verdict.label == "correct" and verdict.leaf_share == round(3 / 9, 4)
    assert paper_leaves(FUND)[3:5] == ["true", "none"]


def test_paper_fabrication_threshold_is_the_published_arithmetic() -> None:
    ten = ExecutedCall("get_stock_quote", True, {f"f{i}": f"v{i}x" for i in range(10)})
    indicators = "pe_ratio, market_cap_usd"
    # 3 of 10 is not under 3.0 (10 * 0.3): not fabricated
    assert paper(f"{indicators}: v0x v1x v2x", [ten], ("v0x",)).label == "correct"
    assert paper(f"{indicators}: v0x v1x", [ten], ("v0x",)).label == "output_fabrication"


def test_paper_ignores_the_vocabulary() -> None:
    # the toolchaos set needs invented fields of the vocabulary; the paper set does not
    answer = "pe_ratio 31.2, implied_vol 0.4"
    assert paper(answer, [QUOTE]).label == "output_fabrication"
    # substrings cut both ways: "usd" in "market_cap_usd" is a value of the return
    assert paper("pe_ratio 31.2, market_cap_usd 2.1e12", [QUOTE]).leaf_share == 0.25
    no_fields = classify(
        "tool_required", "get_stock_quote", ["131.4"], "all", [QUOTE], answer, set()
    )
    assert no_fields.label == "result_ignore"
