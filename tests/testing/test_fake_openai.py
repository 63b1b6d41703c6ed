"""The fake OpenAI server, exercised through the real ``openai`` SDK and plain urllib."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import openai
import pytest

from toolchaos.testing import (
    FAULT_KINDS,
    FakeOpenAI,
    FaultPlan,
    Reply,
    echo_tool_then_answer,
    estimate_tokens,
    scripted,
)
from toolchaos.testing.fake_openai import CREATED

USER = [{"role": "user", "content": "What is the weather in Paris?"}]
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


def client(server: FakeOpenAI, *, api_key: str = "sk-test", **kwargs: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key=api_key, max_retries=0, **kwargs)


def ask(server: FakeOpenAI, **kwargs: Any) -> Any:
    return client(server).chat.completions.create(model="m1", messages=USER, **kwargs)


def urlopen(request: urllib.request.Request, timeout: float) -> Any:
    """Opens a request to the fake, whose URLs are always http://127.0.0.1."""
    return urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 (loopback http only)


def post(
    server: FakeOpenAI,
    body: dict[str, Any] | None = None,
    *,
    api_key: str | None = None,
    timeout: float = 5.0,
) -> tuple[int, dict[str, str], bytes]:
    """POSTs a chat request with urllib; returns status, headers and the raw body."""
    data = json.dumps(body if body is not None else {"model": "m1", "messages": USER}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/v1/chat/completions",
        data=data,
        headers={"Content-Type": "application/json"},
    )
    if api_key is not None:
        request.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urlopen(request, timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def models_request(server: FakeOpenAI) -> urllib.request.Request:
    return urllib.request.Request(f"http://127.0.0.1:{server.port}/v1/models")


def fault(kind: str) -> FakeOpenAI:
    return FakeOpenAI(scripted([Reply(content="hello", fault=kind)]), models=["m1"])  # type: ignore[arg-type]


# -- normal replies ------------------------------------------------------------------------


def test_text_reply_parses_in_the_sdk_with_usage() -> None:
    with FakeOpenAI(scripted([Reply(content="Sunny, 21 C.")]), models=["m1"]) as server:
        completion = ask(server, temperature=0.0, max_tokens=50, seed=7)
        assert server.count == 1
        sent = server.requests[0]

    assert completion.id == "chatcmpl-0"
    assert completion.created == CREATED
    assert completion.model == "m1"
    choice = completion.choices[0]
    assert choice.message.content == "Sunny, 21 C."
    assert choice.message.tool_calls is None
    assert choice.finish_reason == "stop"
    assert completion.usage is not None
    assert completion.usage.prompt_tokens == estimate_tokens(USER[0]["content"])
    assert completion.usage.completion_tokens == estimate_tokens("Sunny, 21 C.")
    assert completion.usage.total_tokens == (
        completion.usage.prompt_tokens + completion.usage.completion_tokens
    )
    assert sent["messages"] == USER
    assert (sent["temperature"], sent["max_tokens"], sent["seed"]) == (0.0, 50, 7)


def test_tool_call_reply_parses_in_the_sdk() -> None:
    responder = scripted([Reply.call("get_weather", {"city": "Paris"})])
    with FakeOpenAI(responder, models=["m1"]) as server:
        completion = ask(server, tools=[WEATHER_TOOL], tool_choice="auto")
        assert server.requests[0]["tools"] == [WEATHER_TOOL]

    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    call = choice.message.tool_calls[0]
    assert call.id == "call_0_0"
    assert call.type == "function"
    assert call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}


def test_reasoning_is_sent_as_reasoning_content() -> None:
    with FakeOpenAI(scripted([Reply(content="4", reasoning="2+2")]), models=["m1"]) as server:
        message = ask(server).choices[0].message
    assert message.model_extra == {"reasoning_content": "2+2"}


def test_scripted_replies_follow_request_order_and_the_last_repeats() -> None:
    respond = scripted([Reply(content="one"), Reply(content="two")])
    assert [respond({}, i).content for i in range(4)] == ["one", "two", "two", "two"]
    with pytest.raises(ValueError, match="at least one"):
        scripted([])


