"""Set 48 (issue 15) misses, read from the shapes real projects write (jobs127).

- A tokenizer call padding to ``"max_length"`` whose ``max_length`` is not a literal (lm-sys/FastChat
  ``fastchat/train/train.py`` ``preprocess``, copied by icip-cas/ChatAlpaca @ b83c44a ``train/train_hf.py:91-97``:
  ``tokenizer(conversations, return_tensors="pt", padding="max_length", max_length=tokenizer.model_max_length,
  truncation=True)``): every row is padded to that length, whatever it is.
- ``DataLoader(collate_fn=collate_fn)`` where ``collate_fn`` is ``def``-ined inside the function that builds the
  loader (Hzfinfdu/Diffusion-BERT @ 19d7f49 ``DDP_main.py:162-178``), while an imported module defines another
  ``collate_fn`` (``dataloader.py:84``): Python's scoping picks the nested one.
- A local model folder named with the size joined to the family (ChiYeungLaw/LLaMa-EasyFT @ 522dc81
  ``finetune.sh:2``: ``MODEL=/path/to/llama7B``) is the catalog's ``llama-7b``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from plan_helpers import fact, plan_of, winner, write

FASTCHAT = """\
    from dataclasses import dataclass, field

    import transformers


    @dataclass
    class TrainingArguments(transformers.TrainingArguments):
        model_max_length: int = field(default=512)


    def preprocess(conversations, tokenizer):
        input_ids = tokenizer(
            conversations,
            return_tensors="pt",
            padding=PADDING,
            max_length=tokenizer.model_max_length,
            truncation=True,
        ).input_ids
        return dict(input_ids=input_ids, labels=input_ids.clone())


    class SupervisedDataset:
        def __init__(self, raw, tokenizer):
            self.data = preprocess([r["text"] for r in raw], tokenizer)


    parser = transformers.HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    tokenizer = transformers.AutoTokenizer.from_pretrained("huggyllama/llama-7b",
                                                           model_max_length=training_args.model_max_length)
    model = transformers.AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
    dataset = SupervisedDataset([], tokenizer)
    trainer = transformers.Trainer(model=model, args=training_args, train_dataset=dataset)
    trainer.train()
"""


def _fastchat(cli, tmp_path: Path, padding: str) -> dict:
    write(tmp_path, {"train.py": FASTCHAT.replace("PADDING", padding)})
    return plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)


def test_max_length_padding_with_length_not_literal_is_max_length(cli, tmp_path: Path) -> None:
    plan = _fastchat(cli, tmp_path, '"max_length"')
    got = fact(plan, "data.padding")
    assert got is not None and got.value == "max_length"
    assert got.source.path == "train.py" and got.source.line == 15


def test_longest_padding_with_length_not_literal_is_dynamic(cli, tmp_path: Path) -> None:
    assert winner(_fastchat(cli, tmp_path, "True"), "data.padding") == "dynamic"


def test_no_padding_with_length_not_literal_is_not_max_length(cli, tmp_path: Path) -> None:
    # twin: padding=False leaves the rows at their own lengths; the Trainer's collator decides (not this call)
    assert winner(_fastchat(cli, tmp_path, "False"), "data.padding") != "max_length"


def test_padding_not_known_statically_stays_unknown(cli, tmp_path: Path) -> None:
    # twin: the padding itself comes from an attribute no reader knows
    assert winner(_fastchat(cli, tmp_path, "tokenizer.padding_side_choice"), "data.padding") is None


def test_generation_prompt_without_max_length_says_nothing(cli, tmp_path: Path) -> None:
    # twin: a prompt tokenized with padding=True and no max_length (a generation helper) is not the training data
    write(tmp_path, {"train.py": FASTCHAT.replace("PADDING", "False").replace(
        "    parser = transformers.HfArgumentParser",
        "    def sample(tokenizer, prompts):\n"
        "        return tokenizer(prompts, padding=True, return_tensors=\"pt\")\n\n\n"
        "    parser = transformers.HfArgumentParser")})
    plan = plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)
    got = fact(plan, "data.padding")
    assert got is None or got.source.line != 28


# Hzfinfdu/Diffusion-BERT @ 19d7f49: DDP_main.py's nested collate_fn pads with pad_sequence; the imported
# dataloader.py defines another collate_fn (inside a method, for another loader)
DIFF_MAIN = """\
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from dataloader import DiffusionLoader


    def main():
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        train_data = DiffusionLoader().load()

        def collate_fn(batch_input):
            input_ids = [torch.tensor(d["input_ids"]) for d in batch_input]
            input_ids = PADDED
            return {"input_ids": input_ids}

        train_loader = torch.utils.data.DataLoader(train_data, batch_size=8, collate_fn=collate_fn)
        for batch in train_loader:
            model(batch["input_ids"].float()).sum().backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""

