from toolchaos.suites.toolfailbench.rules import ExecutedCall, classify

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
