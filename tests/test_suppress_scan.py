"""Whether a file may hold one of preflight's own suppressions (the files whose comments are
tokenized for PF901/PF902) is decided without the slow case-blind pattern when it can be, with
the same answer: spelt in any case, with non-ASCII text, with the letters that fold to 'i'."""

from __future__ import annotations

import json

from conftest import LEAKY, write
from hypothesis import given, settings
from hypothesis import strategies as st

from preflight.sources import _OWN_DIRECTIVE, ParsedPython

PIECES = ["noqa", "NoQa", "NOQA", "preflight", "PreFlight", "PREFL\u0130GHT", "prefl\u0131ght",
          ":", " ", "\u00a0", "\n", "#", "PF", "pf", "Pf", "E501", "\u212a", "\u00e9", "x", "\t"]


def may_suppress(text: str) -> bool:
    parsed = object.__new__(ParsedPython)
    parsed.text = text
    return parsed.may_suppress()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_same_answer_as_the_case_blind_pattern(pieces):
    text = "".join(pieces)
    assert may_suppress(text) == ("#" in text and _OWN_DIRECTIVE.search(text) is not None)


def test_examples_spelt_in_other_cases():
    assert may_suppress("x = 1  # NoQa : e501 pF101\n")
    assert may_suppress("# PREFLIGHT\t: skip-file\n")
    for folded in ("# prefl\u0131ght: ignore[PF101]\n", "# PREFL\u0130GHT: ignore[PF101]\n"):
        assert _OWN_DIRECTIVE.search(folded)  # the case-blind pattern reads both as 'preflight:'
        assert may_suppress(folded)
    assert not may_suppress("x = 1  # noqa: E501\ny = 'pf'\n")  # another tool's code
    assert not may_suppress("preflight: in a string, no comment sign anywhere\n")


def test_a_typo_in_an_upper_case_noqa_in_a_non_ascii_file_is_reported(cli, tmp_path):
    leak = "        losses.append(loss)"
    text = "# d\u00e9j\u00e0 vu\n" + LEAKY.replace(leak, leak + "  # NOQA: PF1O1")
    write(tmp_path / "train.py", text)
    r = cli("check", "train.py", "--format", "json")
    assert "PF901" in {f["code"] for f in json.loads(r.out)["findings"]}
