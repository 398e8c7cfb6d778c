"""The publisher of a paper's measurement, from held-out-46 on (stop 65, issue 17, the lead's decision): a paper is
published by its authors, not by its host, so a measured table in an arXiv paper counts as that paper
(``measurement_publisher_by_paper``: "arxiv:<id>", its version stripped), and a paper is new only if no estimator
source cites it by any of its URLs (``papers_cited``) and none of its authors' GitHub owners nor its code repository's
owner is a publisher the estimator sources cite (``author_cited``). Splits up to held-out-45 keep est36b's rule:
``measurement_publisher`` still reads a paper page as its host. Nothing here runs the estimator."""

from __future__ import annotations

import pytest
from public_split_helpers import (
    author_cited,
    estimator_sources_cited,
    measurement_publisher,
    measurement_publisher_by_paper,
    paper_id,
    papers_cited,
)


@pytest.mark.parametrize("url, expected", [
    ("https://arxiv.org/abs/2406.02290", "arxiv:2406.02290"),
    ("https://arxiv.org/abs/2406.02290v2", "arxiv:2406.02290"),
    ("https://arxiv.org/html/2406.02290v1#S4.T2", "arxiv:2406.02290"),
    ("https://arxiv.org/pdf/2406.02290v1.pdf", "arxiv:2406.02290"),
    ("http://www.arxiv.org/pdf/2406.02290", "arxiv:2406.02290"),
    ("https://arxiv.org/abs/cs/0112017v1", "arxiv:cs/0112017"),
    ("https://openreview.net/forum?id=nZeVKeeFYf9", "openreview:nZeVKeeFYf9"),
    ("https://openreview.net/pdf?id=nZeVKeeFYf9", "openreview:nZeVKeeFYf9"),
    ("https://aclanthology.org/2023.acl-long.1/", "acl:2023.acl-long.1"),
    ("https://aclanthology.org/2023.acl-long.1.pdf", "acl:2023.acl-long.1"),
    ("https://proceedings.mlr.press/v202/liu23x.html", "pmlr:v202/liu23x"),
    ("https://proceedings.mlr.press/v202/liu23x/liu23x.pdf", "pmlr:v202/liu23x"),
    ("https://proceedings.neurips.cc/paper_files/paper/2023/hash/1feb87871436031bdc0f2beaa62a049b-Abstract-Conference"
     ".html", "neurips:1feb87871436031bdc0f2beaa62a049b"),
    ("https://proceedings.neurips.cc/paper_files/paper/2023/file/1feb87871436031bdc0f2beaa62a049b-Paper-Conference.pdf",
     "neurips:1feb87871436031bdc0f2beaa62a049b"),
    ("https://openaccess.thecvf.com/content/CVPR2023/html/Li_Some_Title_CVPR_2023_paper.html",
     "cvf:Li_Some_Title_CVPR_2023_paper"),
    ("https://openaccess.thecvf.com/content/CVPR2023/papers/Li_Some_Title_CVPR_2023_paper.pdf",
     "cvf:Li_Some_Title_CVPR_2023_paper"),
    ("https://github.com/huggingface/peft/issues/76", None),
    ("https://huggingface.co/docs/transformers/perf_train_gpu_one", None),
])
def test_paper_id_names_the_paper_whatever_url_form(url, expected):
    assert paper_id(url) == expected


def test_every_url_of_one_arxiv_paper_is_one_paper():
    forms = ["https://arxiv.org/abs/2406.02290", "https://arxiv.org/abs/2406.02290v1",
             "https://arxiv.org/html/2406.02290v2", "https://arxiv.org/pdf/2406.02290v2"]
    assert {paper_id(u) for u in forms} == {"arxiv:2406.02290"}


def test_a_paper_is_its_own_publisher_from_held_out_46_on():
    # held-out-46 on: two papers on arXiv are two publishers, neither of them arxiv.org
    a = measurement_publisher_by_paper("https://arxiv.org/html/2406.02290v2", "")
    b = measurement_publisher_by_paper("https://arxiv.org/abs/2403.17919", "")
    assert a == "arxiv:2406.02290" and b == "arxiv:2403.17919" and a != b
    # anything else reads as est36b's rule reads it
    assert measurement_publisher_by_paper("https://github.com/huggingface/peft/issues/76", "karthikmurugadoss") == \
        "karthikmurugadoss"
    assert measurement_publisher_by_paper("https://github.com/Shawlleyw/instructGPT2-colossal/blob/4ea6afd/README.md",
                                          "Shawlleyw") == "shawlleyw"


def test_earlier_splits_keep_est36b_rule():
    # measurement_publisher (what held-out-36 .. 45 test with) still counts a paper page as its host
    assert measurement_publisher("https://arxiv.org/abs/2406.02290v2", "") == "arxiv.org"
    assert measurement_publisher("https://openreview.net/forum?id=nZeVKeeFYf9", "") == "openreview.net"


def test_papers_the_estimator_sources_cite_are_found_by_any_url_form():
    cited = papers_cited(46)
    # held-out-10's builder cites arXiv 2111.11124 (every form of that paper's URL is the same paper)
    assert "arxiv:2111.11124" in cited
    assert paper_id("https://arxiv.org/pdf/2111.11124v3") in cited
    # a paper no estimator source cites is not in the set
    assert "arxiv:2406.02290" not in cited


def test_independence_is_also_checked_against_the_authors_code_owners():
    # (b): a paper whose official code repository's owner (or an author's GitHub account) is a publisher the
    # estimator sources cite is not new, however new its arXiv identifier is
    _, publishers, text = estimator_sources_cited(46)
    assert author_cited("huggingface", publishers, text)
    assert author_cited("princeton-nlp", publishers, text)
    assert author_cited("jiaweizzhao", publishers, text)
    assert not author_cited("no-such-owner-zz9-plural-z-alpha", publishers, text)