def test_echo_tool_then_answer_runs_a_two_turn_conversation() -> None:
    with FakeOpenAI(echo_tool_then_answer(arguments={"city": "Paris"})) as server:
        sdk = client(server)
        first = sdk.chat.completions.create(model="any", messages=USER, tools=[WEATHER_TOOL])
        call = first.choices[0].message.tool_calls[0]
        assert call.function.name == "get_weather"  # taken from the offered tools
        history = [
            *USER,
            first.choices[0].message.model_dump(exclude_none=True),
            {"role": "tool", "tool_call_id": call.id, "content": "Rain, 12 C."},
        ]
        second = sdk.chat.completions.create(model="any", messages=history, tools=[WEATHER_TOOL])
    assert second.choices[0].message.content == "Rain, 12 C."
    assert second.choices[0].finish_reason == "stop"


def test_models_endpoint_lists_the_configured_models() -> None:
    with FakeOpenAI(scripted([Reply(content="x")]), models=["m1", "m2"]) as server:
        assert [model.id for model in client(server).models.list()] == ["m1", "m2"]
        with urlopen(models_request(server), 5.0) as response:
            listing = json.load(response)
    assert listing == {
        "object": "list",
        "data": [
            {"id": "m1", "object": "model", "created": CREATED, "owned_by": "fake"},
            {"id": "m2", "object": "model", "created": CREATED, "owned_by": "fake"},
        ],
    }


# -- rejected requests ---------------------------------------------------------------------


def test_wrong_api_key_is_401_authentication_error() -> None:
    with FakeOpenAI(scripted([Reply(content="x")]), models=["m1"], api_key="sk-good") as server:
        with pytest.raises(openai.AuthenticationError) as caught:
            client(server, api_key="sk-bad").chat.completions.create(model="m1", messages=USER)
        status, _, body = post(server)  # no Authorization header at all
        assert client(server, api_key="sk-good").models.list().data[0].id == "m1"
        ok = client(server, api_key="sk-good").chat.completions.create(model="m1", messages=USER)
    assert caught.value.status_code == 401
    assert caught.value.code == "invalid_api_key"
    assert status == 401
    assert json.loads(body)["error"]["code"] == "invalid_api_key"
    assert ok.choices[0].message.content == "x"


def test_unknown_model_is_404_not_found_error() -> None:
    server = FakeOpenAI(scripted([Reply(content="x")]), models=["m1"])
    with server, pytest.raises(openai.NotFoundError) as caught:
        client(server).chat.completions.create(model="gpt-nope", messages=USER)
    assert caught.value.body == {
        "message": "The model 'gpt-nope' does not exist",
        "type": "invalid_request_error",
        "param": None,
        "code": "model_not_found",
    }


# -- faults --------------------------------------------------------------------------------


def test_429_carries_retry_after_and_the_other_429_does_not() -> None:
    with fault("429") as server:
        with pytest.raises(openai.RateLimitError) as caught:
            ask(server)
        status, headers, body = post(server)
    assert caught.value.response.headers["retry-after"] == "1"
    assert status == 429
    assert headers["Retry-After"] == "1"
    assert json.loads(body)["error"]["code"] == "rate_limit_exceeded"

    with fault("429-no-retry-after") as server, pytest.raises(openai.RateLimitError) as caught:
        ask(server)
    assert "retry-after" not in caught.value.response.headers


@pytest.mark.parametrize("kind", ["500", "503"])
def test_server_errors_are_internal_server_error(kind: str) -> None:
    with fault(kind) as server, pytest.raises(openai.InternalServerError) as caught:
        ask(server)
    assert caught.value.status_code == int(kind)


def test_sdk_retries_after_a_429_and_then_succeeds() -> None:
    responder = scripted([Reply(fault="429-no-retry-after"), Reply(content="fine")])
    with FakeOpenAI(responder, models=["m1"]) as server:
        sdk = client(server).with_options(max_retries=1)
        completion = sdk.chat.completions.create(model="m1", messages=USER)
        assert server.count == 2
    assert completion.choices[0].message.content == "fine"


