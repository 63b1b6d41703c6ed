"""The proposers' shared dedupe (hazards/propose.py): the first item of each place, in order."""

from __future__ import annotations

from toolchaos.hazards.propose import once_each


def test_the_first_item_of_each_key_is_kept_in_order() -> None:
    items = [("get_weather", "temp"), ("list", "n"), ("get_weather", "temp"), ("list", "m")]
    assert list(once_each(items)) == [("get_weather", "temp"), ("list", "n"), ("list", "m")]


def test_a_key_function_names_the_place() -> None:
    paths = [[0, "results", 1], [1, "results", 2], [0, "results", 3]]
    tool_of = {0: "search", 1: "search_v2"}
    assert list(once_each(paths, key=lambda p: tool_of[p[0]])) == [
        [0, "results", 1],
        [1, "results", 2],
    ]


def test_what_is_filtered_out_first_does_not_claim_its_place() -> None:
    """A filter before the dedupe lets a later item of the same place through; after, not."""
    items = [("t", "x", None), ("t", "x", 3.0)]
    before = list(once_each((i for i in items if i[2] is not None), key=lambda i: i[:2]))
    after = [i for i in once_each(items, key=lambda i: i[:2]) if i[2] is not None]
    assert before == [("t", "x", 3.0)]
    assert after == []


def test_it_is_lazy() -> None:
    seen = once_each(iter(range(10**9)), key=lambda n: n % 3)
    assert [next(seen), next(seen), next(seen)] == [0, 1, 2]
