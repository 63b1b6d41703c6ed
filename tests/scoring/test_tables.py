"""The usage table's cache column: the share of prompt tokens a cache already held."""

import pandas as pd

from toolchaos.models.config import ModelEntry
from toolchaos.scoring.tables import usage_table


def test_the_usage_table_shows_the_share_of_prompt_tokens_from_the_cache() -> None:
    frame = pd.DataFrame(
        [
            # model, error, in, out, cached, latency, model calls
            ("local/q", 0, 1000, 50, 780, 2.0, 2),
            ("local/q", 0, 1000, 70, 620, 4.0, 4),
            ("scripted/oracle", 0, 0, 0, 0, 0.0, 0),
        ],
        columns=[
            "model",
            "error",
            "input_tokens",
            "output_tokens",
            "cached_input_tokens",
            "latency_s",
            "model_calls",
        ],
    )
    table = usage_table(frame, {"local/q": ModelEntry(spec="local/q")}).set_index("model")
    assert table.loc["local/q", "cached_input"] == 0.7  # 1,400 of 2,000 prompt tokens
    assert table.loc["local/q", "latency_per_call_s"] == 1.0
    assert table.loc["scripted/oracle", "cached_input"] == 0.0  # no prompt at all
