"""What the tests of the estimator's public held-out splits share: the page, publisher and every
URL of a split's sources (a split must use pages and publishers no earlier split used)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parent.parent
_URL = re.compile(r"https?://[^\s'\"\)\]<>,`]+")


#: est42split (issue 17): GitHub repositories renamed or moved, old ``owner/name`` -> current ``owner/name`` (lower
#: case), so that a page cited under an old name and the same page under the new one count as one page (held-out-41's
#: awgu rows cite meta-llama/llama-cookbook#41, which held-out-7 cites as meta-llama/llama-recipes#41). GitHub
#: redirects every old name below to the new one; each pair is stated by the repository itself:
#: llama-recipes -> llama-cookbook: meta-llama/llama-cookbook's README ("Llama Recipes" renamed, 2024-12) and the
#: est86 note in calibration/public/build_heldout41.py; facebookresearch/llama-recipes was its first home (the
#: llama-cookbook#41 description, 2023-07). lit-gpt -> litgpt: Lightning-AI/litgpt's README and release 0.2 (2024-03).
#: LLaMA-Efficient-Tuning -> LLaMA-Factory: hiyouga/LLaMA-Factory's README (renamed 2023-11).
#: OpenAccess-AI-Collective/axolotl -> axolotl-ai-cloud/axolotl: the organisation's move (2024-09), its README's links.
#: PyTorchLightning/pytorch-lightning -> Lightning-AI/pytorch-lightning (the organisation's rename, 2022-06, by way of
#: Lightning-AI/lightning). huggingface/pytorch-pretrained-BERT and huggingface/pytorch-transformers ->
#: huggingface/transformers (renamed 2019: the repository's own release notes).
REPO_RENAMES = {
    "facebookresearch/llama-recipes": "meta-llama/llama-cookbook",
    "meta-llama/llama-recipes": "meta-llama/llama-cookbook",
    "lightning-ai/lit-gpt": "lightning-ai/litgpt",
    "hiyouga/llama-efficient-tuning": "hiyouga/llama-factory",
    "openaccess-ai-collective/axolotl": "axolotl-ai-cloud/axolotl",
    "pytorchlightning/pytorch-lightning": "lightning-ai/pytorch-lightning",
    "lightning-ai/lightning": "lightning-ai/pytorch-lightning",
    "huggingface/pytorch-pretrained-bert": "huggingface/transformers",
    "huggingface/pytorch-transformers": "huggingface/transformers",
}


def canonical(url: str) -> str:
    """``url`` with a GitHub repository's owner and name in lower case (GitHub matches them without regard to case)
    and a renamed one (REPO_RENAMES) written under its current owner and name; any other URL unchanged."""
    parts = url.split("/")
    if len(parts) > 4 and parts[2].lower() in ("github.com", "www.github.com"):
        repo = f"{parts[3]}/{parts[4]}".lower()
        return "/".join(["https:", "", "github.com", *REPO_RENAMES.get(repo, repo).split("/"), *parts[5:]])
    return url


def page(url: str) -> str:
    """The page a URL names: without its fragment, a renamed repository written under its current name."""
    return canonical(url.split("#")[0].split(" ")[0])


def publisher(url: str) -> str:
    """owner (github.com and gist.github.com; a renamed repository's current owner), else the host without 'www.' /
    'docs.'."""
    parts = canonical(url.split(" ")[0]).split("/")
    if parts[2].endswith("github.com"):
        return parts[3].lower()
    host = parts[2].lower()
    for prefix in ("www.", "docs."):
        host = host[len(prefix):] if host.startswith(prefix) else host
    return host


def all_urls(doc: dict[str, Any]) -> Iterator[str]:
    for source in doc["sources"].values():
        yield source["url"]
        yield from (u.split(" ")[0] for u in source.get("also", []))


def publishers_cited_under_calibration_and_bench(split: int) -> set[str]:
    """Every GitHub owner / host cited by a URL in any file under calibration/public and bench, except
    held-out split ``split``'s own builder and files (``heldoutN.json``, ``build_heldoutN.py``,
    ``heldoutN_*``)."""
    own = f"heldout{split}"
    found = set()
    for root in (REPO / "calibration" / "public", REPO / "bench"):
        for path in root.rglob("*"):
            if not path.is_file() or path.name in (f"{own}.json", f"build_{own}.py") \
                    or path.name.startswith(f"{own}_") or path.suffix not in (".py", ".json", ".md", ".txt"):
                continue
            for url in _URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                parts = url.split("/")
                if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                    found.add(publisher(url))
    return found



# From held-out-36 on (issue 17, the lead engineer's decision): the publisher of a measurement is who measured and
# published it (a GitHub issue's or pull request's author, or the commenter who posted the figures; a repository's
# owner for a README or report; a blog's host), and a split must be independent of the ESTIMATOR's sources only:
# every file under calibration/public and the estimator benches bench/public_*.py. bench/bugs and bench/realworld
# cite public threads for the rule and jobs benchmarks (bug reports, training scripts), not memory measurements, so
# an owner they cite (huggingface/* issues, say) does not make a memory measurement in another thread dependent.


# Analyses OF the held-out splits, not sources the estimator was built from: est97's choose/check halves
# (calibration/public/est97_*) list every split's publishers by construction, so counting them as citations would
# make every split depend on itself.
_SPLIT_ANALYSES = ("est97_",)


def estimator_source_files(split: int) -> list[Path]:
    """calibration/public's files and bench/public_*.py, except held-out split ``split``'s own builder and files
    and the analyses of the splits themselves (``_SPLIT_ANALYSES``)."""
    own = f"heldout{split}"
    files = sorted(p for p in (REPO / "calibration" / "public").rglob("*") if p.is_file())
    files += sorted((REPO / "bench").glob("public_*.py"))
    return [p for p in files if p.suffix in (".py", ".json", ".md", ".txt")
            and p.name not in (f"{own}.json", f"build_{own}.py") and not p.name.startswith(f"{own}_")
            and not p.name.startswith(_SPLIT_ANALYSES)]


def estimator_sources_cited(split: int) -> tuple[set[str], set[str], str]:
    """What the estimator's sources cite, except split ``split``'s own files: the pages (every URL without its
    fragment), the publishers (the GitHub owner or host of each URL) and the whole text, lower-cased, in which a
    measuring author named by an earlier split (its notes, its ``measured_by``) can be looked up with
    ``author_cited``."""
    pages, publishers, texts = set(), set(), []
    for path in estimator_source_files(split):
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text.lower())
        for url in _URL.findall(text):
            parts = url.split("/")
            if len(parts) > 3 and (parts[2].endswith("github.com") or "." in parts[2]):
                pages.add(page(url).rstrip("."))
                publishers.add(publisher(url))
    return pages, publishers, "\n".join(texts)


def author_cited(login: str, publishers: set[str], text: str) -> bool:
    """Whether a measuring author's login is a publisher the estimator's sources cite, or a word in their text."""
    login = login.lower()
    return login in publishers or re.search(rf"(?<![\w-]){re.escape(login)}(?![\w-])", text) is not None


def measurement_publisher(url: str, author: str) -> str:
    """Who measured and published a figure: for a GitHub issue, pull request or discussion, ``author`` (the login of
    whoever posted the figures, read from the thread); for a file in a repository, its owner; else the host."""
    parts = url.split(" ")[0].split("/")
    if parts[2].endswith("github.com") and len(parts) > 5 and parts[5] in ("issues", "pull", "discussions"):
        return author.lower()
    return publisher(url)


# From held-out-46 on (stop 65, issue 17, the lead's decision): a paper is published by its authors, not by its host.
# For a paper page (arxiv.org/abs|pdf|html/<id>[vN], openreview.net/forum?id=..., aclanthology.org/<id>, a
# proceedings.neurips.cc / proceedings.mlr.press / openaccess.thecvf.com paper page) the publisher of a measurement is
# the paper itself ("arxiv:2406.02290", its version stripped), not the host, so that arXiv does not count as one
# publisher for every paper it hosts. A paper is NEW only if (a) no estimator source cites the same paper by any of
# its URLs (``papers_cited``) and (b) none of its authors' GitHub owners / orgs nor its official code repository's
# owner is a publisher the estimator sources cite (``author_cited`` on each, recorded in the row). Splits up to
# held-out-45 keep est36b's rule (``measurement_publisher`` unchanged: a paper page counts as its host).
_ARXIV = re.compile(r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5}|[a-z\-]+/\d{7})"
                    r"(?:v\d+)?", re.IGNORECASE)
_OPENREVIEW = re.compile(r"^(?:https?://)?openreview\.net/(?:forum|pdf)\?id=([\w\-]+)", re.IGNORECASE)
_ACL = re.compile(r"^(?:https?://)?aclanthology\.org/([\w.\-]+?)(?:\.pdf)?/?$", re.IGNORECASE)
_PROCEEDINGS = re.compile(r"^(?:https?://)?(proceedings\.neurips\.cc|papers\.nips\.cc|proceedings\.mlr\.press|"
                          r"openaccess\.thecvf\.com)/(.+?)(?:\.html|\.pdf)?$", re.IGNORECASE)


def paper_id(url: str) -> str | None:
    """The paper a URL names ("arxiv:2406.02290", "openreview:<id>", "acl:<id>", "<host>:<path>"), its version and
    fragment stripped; None for any other URL."""
    url = url.split(" ")[0].split("#")[0].rstrip("/.")
    for pattern, prefix in ((_ARXIV, "arxiv"), (_OPENREVIEW, "openreview"), (_ACL, "acl")):
        match = pattern.match(url)
        if match:
            # arXiv and ACL Anthology identifiers are case-blind; an OpenReview id is not
            ident = match.group(1) if prefix == "openreview" else match.group(1).lower()
            return f"{prefix}:{ident}"
    match = _PROCEEDINGS.match(url)
    if match:
        host, path = match.group(1).lower(), match.group(2)
        if host == "proceedings.mlr.press":  # v202/liu23x.html and v202/liu23x/liu23x.pdf: one paper
            return f"pmlr:{'/'.join(path.split('/')[:2])}"
        digest = re.search(r"[0-9a-f]{32}", path)
        if digest and host in ("proceedings.neurips.cc", "papers.nips.cc"):  # .../hash/<h>-Abstract, .../file/<h>-Paper
            return f"neurips:{digest.group(0)}"
        if host == "openaccess.thecvf.com":  # .../html/<name>_paper.html and .../papers/<name>_paper.pdf
            return f"cvf:{path.split('/')[-1]}"
        return f"{host}:{path}"
    return None


def papers_cited(split: int) -> set[str]:
    """Every paper (``paper_id``) an estimator source cites by any of its URLs, except split ``split``'s own files;
    a bare arXiv identifier written as ``arXiv:NNNN.NNNNN`` counts too."""
    found: set[str] = set()
    for path in estimator_source_files(split):
        text = path.read_text(encoding="utf-8", errors="replace")
        for url in _URL.findall(text):
            pid = paper_id(url)
            if pid:
                found.add(pid)
        found.update(f"arxiv:{m.lower()}" for m in re.findall(r"arxiv[: ]\s*(\d{4}\.\d{4,5})", text, re.IGNORECASE))
    return found


def measurement_publisher_by_paper(url: str, author: str) -> str:
    """held-out-46 on: as ``measurement_publisher``, except that a paper page's publisher is the paper
    (``paper_id``), not its host."""
    return paper_id(url) or measurement_publisher(url, author)
