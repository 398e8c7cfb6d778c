"""The independence rule of the estimator's public splits from held-out-36 on (issue 17): a split's rows must use
pages no earlier split cites and measuring authors no estimator source names, where the estimator's sources are the
files under calibration/public and the estimator benches (bench/public_*.py), not bench/bugs or bench/realworld; the
publisher of a measurement is who measured and published it (a thread's or comment's author, a repository's owner,
a blog's host). The older rule (every owner or host cited anywhere under calibration/public and bench) stays for the
splits built under it."""

from __future__ import annotations

import json
from pathlib import Path

from public_split_helpers import (
    all_urls,
    author_cited,
    estimator_source_files,
    estimator_sources_cited,
    measurement_publisher,
    page,
    publishers_cited_under_calibration_and_bench,
)

REPO = Path(__file__).resolve().parent.parent
PUBLIC = REPO / "calibration" / "public"
EARLIER = ["devset.json", *(f"heldout{i}.json" for i in range(2, 36))]
PAGES, PUBLISHERS, TEXT = estimator_sources_cited(36)


def test_the_estimator_sources_are_calibration_public_and_the_estimator_benches():
    files = {p.relative_to(REPO).as_posix() for p in estimator_source_files(36)}
    assert {f"calibration/public/{name}" for name in EARLIER} <= files
    assert {"bench/public_accuracy.py", "bench/public_splits.py"} <= files
    assert not {f for f in files if f.startswith(("bench/bugs/", "bench/realworld/"))}
    # a split's own builder and files are not its own earlier sources
    assert not {f for f in estimator_source_files(35) if f.name.startswith(("heldout35", "build_heldout35"))}


def test_every_earlier_split_page_counts_as_cited():
    for name in EARLIER:
        doc = json.loads((PUBLIC / name).read_text(encoding="utf-8"))
        urls = [u for u in all_urls(doc) if u.startswith("http")]
        assert urls, name
        assert {page(u).rstrip(".") for u in urls} <= PAGES, name


def test_the_new_rule_is_narrower_than_the_old_one():
    old = publishers_cited_under_calibration_and_bench(36)
    assert old >= PUBLISHERS
    # owners cited only by the bug and jobs benchmarks (their reports and training scripts) are no longer excluded
    assert len(old - PUBLISHERS) > 100


def test_the_publisher_of_a_measurement_is_who_measured_it():
    assert measurement_publisher("https://github.com/huggingface/peft/issues/1514", "rohitgr7") == "rohitgr7"
    assert measurement_publisher("https://github.com/org/repo/pull/14#issuecomment-1", "SomeOne") == "someone"
    assert measurement_publisher("https://github.com/Org/repo/blob/abc/README.md", "x") == "org"
    assert measurement_publisher("https://www.example.com/post", "x") == "example.com"


def test_an_author_named_by_an_estimator_source_counts_as_cited():
    assert author_cited("BenjaminBossan", PUBLISHERS, TEXT)      # an owner earlier splits cite
    assert not author_cited("benjaminbossan2", PUBLISHERS, TEXT)  # a whole login, not one it begins
    assert not author_cited("enjaminbossan", PUBLISHERS, TEXT)   # nor one it ends
