"""bench/bugs/: the cases rebuilt from public bug reports are well formed (the scoring itself
runs preflight on every variant: `python bench/bugs/score.py`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def load():
    spec = importlib.util.spec_from_file_location("bugs_score", REPO / "bench" / "bugs" / "score.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_cases_cover_six_families_with_sources_and_twins():
    score = load()
    cases = score.load_cases()
    assert len(cases) >= 80
    assert {c.family for c in cases} == set(score.FAMILIES)
    assert len({c.id for c in cases}) == len(cases)
    for case in cases:
        assert case.source.startswith(("https://", "http://")), case.id
        assert case.kind in ("bug", "correct"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "bug":
            assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
    assert sum(c.kind == "correct" for c in cases) >= 6


def test_held_out_set_loads_alone_and_shares_no_report_with_the_in_sample_set():
    score = load()
    held = score.load_cases(which="held-out")
    ins = score.load_cases()
    assert {c.family for c in held} == set(score.FAMILIES)
    assert sum(c.kind == "bug" for c in held) >= 24
    assert sum(c.kind == "correct" for c in held) >= 6
    assert not {c.id for c in held} & {c.id for c in ins}
    assert not {c.source for c in held} & {c.source for c in ins}
    for case in held:
        assert case.source.startswith("https://"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "bug":
            assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
    held2 = score.load_cases(which="held-out-2")
    held3 = score.load_cases(which="held-out-3")
    held4 = score.load_cases(which="held-out-4")
    held5 = score.load_cases(which="held-out-5")
    held6 = score.load_cases(which="held-out-6")
    held7 = score.load_cases(which="held-out-7")
    held8 = score.load_cases(which="held-out-8")
    held9 = score.load_cases(which="held-out-9")
    held10 = score.load_cases(which="held-out-10")
    held11 = score.load_cases(which="held-out-11")
    held12 = score.load_cases(which="held-out-12")
    held13 = score.load_cases(which="held-out-13")
    held14 = score.load_cases(which="held-out-14")
    held15 = score.load_cases(which="held-out-15")
    held16 = score.load_cases(which="held-out-16")
    held17 = score.load_cases(which="held-out-17")
    held18 = score.load_cases(which="held-out-18")
    held19 = score.load_cases(which="held-out-19")
    held20 = score.load_cases(which="held-out-20")
    held21 = score.load_cases(which="held-out-21")
    held22 = score.load_cases(which="held-out-22")
    held23 = score.load_cases(which="held-out-23")
    held24 = score.load_cases(which="held-out-24")
    held25 = score.load_cases(which="held-out-25")
    held26 = score.load_cases(which="held-out-26")
    held27 = score.load_cases(which="held-out-27")
    held28 = score.load_cases(which="held-out-28")
    held29 = score.load_cases(which="held-out-29")
    held30 = score.load_cases(which="held-out-30")
    held31 = score.load_cases(which="held-out-31")
    held32 = score.load_cases(which="held-out-32")
    held33 = score.load_cases(which="held-out-33")
    held34 = score.load_cases(which="held-out-34")
    held35 = score.load_cases(which="held-out-35")
    held36 = score.load_cases(which="held-out-36")
    held37 = score.load_cases(which="held-out-37")
    held38 = score.load_cases(which="held-out-38")
    held39 = score.load_cases(which="held-out-39")
    held40 = score.load_cases(which="held-out-40")
    held41 = score.load_cases(which="held-out-41")
    held42 = score.load_cases(which="held-out-42")
    held43 = score.load_cases(which="held-out-43")
    held44 = score.load_cases(which="held-out-44")
    held45 = score.load_cases(which="held-out-45")
    held46 = score.load_cases(which="held-out-46")
    held47 = score.load_cases(which="held-out-47")
    held48 = score.load_cases(which="held-out-48")
    held49 = score.load_cases(which="held-out-49")
    assert len(score.load_cases(which="all")) == (len(held) + len(ins) + len(held2) + len(held3) + len(held4)
                                                  + len(held5) + len(held6) + len(held7) + len(held8)
                                                  + len(held9) + len(held10) + len(held11) + len(held12)
                                                  + len(held13) + len(held14) + len(held15) + len(held16)
                                                  + len(held17) + len(held18) + len(held19)
                                                  + len(held20) + len(held21) + len(held22) + len(held23)
                                                  + len(held24) + len(held25) + len(held26)
                                                  + len(held27) + len(held28) + len(held29)
                                                  + len(held30) + len(held31) + len(held32) + len(held33)
                                                  + len(held34) + len(held35) + len(held36)
                                                  + len(held37) + len(held38) + len(held39)
                                                  + len(held40) + len(held41) + len(held42) + len(held43)
                                                  + len(held44) + len(held45) + len(held46)
                                                  + len(held47) + len(held48) + len(held49))


def test_held_out_2_set_is_labelled_and_shares_no_report_with_the_other_sets():
    """bench/bugs/heldout2/: every case has its public source, a family, a corrected twin (or is a
    tricky-correct program), and every bug names the file:line of the finding it needs."""
    import re

    score = load()
    held2 = score.load_cases(which="held-out-2")
    others = score.load_cases() + score.load_cases(which="held-out")
    bugs = [c for c in held2 if c.kind == "bug"]
    assert len(bugs) >= 36
    assert sum(c.kind == "correct" for c in held2) >= 9
    for fam in score.FAMILIES:
        assert sum(c.family == fam for c in bugs) >= 5, fam
    assert len({c.id for c in held2}) == len(held2)
    assert len({c.source for c in held2}) == len(held2)  # one public report per case
    assert not {c.id for c in held2} & {c.id for c in others}
    assert not {c.source for c in held2} & {c.source for c in others}
    for case in held2:
        assert case.family in score.FAMILIES, case.id
        assert case.source.startswith("https://"), case.id
        assert case.kind in ("bug", "correct"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "correct":
            assert not case.files.get("bug"), case.id
            continue
        assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
        m = re.match(r"^(\S+):(\d+) \S", case.expect)
        assert m, (case.id, case.expect)
        name, line = m.group(1), int(m.group(2))
        text = case.files["bug"].get(name)
        assert text is not None, (case.id, name)
        assert 1 <= line <= len(text.splitlines()), (case.id, line)


def test_held_out_3_set_is_labelled_and_shares_no_report_with_the_other_sets():
    """bench/bugs/heldout3/: at least 30 cases, at least 5 per family, about a quarter
    tricky-correct; every source is a public report used nowhere else in bench/bugs; every bug has
    a corrected twin and names a file:line that exists in its bug variant."""
    import re

    score = load()
    held3 = score.load_cases(which="held-out-3")
    others = score.load_cases() + score.load_cases(which="held-out") + score.load_cases(which="held-out-2")
    assert len(held3) >= 30
    for fam in score.FAMILIES:
        assert sum(c.family == fam for c in held3) >= 5, fam
        assert any(c.family == fam and c.kind == "bug" for c in held3), fam
    assert sum(c.kind == "correct" for c in held3) >= 7
    assert len({c.id for c in held3}) == len(held3)
    assert len({c.source for c in held3}) == len(held3)  # one public report per case
    assert not {c.id for c in held3} & {c.id for c in others}

    def norm(url: str) -> str:
        return url.strip().rstrip("/").lower()

    assert not {norm(c.source) for c in held3} & {norm(c.source) for c in others}
    for case in held3:
        assert case.family in score.FAMILIES, case.id
        assert case.source.startswith("https://"), case.id
        assert case.title, case.id
        assert case.kind in ("bug", "correct"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "correct":
            assert not case.files.get("bug"), case.id
            assert not case.expect, case.id
            continue
        assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
        assert set(case.files["bug"]) == set(case.files["fix"]), case.id  # twins hold the same files
        m = re.match(r"^(\S+):(\d+) \S", case.expect)
        assert m, (case.id, case.expect)
        name, line = m.group(1), int(m.group(2))
        text = case.files["bug"].get(name)
        assert text is not None, (case.id, name)
        lines = text.splitlines()
        assert 1 <= line <= len(lines) and lines[line - 1].strip(), (case.id, line)


def test_held_out_4_set_is_labelled_and_shares_no_report_with_the_other_sets():
    """bench/bugs/heldout4/: at least 6 bugs with corrected twins and 1-2 tricky-correct programs per
    family; every source is a public report used nowhere else in bench/bugs (cases/, heldout/,
    heldout2/, heldout3/); every bug names a non-empty file:line of its bug variant."""
    import re

    score = load()
    held4 = score.load_cases(which="held-out-4")
    others = (score.load_cases() + score.load_cases(which="held-out") + score.load_cases(which="held-out-2")
              + score.load_cases(which="held-out-3"))
    bugs = [c for c in held4 if c.kind == "bug"]
    assert len(bugs) >= 36
    for fam in score.FAMILIES:
        assert sum(c.family == fam for c in bugs) >= 6, fam
        assert 1 <= sum(c.family == fam and c.kind == "correct" for c in held4) <= 2, fam
    assert len({c.id for c in held4}) == len(held4)
    assert not {c.id for c in held4} & {c.id for c in others}

    def norm(url: str) -> str:
        return url.strip().rstrip("/").lower()

    assert len({norm(c.source) for c in held4}) == len(held4)  # one public report per case
    assert not {norm(c.source) for c in held4} & {norm(c.source) for c in others}
    for case in held4:
        assert case.id.startswith("h4-"), case.id
        assert case.family in score.FAMILIES, case.id
        assert case.source.startswith("https://github.com/"), case.id
        assert case.title, case.id
        assert case.kind in ("bug", "correct"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "correct":
            assert not case.files.get("bug"), case.id
            assert not case.expect, case.id
            continue
        assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
        assert set(case.files["bug"]) == set(case.files["fix"]), case.id  # twins hold the same files
        m = re.match(r"^(\S+):(\d+) \S", case.expect)
        assert m, (case.id, case.expect)
        name, line = m.group(1), int(m.group(2))
        text = case.files["bug"].get(name)
        assert text is not None, (case.id, name)
        lines = text.splitlines()
        assert 1 <= line <= len(lines) and lines[line - 1].strip(), (case.id, line)


@pytest.mark.parametrize("n,min_bugs,min_per_family", [(5, 36, 6), (6, 36, 6), (7, 36, 6), (8, 36, 6), (9, 36, 6),
                                                       (10, 36, 6), (11, 36, 6), (12, 36, 6), (13, 36, 6),
                                                       (14, 30, 5), (15, 27, 4), (16, 30, 5),
                                                       (17, 30, 5), (18, 30, 5), (19, 30, 5),
                                                       (20, 30, 5), (21, 30, 5), (22, 30, 5), (23, 30, 5),
                                                       (24, 30, 5), (25, 29, 4), (26, 30, 5),
                                                       (27, 30, 5), (28, 30, 5), (29, 30, 5),
                                                       (30, 30, 5), (31, 30, 5), (32, 30, 5), (33, 30, 5),
                                                       (34, 30, 5), (35, 30, 5), (36, 30, 5),
                                                       (37, 30, 5), (38, 30, 5), (39, 30, 5),
                                                       (40, 30, 5), (41, 30, 5), (42, 30, 5),
                                                       (43, 30, 5), (44, 30, 5), (45, 24, 4),
                                                       (46, 24, 4), (47, 24, 4), (48, 24, 4),
                                                       (49, 24, 4)])
def test_held_out_set_is_labelled_and_shares_no_report_with_the_other_sets(n, min_bugs, min_per_family):
    """bench/bugs/heldout5/ to heldout49/: at least 6 bugs (heldout14/, heldout16/ to heldout44/: 5, heldout15/, heldout45/ to heldout49/: 4; heldout25/: 4, its
    transformers save_total_limit case relabelled tricky-correct from the library source, docs/corpus.md; 29-40 cases in all) with corrected
    twins and 1-2 tricky-correct programs per family; every source is a public report used nowhere else in bench/bugs (cases/ and
    every earlier held-out set); every bug names a non-empty file:line of its bug variant; the Hydra family is mostly
    Hydra/OmegaConf proper."""
    import re

    score = load()
    held = score.load_cases(which=f"held-out-{n}")
    others = score.load_cases() + score.load_cases(which="held-out")
    for earlier in range(2, n):
        others += score.load_cases(which=f"held-out-{earlier}")
    bugs = [c for c in held if c.kind == "bug"]
    assert len(bugs) >= min_bugs
    for fam in score.FAMILIES:
        assert sum(c.family == fam for c in bugs) >= min_per_family, fam
        assert 1 <= sum(c.family == fam and c.kind == "correct" for c in held) <= 2, fam
    assert len({c.id for c in held}) == len(held)
    assert not {c.id for c in held} & {c.id for c in others}

    def norm(url: str) -> str:
        return url.strip().rstrip("/").lower()

    assert len({norm(c.source) for c in held}) == len(held)  # one public report per case
    assert not {norm(c.source) for c in held} & {norm(c.source) for c in others}
    hydra_bugs = [c for c in bugs if c.family == "hydra"]
    proper = [c for c in hydra_bugs
              if any("hydra" in t or "omegaconf" in t.lower() or p.endswith((".yaml", ".yml"))
                     for p, t in c.files["bug"].items())]
    assert 2 * len(proper) > len(hydra_bugs)
    for case in held:
        assert case.id.startswith(f"h{n}-"), case.id
        assert case.family in score.FAMILIES, case.id
        assert case.source.startswith("https://"), case.id
        assert case.title, case.id
        assert case.kind in ("bug", "correct"), case.id
        assert case.files.get("fix"), case.id
        if case.kind == "correct":
            assert not case.files.get("bug"), case.id
            assert not case.expect, case.id
            continue
        assert case.files.get("bug") and case.files["bug"] != case.files["fix"], case.id
        assert set(case.files["bug"]) == set(case.files["fix"]), case.id  # twins hold the same files
        m = re.match(r"^(\S+):(\d+) \S", case.expect)
        assert m, (case.id, case.expect)
        name, line = m.group(1), int(m.group(2))
        text = case.files["bug"].get(name)
        assert text is not None, (case.id, name)
        lines = text.splitlines()
        assert 1 <= line <= len(lines) and lines[line - 1].strip(), (case.id, line)


def test_every_still_buggy_label_names_codes_and_says_why():
    """A twin labelled still buggy names the finding codes judged true and gives the reason."""
    score = load()
    labelled = [c for c in score.load_cases(which="all") if c.still_buggy]
    assert labelled
    for case in labelled:
        assert score.still_buggy_codes(case), case.id
        why = case.still_buggy.partition("|")[2]
        assert len(why.split()) >= 12, case.id  # a reason, not a bare code list


_LABELLED_CASE = """### case: zero-grad-first-in-accumulate
source: https://github.com/huggingface/accelerate/issues/1422
title: the fix moves the loss division into accelerate but keeps zero_grad() first in the accumulate block
still_buggy: {codes} | the twin keeps zero_grad() first inside accumulate, which erases the window's earlier gradients
--- bug/train.py
import torch
from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=4)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    with accelerator.accumulate(model):
        optimizer.zero_grad()
        loss = model(**batch).loss / 4
        accelerator.backward(loss)
        optimizer.step()