@pytest.mark.parametrize("kind", ["malformed", "truncated"])
def test_unparseable_bodies_make_the_sdk_raise_json_decode_error(kind: str) -> None:
    # The SDK does not wrap this in an OpenAIError: a bare json.JSONDecodeError escapes.
    with fault(kind) as server:
        with pytest.raises(json.JSONDecodeError):
            ask(server)
        status, headers, body = post(server)
    assert status == 200
    assert int(headers["Content-Length"]) == len(body)
    with pytest.raises(json.JSONDecodeError):
        json.loads(body)
    if kind == "truncated":
        assert body.startswith(b'{"id": "chatcmpl-1", "object": "chat.completion"')


def test_empty_choices_gives_an_empty_list() -> None:
    with fault("empty-choices") as server:
        completion = ask(server)
    assert completion.choices == []
    assert completion.usage is not None
    assert completion.usage.completion_tokens == 0


def test_bad_tool_args_is_a_well_formed_reply_with_invalid_arguments() -> None:
    responder = scripted(
        [
            Reply(tool_calls=[("get_weather", '{"city": "Paris"}')], fault="bad-tool-args"),
            Reply(content="no call planned", fault="bad-tool-args"),
        ]
    )
    with FakeOpenAI(responder, models=["m1"]) as server:
        broken = ask(server, tools=[WEATHER_TOOL]).choices[0].message.tool_calls[0]
        invented = ask(server, tools=[WEATHER_TOOL]).choices[0].message.tool_calls[0]
    assert broken.function.name == "get_weather"
    assert broken.function.arguments == '{"city": "Paris"'
    assert invented.function.name == "get_weather"
    for call in (broken, invented):
        with pytest.raises(json.JSONDecodeError):
            json.loads(call.function.arguments)


def test_reset_is_api_connection_error() -> None:
    with fault("reset") as server:
        with pytest.raises(openai.APIConnectionError) as caught:
            ask(server)
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            post(server)
        assert server.errors == []
    assert not isinstance(caught.value, openai.APITimeoutError)


def test_timeout_fault_is_api_timeout_error_and_stop_is_prompt() -> None:
    server = FakeOpenAI(
        scripted([Reply(content="late", fault="timeout")]), models=["m1"], timeout_s=30.0
    )
    with server:
        started = time.monotonic()
        with pytest.raises(openai.APITimeoutError):
            client(server, timeout=0.3).chat.completions.create(model="m1", messages=USER)
        assert time.monotonic() - started < 2.0
    assert time.monotonic() - started < 3.0  # stop() woke the sleeping handler


def test_timeout_fault_answers_after_the_configured_wait() -> None:
    with FakeOpenAI(
        scripted([Reply(content="late", fault="timeout")]), models=["m1"], timeout_s=0.3
    ) as server:
        started = time.monotonic()
        completion = ask(server)
    assert time.monotonic() - started >= 0.3
    assert completion.choices[0].message.content == "late"


def test_fault_plan_injects_about_the_rate_and_is_reproducible() -> None:
    plan = FaultPlan(rate=0.25, seed=13, kinds=["500", "429-no-retry-after", "empty-choices"])

    def run() -> tuple[list[Any], list[int]]:
        with FakeOpenAI(scripted([Reply(content="ok")]), models=["m1"], faults=plan) as server:
            statuses = [post(server)[0] for _ in range(200)]
            return server.injected_faults, statuses

    faults, statuses = run()
    injected = sum(kind is not None for kind in faults)
    assert 30 <= injected <= 70  # 50 expected; binomial sd ~6
    assert set(faults) == {None, "500", "429-no-retry-after", "empty-choices"}
    expected_status = {None: 200, "empty-choices": 200, "500": 500, "429-no-retry-after": 429}
    assert statuses == [expected_status[kind] for kind in faults]
    assert faults == plan.sequence(200)
    assert run() == (faults, statuses)
    other = FaultPlan(rate=0.25, seed=14, kinds=plan.kinds).sequence(200)
    assert other != faults


def test_a_reply_fault_takes_precedence_over_the_plan() -> None:
    plan = FaultPlan(rate=1.0, seed=0, kinds=["500"])
    responder = scripted([Reply(content="x", fault="503")])
    with FakeOpenAI(responder, models=["m1"], faults=plan) as server:
        assert post(server)[0] == 503
        assert server.injected_faults == ["503"]


