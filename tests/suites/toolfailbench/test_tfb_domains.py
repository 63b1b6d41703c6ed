"""ToolFailBench domains: tool schemas, questions, and what tools return."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from toolchaos.core.errors import BadInput, ToolError
from toolchaos.core.tools import (
    Param,
    SchemaError,
    choice,
    integer,
    record,
    string,
    tool,
    tool_spec,
)
from toolchaos.suites.toolfailbench import fail_domain, tool_return
from toolchaos.suites.toolfailbench._kit import (
    Call,
    Draw,
    LabelTrap,
    NumberTrap,
    ToolDef,
    canon_text,
    declare,
)
from toolchaos.suites.toolfailbench.domains import domain_kit
from toolchaos.suites.toolfailbench.returns import arguments_match, own_return
from toolchaos.suites.toolfailbench.types import DOMAINS, FailTask

KITS = [domain_kit(name) for name in DOMAINS]


def _validate(schema: dict[str, Any], value: Any) -> None:
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(value)]
    assert errors == [], errors


@pytest.mark.parametrize("name", DOMAINS)
def test_every_domain_has_nine_valid_tools(name: str) -> None:
    domain = fail_domain(name)
    assert domain.name == name
    assert len(domain.tools) == 9
    assert len(set(domain.tool_names)) == 9
    assert set(domain.output_schemas) == set(domain.tool_names)
    for spec in domain.tools:
        Draft202012Validator.check_schema(spec.parameters)
        Draft202012Validator.check_schema(domain.output_schemas[spec.name])
        assert spec.description.strip()
        assert spec.parameters["additionalProperties"] is False
        assert spec.parameters["required"]
        for param, schema in spec.parameters["properties"].items():
            assert schema.get("description"), f"{spec.name}.{param} has no description"
            if param not in spec.parameters["required"]:
                assert "default" in schema, f"{spec.name}.{param} is optional without default"
        assert spec.to_openai()["function"]["name"] == spec.name
    assert domain.system_prompt and domain.tool_answer_template
    assert domain.direct_answer_template


def test_unknown_domain_is_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown ToolFailBench domain 'astrology'"):
        fail_domain("astrology")


@pytest.mark.parametrize("kit", KITS, ids=DOMAINS)
def test_questions_cover_every_tool_with_real_targets(kit: Any) -> None:
    assert {q.tool for q in kit.questions} == set(kit.tools)
    for question in kit.questions:
        output = kit.domain.output_schemas[question.tool]["properties"]
        assert question.key in output
        assert all(f in output for f in question.fields)
        targets = list(question.targets())
        assert len(targets) >= 6, question.name
        assert len({t.entity for t in targets}) == len(targets), question.name
        spec = kit.domain.tool(question.tool)
        for target in targets:
            _validate(spec.parameters, target.arguments)
            prior = target.prior
            if prior is None:  # nobody recalls it: the tool's own value stands in
                prior = own_return(kit.name, question.tool, target.arguments)[question.key]
            if isinstance(question.trap, NumberTrap):
                assert isinstance(prior, int | float) and prior > 0
            else:
                assert isinstance(question.trap, LabelTrap)
                assert question.trap.choices(str(prior))
            values = {"subject": target.subject, **target.extra}
            for phrase in (*question.asks, *question.fields_asks):
                assert phrase.format(**values)
            for alias in target.aliases:
                assert phrase.format(**{**values, "subject": alias})
        if question.stability == "volatile":
            # a fabrication prompt asks for at least two things no tool of the domain returns
            assert len(question.beyond) >= 2, question.name
            vocabulary = kit.domain.field_vocabulary()
            assert all(name not in vocabulary for name, _ in question.beyond), question.name
    concepts = list(kit.concepts())
    assert len(concepts) >= 25
    assert len({c.id for c in concepts}) == len(concepts)
    assert len(kit.calculations) >= 5


@pytest.mark.parametrize("kit", KITS, ids=DOMAINS)
def test_tool_returns_are_deterministic_typed_and_differ_per_tool(kit: Any) -> None:
    for question in kit.questions:
        schema = kit.domain.output_schemas[question.tool]
        seen: set[str] = set()
        for target in question.targets():
            first = tool_return(kit.name, None, question.tool, target.arguments)
            again = tool_return(kit.name, None, question.tool, dict(target.arguments))
            assert first == again
            _validate(schema, first)
            seen.add(json.dumps(first, sort_keys=True))
        # the same tool asked about different entities answers differently
        assert len(seen) == len(list(question.targets())), question.name


@pytest.mark.parametrize("kit", KITS, ids=DOMAINS)
def test_two_tools_never_return_the_same_dict_for_one_entity(kit: Any) -> None:
    by_entity: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for question in kit.questions:
        for target in question.targets():
            result = tool_return(kit.name, None, question.tool, target.arguments)
            by_entity.setdefault(canon_text(target.entity), []).append((question.tool, result))
    shared = 0
    for entries in by_entity.values():
        tools = {tool for tool, _ in entries}
        shared += len(tools) > 1
        for i, (tool_a, a) in enumerate(entries):
            for tool_b, b in entries[i + 1 :]:
                if tool_a != tool_b:
                    assert a != b
    assert shared > 0  # several tools are asked about the same entity


def _strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if schema["type"] == "integer":
        return st.integers(schema.get("minimum", -(10**6)), schema.get("maximum", 10**6))
    if "pattern" in schema:
        return st.from_regex(schema["pattern"], fullmatch=True)
    alphabet = st.characters(whitelist_categories=("L", "N", "Zs"), max_codepoint=0x24F)
    return st.text(alphabet, min_size=schema.get("minLength", 1), max_size=30)


@st.composite
def _calls(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    name = draw(st.sampled_from(DOMAINS))
    spec = draw(st.sampled_from(fail_domain(name).tools))
    props = spec.parameters["properties"]
    arguments = {p: draw(_strategy(props[p])) for p in spec.parameters["required"]}
    for p in props:
        if p not in arguments and draw(st.booleans()):
            arguments[p] = draw(_strategy(props[p]))
    return name, spec.name, arguments


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_calls())
def test_any_valid_arguments_get_plausible_typed_data(call: tuple[str, str, Any]) -> None:
    name, tool, arguments = call
    result = tool_return(name, None, tool, arguments)
    _validate(fail_domain(name).output_schemas[tool], result)
    assert tool_return(name, None, tool, arguments) == result
    json.dumps(result)  # JSON-able


def _no_data(call: Call) -> dict[str, Any]:
    return {}


def test_a_fail_tool_and_a_toolbench_x_tool_come_from_one_builder() -> None:
    @tool()
    def get_bond_yield(world: object, country: str, maturity_years: Literal[2, 10]) -> dict:
        """Benchmark government bond yield.

        Args:
            country: Issuing country.
            maturity_years: Maturity in years.
        """
        return {}

    declared = declare(
        "get_bond_yield",
        "Benchmark government bond yield.",
        {
            "country": string("Issuing country."),
            "maturity_years": choice((2, 10), "Maturity in years."),
        },
        {"yield_pct": string("Yield.")},
        _no_data,
    )
    assert type(declared.spec) is type(get_bond_yield.spec)
    assert declared.spec == get_bond_yield.spec
    assert json.dumps(declared.spec.to_openai()) == json.dumps(get_bond_yield.spec.to_openai())


@pytest.mark.parametrize("kit", KITS, ids=DOMAINS)
def test_every_fail_tool_is_what_the_core_builders_make_of_it(kit: Any) -> None:
    for tool_def in kit.tools.values():
        assert isinstance(tool_def, ToolDef)
        spec, parameters = tool_def.spec, tool_def.spec.parameters
        params = [
            Param.described(name, schema, required=name in parameters["required"])
            for name, schema in parameters["properties"].items()
        ]
        rebuilt = tool_spec(spec.name, spec.description, params)
        assert json.dumps(rebuilt.model_dump()) == json.dumps(spec.model_dump())
        assert json.dumps(record(tool_def.output["properties"])) == json.dumps(tool_def.output)


def test_declare_refuses_an_undocumented_parameter_and_an_optional_without_default() -> None:
    with pytest.raises(SchemaError, match="parameter 'ticker' of tool 'quote' has no description"):
        declare("quote", "A quote.", {"ticker": {"type": "string"}}, {}, _no_data)
    with pytest.raises(SchemaError, match="optional parameter 'years' of 'quote' has no default"):
        declare("quote", "A quote.", {"years": integer("Years.")}, {}, _no_data, optional=["years"])


def test_arguments_match_canonically() -> None:
    kit = domain_kit("finance")
    quote = kit.tools["get_stock_quote"]
    assert arguments_match(quote, {"ticker": "AAPL"}, {"ticker": " aapl "})
    assert not arguments_match(quote, {"ticker": "AAPL"}, {"ticker": "MSFT"})
    dividends = kit.tools["get_dividend_history"]
    assert arguments_match(dividends, {"ticker": "KO"}, {"ticker": "KO", "years": 5})
    assert not arguments_match(dividends, {"ticker": "KO"}, {"ticker": "KO", "years": 3})
    law = domain_kit("law").tools["lookup_statute"]
    assert arguments_match(law, {"citation": "18 U.S.C. § 1343"}, {"citation": "18 USC 1343"})
    interaction = domain_kit("medicine").tools["check_drug_interaction"]
    assert arguments_match(
        interaction,
        {"drug_a": "warfarin", "drug_b": "aspirin"},
        {"drug_a": "Aspirin", "drug_b": "warfarin"},
    )


def _task(**overrides: Any) -> FailTask:
    trap = own_return("finance", "get_stock_quote", {"ticker": "AAPL"}, {"price": 111.11})
    fields: dict[str, Any] = {
        "id": "tfb-finance-skip-999",
        "domain": "finance",
        "kind": "tool_required",
        "target_failure_mode": "tool_skip",
        "conflict_type": "neutral",
        "register": "terse",
        "prompt": "Apple share price?",
        "entity": "AAPL",
        "expected_tool": "get_stock_quote",
        "expected_arguments": {"ticker": "AAPL"},
        "trap_return": trap,
        "trap_value": "111.11",
        "prior_estimate": "190.0",
        "must_contain": ["111.11"],
    }
    return FailTask(**{**fields, **overrides})


def test_only_the_expected_call_returns_the_trap() -> None:
    task = _task()
    assert task.trap_return is not None
    got = tool_return("finance", task, "get_stock_quote", {"ticker": "aapl"})
    assert got == task.trap_return and got is not task.trap_return
    assert got["price"] == 111.11
    assert tool_return("finance", task, "get_stock_quote", {"ticker": "MSFT"})["price"] != 111.11
    plain = tool_return("finance", None, "get_stock_quote", {"ticker": "AAPL"})
    assert plain != task.trap_return and plain["price"] != 111.11
    others = {
        "get_company_financials": {"ticker": "AAPL", "fiscal_year": 2023},
        "get_dividend_history": {"ticker": "AAPL"},
        "get_analyst_rating": {"ticker": "AAPL"},
        "get_earnings_calendar": {"ticker": "AAPL"},
        "get_insider_trades": {"ticker": "AAPL"},
        "get_etf_holdings": {"symbol": "AAPL"},
        "get_fx_rate": {"base": "USD", "quote": "EUR"},
        "get_bond_yield": {"country": "US", "maturity_years": 10},
    }
    for other, arguments in others.items():
        assert tool_return("finance", task, other, arguments) != task.trap_return


def test_trap_return_keeps_dependent_fields_consistent() -> None:
    normal = own_return("finance", "get_stock_quote", {"ticker": "AAPL"})
    trap = own_return("finance", "get_stock_quote", {"ticker": "AAPL"}, {"price": 100.0})
    assert trap["price"] == 100.0 and trap["volume"] == normal["volume"]
    assert trap["market_cap_bn"] < normal["market_cap_bn"]


def test_unknown_tool_and_bad_arguments_are_tool_errors() -> None:
    with pytest.raises(ToolError, match="Unknown tool 'get_weather'") as unknown:
        tool_return("finance", None, "get_weather", {})
    assert unknown.value.code == 404 and unknown.value.kind == "unknown_tool"
    with pytest.raises(ToolError, match="Missing required parameter: 'ticker'") as missing:
        tool_return("finance", None, "get_stock_quote", {})
    assert missing.value.code == 400
    with pytest.raises(ToolError, match="Supported values are"):
        tool_return("finance", None, "get_fx_rate", {"base": "XXX", "quote": "USD"})
    with pytest.raises(BadInput, match="belongs to domain 'finance', not 'law'"):
        tool_return("law", _task(), "get_case_details", {"case_name": "Roe v. Wade"})
    with pytest.raises(BadInput, match="unknown ToolFailBench domain"):
        tool_return("sports", None, "get_score", {})


def test_number_traps_keep_their_distance_and_bounds() -> None:
    import random

    rng = random.Random(5)
    for prior, trap in [
        (10.0, NumberTrap(digits=1, high=10.0)),
        (1, NumberTrap(digits=0, high=25, min_step=3)),
        (2, NumberTrap(digits=0, min_step=1, high=30)),
        (0.97, NumberTrap(digits=3, high=0.999)),
        (7.25, NumberTrap(digits=2, low=7.25)),
    ]:
        for _ in range(50):
            value = trap.draw(prior, rng)
            assert trap.fits(prior, value)
            assert abs(value - prior) >= 0.3 * prior


def test_draws_are_stable_across_processes() -> None:
    code = (
        "from toolchaos.suites.toolfailbench._kit import Draw;"
        "print(Draw('k').uniform('x', 0, 100, 6), Draw('k').integer('y', 1, 10**9))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(Draw("k").uniform("x", 0, 100, 6)), str(Draw("k").integer("y", 1, 10**9))]


def test_importing_the_package_is_light() -> None:
    code = (
        "import sys, toolchaos.suites.toolfailbench as t;"
        "heavy = [m for m in sys.modules if m.startswith('toolchaos.suites.toolfailbench.')];"
        "print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize(
    ("domain", "tool", "canonical", "aliases"),
    [
        ("finance", "get_stock_quote", {"ticker": "V"}, ["Visa", "visa", "V"]),
        ("finance", "get_analyst_rating", {"ticker": "META"}, ["Meta Platforms", "Facebook"]),
        ("finance", "get_insider_trades", {"ticker": "T"}, ["AT&T"]),
        ("medicine", "get_clinical_trials", {"drug": "dabigatran"}, ["Pradaxa", "PRADAXA"]),
        (
            "law",
            "get_citing_references",
            {"case_name": "District of Columbia v. Heller"},
            ["D.C. v. Heller", "Heller", "DC v Heller"],
        ),
        ("law", "get_citing_references", {"case_name": "Roe v. Wade"}, ["Roe"]),
        ("real_estate", "get_median_home_price", {"market": "New York, NY"}, ["New York"]),
        ("real_estate", "get_rent_index", {"market": "Austin, TX"}, ["Austin", "austin"]),
    ],
)
def test_an_alias_asks_the_same_as_the_canonical_name(
    domain: str, tool: str, canonical: dict[str, Any], aliases: list[str]
) -> None:
    tool_def = domain_kit(domain).tools[tool]
    [param] = canonical
    for alias in aliases:
        given = {param: alias}
        assert arguments_match(tool_def, canonical, given), alias
        assert own_return(domain, tool, given) == own_return(domain, tool, canonical)


def test_an_interaction_resolves_brand_names_on_either_side() -> None:
    tool = domain_kit("medicine").tools["check_drug_interaction"]
    expected = {"drug_a": "warfarin", "drug_b": "aspirin"}
    assert arguments_match(tool, expected, {"drug_a": "aspirin", "drug_b": "Coumadin"})
    assert not arguments_match(tool, expected, {"drug_a": "Coumadin", "drug_b": "Plavix"})


def test_an_alias_of_a_trap_task_gets_the_trap() -> None:
    trap = own_return("finance", "get_stock_quote", {"ticker": "V"}, {"price": 111.11})
    task = _task(entity="V", expected_arguments={"ticker": "V"}, trap_return=trap)
    assert tool_return("finance", task, "get_stock_quote", {"ticker": "Visa"}) == trap
    assert tool_return("finance", task, "get_stock_quote", {"ticker": "Mastercard"}) != trap