--- fix/train.py
import torch
from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=4)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for batch in loader:
    with accelerator.accumulate(model):
        optimizer.zero_grad()
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
"""


@pytest.mark.parametrize("codes,flagged", [("PF457", 0), ("PF999", 1)])
def test_a_still_buggy_twin_is_counted_apart_only_for_its_labelled_codes(tmp_path, codes, flagged):
    """The twin's PF457 (zero_grad first inside accumulate) is real: labelled PF457 it is counted in the
    still-buggy column, not as a flagged correct program; labelled with another code it stays flagged."""
    score = load()
    path = tmp_path / "accelerate.cases"
    path.write_text(_LABELLED_CASE.format(codes=codes), encoding="utf-8")
    cases = score.parse_cases(path)
    result = score.score(cases, [sys.executable, "-m", "preflight"], verbose=False, show=False)
    stats = result["families"]["accelerate"]
    assert result["cases"][0]["fix_flagged"] == ["PF457"]
    assert (stats["flagged"], stats["still_buggy"]) == (flagged, 1 - flagged)
    assert score.table(result).splitlines()[2].endswith(f"| {1 - flagged} |")  # the still-buggy column


def test_scoring_on_threads_gives_the_sequential_result(tmp_path):
    """`score.py --jobs 2` runs the variants on two threads; the per-case rows, their order and the
    family table are those of the sequential run (two cases: a bug with its twin, a labelled twin)."""
    score = load()
    path = tmp_path / "accelerate.cases"
    path.write_text(_LABELLED_CASE.format(codes="PF999") + "\n" + _LABELLED_CASE.format(codes="PF457")
                    .replace("### case: ", "### case: second-"), encoding="utf-8")
    cases = score.parse_cases(path)
    assert len(cases) == 2 and cases[0].id != cases[1].id
    exe = [sys.executable, "-m", "preflight"]
    one = score.score(cases, exe, verbose=False, show=False)
    two = score.score(cases, exe, verbose=False, show=False, jobs=2)
    assert two == one
    assert [row["id"] for row in two["cases"]] == [c.id for c in cases]
    assert score.table(two) == score.table(one)