DIFF_LOADER = """\
    import torch
    from torch.nn.utils.rnn import pad_sequence


    class DiffusionLoader:
        def load(self):
            return []


    class ConditionalLoader:
        def load(self):
            def collate_fn(batch_input, tokenizer):
                return OTHER
            return torch.utils.data.DataLoader([], collate_fn=collate_fn)
"""


def _diffusion(cli, tmp_path: Path, padded: str, other: str = "batch_input") -> dict:
    write(tmp_path, {"DDP_main.py": DIFF_MAIN.replace("PADDED", padded),
                     "dataloader.py": DIFF_LOADER.replace("OTHER", other)})
    return plan_of(cli, "DDP_main.py", cwd=tmp_path)


def test_nested_collate_fn_that_pads_is_dynamic(cli, tmp_path: Path) -> None:
    plan = _diffusion(cli, tmp_path, "pad_sequence(input_ids, batch_first=True)")
    got = fact(plan, "data.padding")
    assert got is not None and got.value == "dynamic"
    assert got.source.path == "DDP_main.py" and got.source.line == 16


def test_nested_collate_fn_that_stacks_says_nothing(cli, tmp_path: Path) -> None:
    # twin: the job's collate_fn stacks; the other module's collate_fn pads, but is not the one the loader gets
    plan = _diffusion(cli, tmp_path, "torch.stack(input_ids)", other="pad_sequence(batch_input, batch_first=True)")
    assert winner(plan, "data.padding") is None


def test_joined_size_folder_is_the_catalog_model() -> None:
    from preflight.adapters.model_local_folder import catalog_download

    assert catalog_download("/path/to/llama7B") == "huggyllama/llama-7b"
    assert catalog_download("/path/to/llama-7b") == "huggyllama/llama-7b"
    assert catalog_download("./models/llama13b/") == "huggyllama/llama-13b"


def test_joined_names_that_may_be_other_models_stay_unknown() -> None:
    from preflight.adapters.model_local_folder import catalog_download

    # a version number runs into the size (llama-2-7b? llama-27b?), a fine-tune's suffix, a word only
    assert catalog_download("/path/to/llama27b") is None
    assert catalog_download("/path/to/llama7b-sft") is None
    assert catalog_download("/path/to/llama7bx") is None
    assert catalog_download("/ckpt/checkpoint500") is None


# yangjianxin1/Firefly's SFTDataCollator as gammachen/p-llm-dialog-element-extraction @ 1f7e97a utils.py:120-150
# copies it: each batch padded by hand (lists of pad ids) to its longest sample, rounded up to a multiple of 8
FIREFLY = """\
    import math

    import torch


    class DataCollator(object):
        def __init__(self, pad_token_id, max_len=2048):
            self.pad_token_id = pad_token_id
            self.max_len = max_len

        def __call__(self, batch):
            lengths = [len(instance["input_ids"]) for instance in batch]
            batch_max_len = LONGEST
            input_ids_batch = []
            for instance in batch:
                input_ids = instance["input_ids"]
                padding_len = batch_max_len - len(input_ids)
                input_ids = input_ids + [self.pad_token_id] * padding_len
                input_ids_batch.append(input_ids)
            return {"input_ids": torch.tensor(input_ids_batch, dtype=torch.long)}


    model = torch.nn.Embedding(100, 4)
    opt = torch.optim.AdamW(model.parameters())
    loader = torch.utils.data.DataLoader([], batch_size=2, collate_fn=DataCollator(0))
    for batch in loader:
        model(batch["input_ids"]).sum().backward()
        opt.step()
"""


def _firefly(cli, tmp_path: Path, longest: str) -> dict:
    write(tmp_path, {"train.py": FIREFLY.replace("LONGEST", longest)})
    return plan_of(cli, "train.py", cwd=tmp_path)