def test_invalid_configuration_is_rejected() -> None:
    with pytest.raises(ValueError, match="rate"):
        FaultPlan(rate=1.5, seed=0, kinds=["500"])
    with pytest.raises(ValueError, match="at least one"):
        FaultPlan(rate=0.1, seed=0, kinds=[])
    with pytest.raises(ValueError, match="unknown"):
        FaultPlan(rate=0.1, seed=0, kinds=["418"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="unknown"):
        Reply(fault="teapot")  # type: ignore[arg-type]
    assert len(FAULT_KINDS) == 10


# -- concurrency and robustness ------------------------------------------------------------


def test_concurrent_requests_with_delay_are_not_serialized() -> None:
    with FakeOpenAI(scripted([Reply(content="ok")]), models=["m1"], delay_s=0.2) as server:
        sdk = client(server)

        def one(_: int) -> tuple[str, str | None]:
            completion = sdk.chat.completions.create(model="m1", messages=USER)
            return completion.id, completion.choices[0].message.content

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=64) as pool:
            answers = list(pool.map(one, range(64)))
        elapsed = time.monotonic() - started
        assert server.count == 64
    assert {completion_id for completion_id, _ in answers} == {f"chatcmpl-{i}" for i in range(64)}
    assert [content for _, content in answers] == ["ok"] * 64
    assert elapsed < 2.0, f"64 requests took {elapsed:.2f}s; serialized would be 12.8s"


def test_client_vanishing_mid_response_does_not_hurt_the_server(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with FakeOpenAI(scripted([Reply(content="x" * 200_000)]), models=["m1"]) as server:
        body = json.dumps({"model": "m1", "messages": USER}).encode()
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", server.port)) as raw:
                raw.sendall(
                    b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                    b"Content-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                raw.recv(100)  # take the start of the response, then hang up
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            raw.sendall(b"POST /v1/chat/comp")  # hang up in the middle of a request
        status, _, reply = post(server)
        assert status == 200
        assert json.loads(reply)["choices"][0]["message"]["content"] == "x" * 200_000
        time.sleep(0.1)
        assert server.errors == []
    captured = capfd.readouterr()
    assert captured.err == ""
    assert captured.out == ""


def test_a_raising_responder_is_a_500_and_is_recorded() -> None:
    def broken(request_body: dict[str, Any], request_index: int) -> Reply:
        raise KeyError("oops")

    with FakeOpenAI(broken, models=["m1"]) as server:
        status, _, body = post(server)
        assert status == 500
        assert "KeyError" in json.loads(body)["error"]["message"]
        assert server.errors == ["responder raised KeyError: 'oops'"]


def test_streaming_and_bad_bodies_are_400() -> None:
    with FakeOpenAI(scripted([Reply(content="x")])) as server:
        assert post(server, {"model": "m", "messages": USER, "stream": True})[0] == 400
        assert post(server, {"messages": USER})[0] == 400
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}/v1/chat/completions", data=b"{nope", method="POST"
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            urlopen(request, 5.0)
        assert caught.value.code == 400
        assert server.count == 2  # the unparseable body is not recorded


def test_start_and_stop_lifecycle() -> None:
    server = FakeOpenAI(scripted([Reply(content="x")]))
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.base_url
    server.start()
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    server.stop()
    server.stop()  # idempotent
    with pytest.raises(RuntimeError, match="only once"):
        server.start()


def test_cli_serves_a_short_text_from_another_process() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolchaos.testing.fake_openai", "--port", "0", "--delay", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        sdk = openai.OpenAI(base_url=base_url, api_key="x", max_retries=0)
        completion = sdk.chat.completions.create(model="anything", messages=USER)
        assert completion.choices[0].message.content == "OK."
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    assert process.returncode == 0
    assert err == ""


def test_counts_every_kind_once_across_a_fault_script() -> None:
    responder = scripted([Reply(content="x", fault=kind) for kind in FAULT_KINDS])
    with FakeOpenAI(responder, models=["m1"], timeout_s=0.05) as server:
        for _ in FAULT_KINDS:
            with contextlib.suppress(urllib.error.URLError, ConnectionError):
                post(server, timeout=2.0)
        assert Counter(server.injected_faults) == Counter(FAULT_KINDS)
        assert server.errors == []
