import pytest

from toolchaos.core.errors import BadInput
from toolchaos.core.types import Usage
from toolchaos.models.kv_cache import THREADS_ENV, PromptStats, default_threads, shared_prefix
from toolchaos.models.openai_compat import completion_response


def test_shared_prefix_counts_leading_tokens_in_common() -> None:
    assert shared_prefix([1, 2, 3, 9], [1, 2, 3, 4, 5]) == 3
    assert shared_prefix([], [1, 2]) == 0
    assert shared_prefix([7, 2], [1, 2]) == 0


def test_shared_prefix_leaves_the_last_prompt_token_to_evaluate() -> None:
    # llama.cpp re-evaluates the last token to get logits, even on an identical prompt
    assert shared_prefix([1, 2, 3], [1, 2, 3]) == 2
    assert shared_prefix([1, 2, 3, 4], [1, 2]) == 1
    assert shared_prefix([5], []) == 0


def test_prompt_stats_evaluated_is_what_the_cache_did_not_hold() -> None:
    assert PromptStats(prompt_tokens=900, reused=700, prompt_eval_s=1.0).evaluated == 200


def test_threads_come_from_the_variable_else_the_cores() -> None:
    assert default_threads({THREADS_ENV: "1"}, cores=8) == 1
    assert default_threads({}, cores=2) == 2
    assert default_threads({THREADS_ENV: " "}, cores=3) == 3
    for bad in ("0", "-1", "two"):
        with pytest.raises(BadInput, match=THREADS_ENV):
            default_threads({THREADS_ENV: bad}, cores=2)


def test_usage_sums_cached_tokens_and_gives_the_episode_reuse_rate() -> None:
    total = Usage()
    total.add(Usage(input_tokens=1000, cached_input_tokens=0, calls=1))
    total.add(Usage(input_tokens=1200, cached_input_tokens=1000, calls=1))
    assert total.cached_input_tokens == 1000
    assert total.cache_reuse == pytest.approx(1000 / 2200)
    assert Usage().cache_reuse == 0.0


def test_cached_tokens_are_read_from_the_openai_usage_details() -> None:
    completion = {
        "choices": [{"message": {"role": "assistant", "content": "done"}}],
        "usage": {
            "prompt_tokens": 50,
            "completion_tokens": 3,
            "prompt_tokens_details": {"cached_tokens": 40},
        },
    }
    usage = completion_response(completion, 0.1, prompt_mode=False).usage
    assert (usage.input_tokens, usage.cached_input_tokens) == (50, 40)
    completion["usage"] = {"prompt_tokens": 50, "completion_tokens": 3}
    assert completion_response(completion, 0.1, prompt_mode=False).usage.cached_input_tokens == 0