def test_hand_padded_collator_is_dynamic(cli, tmp_path: Path) -> None:
    plan = _firefly(cli, tmp_path, "math.ceil(max(lengths) / 8) * 8")
    got = fact(plan, "data.padding")
    assert got is not None and got.value == "dynamic"
    assert got.source.path == "train.py" and got.source.line == 18


def test_hand_padded_collator_capped_at_max_len_is_dynamic(cli, tmp_path: Path) -> None:
    # Firefly's own form: min(max(lengths), self.max_seq_length)
    assert winner(_firefly(cli, tmp_path, "min(max(lengths), self.max_len)"), "data.padding") == "dynamic"


def test_hand_padded_to_a_fixed_length_is_not_dynamic(cli, tmp_path: Path) -> None:
    # twin: every row padded to self.max_len, not to the batch's longest sample
    assert winner(_firefly(cli, tmp_path, "self.max_len"), "data.padding") is None


def test_max_not_over_the_lengths_is_not_dynamic(cli, tmp_path: Path) -> None:
    # twin: a max of two settings is a fixed length, whatever the samples are
    assert winner(_firefly(cli, tmp_path, "max(self.max_len, 512)"), "data.padding") is None


# ZhenyuLU-Heliodore/Customized-ViT @ dab44fd: vit_classifier/modeling/vit_encoder.py:8-38 (six
# nn.TransformerEncoderLayer(512, 8, 2048) of 3,152,384 parameters each), built by train_vit.py:27-45 from the
# YAML the launch line names with the author's absolute path (shells/train_vit_default.sh:3)
VIT_MODEL = """\
    import torch
    import torch.nn as nn


    class VitMetaEncoder(nn.Module):
        def __init__(self, input_size=32, input_channels=3, patch_size=2, token_dim=512, num_classes=100,
                     num_layers=6, num_heads=8, dim_ffn=2048, dropout=0.1):
            super().__init__()
            self.num_tokens = int(input_size / patch_size) * int(input_size / patch_size)
            self.cls_token = nn.Parameter(torch.zeros(1, 1, token_dim), requires_grad=True)
            self.patch_embedding = nn.Conv2d(input_channels, token_dim, kernel_size=patch_size, stride=patch_size)
            self.pe = nn.Parameter(torch.randn(1, self.num_tokens, token_dim), requires_grad=True)
            self.trans_layers = nn.ModuleList([])
            for i in range(num_layers):
                self.trans_layers.append(
                    nn.TransformerEncoderLayer(d_model=token_dim, nhead=num_heads, dim_feedforward=dim_ffn,
                                               dropout=dropout, batch_first=True))
            self.classifier = nn.Sequential(nn.Linear(token_dim, token_dim * 2), nn.ReLU(),
                                            nn.Linear(token_dim * 2, num_classes))

        def forward(self, x):
            x = self.patch_embedding(x).flatten(2).transpose(1, 2) + self.pe
            x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
            for layer in self.trans_layers:
                x = layer(x)
            return self.classifier(x[:, 0, :])
"""

VIT_TRAIN = """\
    import argparse

    import torch
    import yaml

    from vit_model import VitMetaEncoder

    parser = argparse.ArgumentParser()
    parser.add_argument("--kwargs_path", type=str)
    args = parser.parse_args()
    with open(args.kwargs_path, "r") as file:
        kwargs = yaml.load(file, Loader=yaml.FullLoader)
    model = VitMetaEncoder(**kwargs["VitMetaEncoder"])
    opt = torch.optim.AdamW(model.parameters())
    for x, y in []:
        torch.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
"""

VIT_YAML = """\
    VitMetaEncoder:
      dim_ffn: 2048
      input_size: 32
      num_classes: 100
      num_heads: 8
      num_layers: LAYERS
      patch_size: 2
      token_dim: 512
"""

# 512 (cls) + 3*512*4 + 512 (conv) + 256*512 (positions) + 6 x 3,152,384 + 512*1024 + 1024 + 1024*100 + 100
VIT_COUNT = 19_680_356


def _vit(cli, tmp_path: Path, path: str, layers: int = 6) -> dict:
    write(tmp_path, {"vit_model.py": VIT_MODEL, "train.py": VIT_TRAIN,
                     "configs/default.yml": VIT_YAML.replace("LAYERS", str(layers))})
    return plan_of(cli, "train.py", "--", "--kwargs_path", path, cwd=tmp_path)


