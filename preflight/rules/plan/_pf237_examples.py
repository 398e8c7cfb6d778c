"""PF237 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

from textwrap import dedent

# trl issue 4939's shape: the reward functions live in their own module
_PROJECT = dedent("""
    # --- rewards.py
    import re


    def extract_boxed(text):
        found = re.findall(r"\\\\boxed\\{{(.*?)\\}}", text)
        return found[-1] if found else None


    def exact_match_reward({exact}):{pin}
        return [1.0 if extract_boxed(c) == gold else 0.0 for c, gold in zip(completions, answer)]


    def length_penalty(completions, **kwargs):
        return [-len(c) / 4096 for c in completions]
    # --- train.py
    from datasets import load_dataset
    from trl import GRPOConfig, GRPOTrainer

    from rewards import exact_match_reward, length_penalty


    def main():
        ds = load_dataset("openai/gsm8k", "main", split="train")
        args = GRPOConfig(output_dir="out", per_device_train_batch_size=8, num_generations=8)
        trainer = GRPOTrainer(model="Qwen/Qwen2.5-Math-1.5B", reward_funcs=[exact_match_reward, length_penalty],
                              args=args, train_dataset=ds)
        trainer.train()


    if __name__ == "__main__":
        main()
    # --- launch
    accelerate launch --num_processes 8 train.py
    """)

# one function in the training script itself, the list bound to a name first
_INLINE = dedent("""
    # --- grpo.py
    from datasets import load_dataset
    from trl import GRPOConfig, GRPOTrainer


    def format_reward({sig}):{pin}
        return [1.0 if c.startswith("<think>") else 0.0 for c in completions]


    rewards = [format_reward]
    dataset = load_dataset("trl-lib/tldr", split="train")
    trainer = GRPOTrainer(model="Qwen/Qwen2-0.5B-Instruct", reward_funcs=rewards,
                          args=GRPOConfig(output_dir="out"), train_dataset=dataset)
    trainer.train()
    # --- launch
    python grpo.py
    """)

PF237_BAD = [
    _PROJECT.format(exact="prompts, completions, answer", pin="  # error: PF237"),
    _INLINE.format(sig="completions", pin="  # error: PF237"),
]

PF237_GOOD = [
    # the fix of trl issue 4939
    _PROJECT.format(exact="prompts, completions, answer, **kwargs", pin=""),
    # tricky: every keyword the trainer always passes is named (the dataset's other columns are
    # unknown to a static reading)
    _INLINE.format(sig="prompts, completions, completion_ids, trainer_state", pin=""),
    # tricky: a Hub reward model instead of a function
    _INLINE.replace("reward_funcs=rewards", 'reward_funcs="weqweasdas/RM-Gemma-2B"').format(
        sig="completions", pin=""),
]
