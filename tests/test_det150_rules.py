"""det150: PF1211 applies the GRPO batch check of the TRL release the project pins; PF1210 reads the
budgets through the resolver (a module constant) and leaves an encoder-decoder call alone."""

from __future__ import annotations

import textwrap

from preflight.plan_rules import example_findings


def _grpo(pin: str, launch: str, kwargs: str) -> str:
    req = f"# --- requirements.txt\n{pin}\n" if pin else ""
    return textwrap.dedent(f"""
        {req}# --- launch
        {launch}
        # --- grpo.py
        from trl import GRPOConfig

        config = GRPOConfig(output_dir="g", {kwargs})
        """).replace("\n        ", "\n")


def test_pf1211_trl_0_16_ignores_accumulation_but_0_17_counts_it():
    kwargs = "per_device_train_batch_size=1, gradient_accumulation_steps=8, num_generations=8"
    old = example_findings("PF1211", _grpo("trl==0.16.1", "python grpo.py", kwargs))
    new = example_findings("PF1211", _grpo("trl==0.17.0", "python grpo.py", kwargs))
    assert [f.code for f in old] == ["PF1211"] and "1 per device x 1 processes" in old[0].message
    assert new == []


def test_pf1211_explicit_generation_batch_is_what_recent_trl_checks():
    bad = example_findings("PF1211", _grpo("", "torchrun --nproc_per_node 4 grpo.py",
                                           "per_device_train_batch_size=3, generation_batch_size=12, "
                                           "num_generations=8"))
    good = example_findings("PF1211", _grpo("", "torchrun --nproc_per_node 4 grpo.py",
                                            "per_device_train_batch_size=3, generation_batch_size=24, "
                                            "num_generations=8"))
    assert len(bad) == 1 and "12 completions" in bad[0].message and "[2, 3, 4, 6, 12]" in bad[0].message
    assert good == []


def test_pf1210_constant_budgets_and_encoder_decoder():
    text = textwrap.dedent("""
        # --- dpo.py
        from trl import DPOConfig

        LEN = 512
        a = DPOConfig(output_dir="a", max_length=LEN, max_prompt_length=LEN)
        b = DPOConfig(output_dir="b", max_length=LEN, max_prompt_length=LEN, is_encoder_decoder=True)
        """)
    found = example_findings("PF1210", text)
    assert [f.span.line for f in found] == [4]
    assert "max_prompt_length=512, max_length=512" in found[0].message