def test_transformer_encoder_layers_are_counted(cli, tmp_path: Path) -> None:
    got = fact(_vit(cli, tmp_path, "configs/default.yml"), "model.num_parameters")
    assert got is not None and got.value == VIT_COUNT


def test_config_at_the_authors_absolute_path_is_the_projects_file(cli, tmp_path: Path) -> None:
    plan = _vit(cli, tmp_path, "/home/ubuntu/projects/vit-for-cifar100/configs/default.yml", layers=4)
    # four layers, as the project's configs/default.yml says (not the class's default six)
    assert winner(plan, "model.num_parameters") == VIT_COUNT - 2 * 3_152_384


def test_absolute_path_with_no_such_ending_in_the_project_stays_unknown(cli, tmp_path: Path) -> None:
    # twin: the project has configs/default.yml, the path names another folder's file
    plan = _vit(cli, tmp_path, "/home/ubuntu/projects/vit-for-cifar100/experiments/default.yml")
    assert winner(plan, "model.num_parameters") is None


def test_torch_transformer_layer_counts_match_torch() -> None:
    from preflight.adapters.module_params_torch import torch_layer

    # torch's own counts: nn.Transformer() holds 44,140,544 parameters
    assert torch_layer("TransformerEncoderLayer", [512, 8], {}, 1).n == 3_152_384
    assert torch_layer("TransformerDecoderLayer", [512, 8], {}, 1).n == 4_204_032
    assert torch_layer("Transformer", [], {}, 1).n == 44_140_544
    assert torch_layer("TransformerEncoderLayer", [512, 8], {"bias": False}, 1).n == 3_146_752
    layer = torch_layer("TransformerEncoderLayer", [256, 4, 1024], {}, 1)
    norm = torch_layer("LayerNorm", [256], {}, 1)
    assert torch_layer("TransformerEncoder", [layer, 3], {"norm": norm}, 1).n == 3 * layer.n + 512


def test_torch_transformer_with_unknown_sizes_or_custom_parts_is_not_counted() -> None:
    from preflight.adapters.module_params import _Unknown
    from preflight.adapters.module_params_torch import torch_layer
    from preflight.adapters.module_params_values import _UNK

    with pytest.raises(_Unknown):
        torch_layer("TransformerEncoderLayer", [_UNK, 8], {}, 1)
    encoder = torch_layer("TransformerEncoderLayer", [512, 8], {}, 1)
    with pytest.raises(_Unknown):
        torch_layer("Transformer", [], {"custom_encoder": encoder}, 1)
    with pytest.raises(_Unknown):
        torch_layer("TransformerEncoder", [encoder, _UNK], {}, 1)


def _fastchat_imports(cli, tmp_path: Path, head: str, after_model: str = "") -> dict:
    text = FASTCHAT.replace("PADDING", '"max_length"').replace("    import transformers\n", head + "    import transformers\n", 1)
    text = text.replace('    dataset = SupervisedDataset', after_model + '    dataset = SupervisedDataset')
    write(tmp_path, {"train.py": text})
    return plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)


def test_fastchat_model_adapter_import_is_no_peft_adapter(cli, tmp_path: Path) -> None:
    # icip-cas/ChatAlpaca train/train_hf.py:22: FastChat's chat-template registry, a full fine-tune
    plan = _fastchat_imports(cli, tmp_path, "    from fastchat.model.model_adapter import get_conversation_template\n")
    assert winner(plan, "peft.method") == "none"


def test_fastchat_script_that_builds_lora_is_lora(cli, tmp_path: Path) -> None:
    # twin: the same import beside a LoraConfig (FastChat's train_lora.py shape)
    plan = _fastchat_imports(cli, tmp_path, "    from fastchat.model.model_adapter import get_conversation_template\n"
                                            "    from peft import LoraConfig, get_peft_model\n",
                             "    model = get_peft_model(model, LoraConfig(r=8))\n")
    assert winner(plan, "peft.method") == "lora"


def test_another_projects_model_adapter_still_names_adapters(cli, tmp_path: Path) -> None:
    # twin: a module named model_adapter of another package may build adapters: full fine-tuning is not claimed
    plan = _fastchat_imports(cli, tmp_path, "    from mylib.model_adapter import wrap_model\n")
    assert winner(plan, "peft.method") != "none"
