"""False positives of the newer rules found on the 32-repository corpus (task hunt24, issue 18;
docs/corpus.md "Newer rules on real code"). Each test runs ``preflight check`` the way a user does on
the real code's shape (written from scratch, not copied) and on a near variant that keeps the bug, so
the fix cannot simply switch the rule off."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def check(cli, tmp_path: Path, text: str, code: str, name: str = "train.py") -> list[int]:
    (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    result = cli("check", name, "--select", code, "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    return [f["line"] for f in json.loads(result.out)["findings"] if f["code"] == code]


# PF487: trl tests/test_activation_offloading.py loads a model in one test method and trains a plain
# nn.Module bound to the same name in another
TWO_TEST_METHODS = """\
    import torch
    from torch import nn
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM


    class TestOffloading:
        def test_peft(self):
            model = AutoModelForCausalLM.from_pretrained("tiny-qwen")
            model = get_peft_model(model, LoraConfig(lora_dropout=0.1, task_type="CAUSAL_LM"))
            model(inp, labels=inp).loss.backward()

        def test_plain_module(self):
            model = nn.Linear(8, 1)
            for _ in range(3):
                loss = model(torch.randn(4, 8)).sum()
                loss.backward()
    """

LOADED_THEN_PASSED = """\
    import torch
    from transformers import AutoModelForCausalLM


    def run_epochs(model, loader, optimizer):
        for batch in loader:
            model(**batch).loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    model = AutoModelForCausalLM.from_pretrained("gpt2")
    run_epochs(model, loader, torch.optim.AdamW(model.parameters(), lr=1e-4))
    """


def test_pf487_a_model_of_the_same_name_bound_in_another_function_is_not_the_loaded_one(cli, tmp_path):
    assert check(cli, tmp_path, TWO_TEST_METHODS, "PF487") == []


def test_pf487_a_loaded_model_handed_to_a_training_function_is_still_flagged(cli, tmp_path):
    assert check(cli, tmp_path, LOADED_THEN_PASSED, "PF487") == [7]


# PF450: Lightning's Fabric example build_your_own_trainer fits its module with its own trainer, which reads
# the "scheduler" key itself
OWN_TRAINER = """\
    import lightning as L
    import torch
    from trainer import MyCustomTrainer


    class Module(L.LightningModule):
        def configure_optimizers(self):
            optim = torch.optim.Adam(self.parameters(), lr=1e-4)
            return {
                "optimizer": optim,
                "scheduler": torch.optim.lr_scheduler.ReduceLROnPlateau(optim, mode="max"),
                "monitor": "val_accuracy",
            }


    trainer = MyCustomTrainer(max_epochs=3)
    trainer.fit(Module(), train_loader, val_loader)
    """


def test_pf450_a_module_fit_by_the_projects_own_trainer_is_quiet(cli, tmp_path):
    assert check(cli, tmp_path, OWN_TRAINER, "PF450") == []


def test_pf450_the_same_module_fit_by_lightnings_trainer_is_flagged(cli, tmp_path):
    lightning = OWN_TRAINER.replace("trainer = MyCustomTrainer(", "trainer = L.Trainer(")
    assert check(cli, tmp_path, lightning, "PF450") == [11]


def test_pf450_a_trainer_class_of_the_file_deriving_from_lightnings_is_lightnings(cli, tmp_path):
    derived = OWN_TRAINER.replace("from trainer import MyCustomTrainer\n", "").replace(
        "    trainer = MyCustomTrainer(", "    class MyCustomTrainer(L.Trainer):\n        pass\n\n\n"
        "    trainer = MyCustomTrainer(")
    assert check(cli, tmp_path, derived, "PF450") == [10]


# PF485: open-instruct's rejection sampling scores with get_reward(model, ids, tokenizer.pad_token_id, 0), which
# pools the last tokens from the pad id it is given; the classifier's own forward never runs
REWARD_SCORING = """\
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from trl.experimental.utils import get_reward

    tokenizer = AutoTokenizer.from_pretrained("my-llama-rm", padding_side="right")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    model = AutoModelForSequenceClassification.from_pretrained("my-llama-rm").cuda()
    with torch.no_grad():
        for input_ids in batches:
            _, score, _ = get_reward(model, input_ids.cuda(), tokenizer.pad_token_id, 0)
    """


def test_pf485_a_reward_model_scored_with_an_explicit_pad_id_is_quiet(cli, tmp_path):
    assert check(cli, tmp_path, REWARD_SCORING, "PF485") == []


def test_pf485_the_same_model_also_run_through_its_own_forward_is_flagged(cli, tmp_path):
    direct = REWARD_SCORING.replace(
        "            _, score, _ = get_reward(", "            logits = model(input_ids=input_ids.cuda()).logits\n"
        "            _, score, _ = get_reward(")
    assert check(cli, tmp_path, direct, "PF485") == [7]


# PF484: trl's PPO examples add a pad token for PPOTrainer, which masks every pad id to 0 before the forward
PPO_PAD = """\
    from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification, AutoTokenizer
    from trl.experimental.ppo import PPOConfig, PPOTrainer

    tokenizer = AutoTokenizer.from_pretrained("EleutherAI/pythia-1b-deduped", padding_side="left")
    tokenizer.add_special_tokens({"pad_token": "[PAD]"})
    value_model = AutoModelForSequenceClassification.from_pretrained("rm", num_labels=1)
    reward_model = AutoModelForSequenceClassification.from_pretrained("rm", num_labels=1)
    policy = AutoModelForCausalLM.from_pretrained("sft")
    PPOTrainer(args=PPOConfig(output_dir="out"), processing_class=tokenizer, model=policy,
               reward_model=reward_model, value_model=value_model, train_dataset=ds).train()
    """


def test_pf484_a_pad_token_added_for_trls_pad_masking_ppo_trainer_is_quiet(cli, tmp_path):
    assert check(cli, tmp_path, PPO_PAD, "PF484") == []


def test_pf484_a_pad_token_added_for_a_plain_trainer_is_flagged(cli, tmp_path):
    plain = PPO_PAD.replace("PPOConfig, PPOTrainer", "PPOConfig").replace(
        "    PPOTrainer(args=PPOConfig(output_dir=\"out\"), processing_class=tokenizer, model=policy,\n"
        "               reward_model=reward_model, value_model=value_model, train_dataset=ds).train()",
        "    from transformers import Trainer\n    Trainer(model=policy, train_dataset=ds).train()")
    assert check(cli, tmp_path, plain, "PF484") == [6]


def test_pf484_a_second_added_token_under_ppo_is_flagged(cli, tmp_path):
    more = PPO_PAD.replace('{"pad_token": "[PAD]"}', '{"pad_token": "[PAD]", "additional_special_tokens": ["<r>"]}')
    assert check(cli, tmp_path, more, "PF484") == [6]


# PF484: FastChat's Yuan2 script re-registers Yuan2's own special tokens, as IEIT-Yuan's model cards do
YUAN2 = """\
    import transformers

    model = transformers.AutoModelForCausalLM.from_pretrained(path, trust_remote_code=True)
    tokenizer = transformers.AutoTokenizer.from_pretrained(path, use_fast=False, trust_remote_code=True)
    tokenizer.add_tokens(["<eod>", "<sep>", "<pad>", "<mask>", "<predict>", "<FIM_SUFFIX>", "<FIM_PREFIX>",
                          "<FIM_MIDDLE>", "<jupyter_start>", "<empty_output>"], special_tokens=True)
    transformers.Trainer(model=model, tokenizer=tokenizer, args=args, train_dataset=ds).train()
    """


def test_pf484_yuan2s_own_special_tokens_are_not_new(cli, tmp_path):
    assert check(cli, tmp_path, YUAN2, "PF484") == []


def test_pf484_only_the_generic_names_of_that_list_are_still_new_tokens(cli, tmp_path):
    generic = YUAN2.replace('["<eod>", "<sep>", "<pad>", "<mask>", "<predict>", "<FIM_SUFFIX>", "<FIM_PREFIX>",\n'
                            '                          "<FIM_MIDDLE>", "<jupyter_start>", "<empty_output>"]',
                            '["<sep>", "<mask>"]')
    assert generic != YUAN2
    assert check(cli, tmp_path, generic, "PF484") == [3]


def test_pf484_a_new_token_next_to_yuan2s_own_is_flagged(cli, tmp_path):
    extra = YUAN2.replace('"<empty_output>"]', '"<empty_output>", "<tool_call>"]')
    assert check(cli, tmp_path, extra, "PF484") == [3]


# PF402: alpaca_farm's PPO trainer iterates a loader over the rollouts each process generated itself
ROLLOUTS = """\
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader, TensorDataset


    def rollouts_loader(rollouts, keys):
        dataset = TensorDataset(*[rollouts[key] for key in keys])
        loader = DataLoader(dataset, batch_size=8, shuffle=True)
        return loader


    def ppo_epochs(accelerator, policy, optimizer, rollouts):
        loader = rollouts_loader(rollouts, ("queries", "responses"))
        for batch in loader:
            accelerator.backward(policy(*batch).mean())
            optimizer.step()
            optimizer.zero_grad()


    accelerator = Accelerator()
    policy, optimizer, prompts = accelerator.prepare(policy, optimizer, prompts)
    """


def test_pf402_a_loader_over_tensors_handed_in_at_run_time_is_quiet(cli, tmp_path):
    assert check(cli, tmp_path, ROLLOUTS, "PF402") == []


def test_pf402_a_loader_over_a_tensor_dataset_built_in_place_is_flagged(cli, tmp_path):
    fixed_data = ROLLOUTS.replace("TensorDataset(*[rollouts[key] for key in keys])",
                                  "TensorDataset(torch.randn(1000, 8), torch.randn(1000))")
    assert check(cli, tmp_path, fixed_data, "PF402") == [14]
