"""Tool-run recipes (axolotl, LitGPT, GPT-NeoX) audited from the command a user types."""

from __future__ import annotations

import json
import textwrap

from plan_helpers import winner


def plan_of(cli, *launch: str, cwd) -> dict:
    res = cli("audit", "--emit-plan", "json", "--", *launch, cwd=cwd)
    assert res.code == 0, res.out + res.err
    return json.loads(res.out)


AXOLOTL = textwrap.dedent("""\
    base_model: NousResearch/Llama-3.2-1B
    load_in_4bit: true
    adapter: qlora
    sequence_len: 2048
    lora_r: 32
    gradient_accumulation_steps: 4
    micro_batch_size: 2
    optimizer: adamw_bnb_8bit
    bf16: auto
    gradient_checkpointing: true
    attn_implementation: flash_attention_2
    deepspeed: ds/zero3.json
    """)


def test_axolotl_recipe_with_its_deepspeed_file(cli, tmp_path):
    (tmp_path / "qlora.yml").write_text(AXOLOTL)
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "zero3.json").write_text(json.dumps({"zero_optimization": {"stage": 3},
                                                            "bf16": {"enabled": "auto"}}))
    plan = plan_of(cli, "axolotl", "train", "qlora.yml", cwd=tmp_path)
    assert winner(plan, "model.ref") == "NousResearch/Llama-3.2-1B"
    assert winner(plan, "task.mode") == "qlora" and winner(plan, "precision.weights_bits") == 4
    assert winner(plan, "peft.rank") == 32 and winner(plan, "data.seq_len") == 2048
    assert winner(plan, "batch.micro") == 2 and winner(plan, "batch.grad_accum") == 4
    assert winner(plan, "dist.sharding") == "zero3"
    # bf16: auto under DeepSpeed: bf16 weights with fp32 master, not autocast
    assert winner(plan, "precision.mode") == "bf16"
    facts = plan["fields"]["model.ref"]
    assert facts[0]["source"]["path"] == "qlora.yml" and facts[0]["source"]["line"] == 1


def test_axolotl_full_finetune_says_no_adapter(cli, tmp_path):
    (tmp_path / "fft.yaml").write_text("base_model: org/m\nsequence_len: 4096\nmicro_batch_size: 1\n")
    plan = plan_of(cli, "axolotl", "train", "fft.yaml", cwd=tmp_path)
    assert winner(plan, "peft.method") == "none"
    assert plan["fields"]["peft.method"][0]["confidence"] != "high"


def test_litgpt_recipe_and_command_line_override(cli, tmp_path):
    (tmp_path / "lora.yaml").write_text(textwrap.dedent("""\
        checkpoint_dir: checkpoints/meta-llama/Llama-2-7b-hf
        precision: bf16-true
        quantize: bnb.nf4
        devices: 1
        num_nodes: 1
        lora_r: 32
        data:
          class_path: litgpt.data.Alpaca2k
          init_args:
            num_workers: 4
        train:
          global_batch_size: 16
          micro_batch_size: 2
          max_seq_length: 512
        """))
    plan = plan_of(cli, "litgpt", "finetune", "lora", "--config", "lora.yaml", "--devices", "2", cwd=tmp_path)
    assert winner(plan, "model.ref") == "meta-llama/Llama-2-7b-hf"
    assert winner(plan, "precision.mode") == "bf16"
    assert winner(plan, "task.mode") == "qlora" and winner(plan, "precision.quant_type") == "nf4"
    assert winner(plan, "dist.world_size") == 2
    assert winner(plan, "batch.grad_accum") == 4  # 16 / (2 x 2 devices)
    assert winner(plan, "data.num_workers") == 4


def test_neox_configs_merge_and_count_parameters(cli, tmp_path):
    (tmp_path / "deepy.py").write_text("import sys\nprint(sys.argv)\n")
    (tmp_path / "train.py").write_text("print('train')\n")
    (tmp_path / "125M.yml").write_text(textwrap.dedent("""\
        {
          "num_layers": 12, "hidden_size": 768, "seq_length": 2048, "no_weight_tying": true,
          "zero_optimization": {"stage": 1}, "train_micro_batch_size_per_gpu": 4,
          "checkpoint_activations": true, "fp16": {"enabled": true}
        }
        """))
    (tmp_path / "local.yml").write_text('{"vocab_file": "data/gpt2-vocab.json"}\n')
    plan = plan_of(cli, "python3", "deepy.py", "train.py", "125M.yml", "local.yml", cwd=tmp_path)
    assert abs(winner(plan, "model.num_parameters") - 162_000_000) < 0.02 * 162_000_000
    assert winner(plan, "dist.sharding") == "zero1" and winner(plan, "precision.mode") == "fp16"
    assert winner(plan, "memory.gradient_checkpointing") is True


def test_plain_yaml_is_not_a_recipe(cli, tmp_path):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "cfg.yaml").write_text("lr: 0.1\nbase: x\n")
    plan = plan_of(cli, "python", "train.py", "cfg.yaml", cwd=tmp_path)
    assert not any(f["adapter"] == "recipes" for facts in plan["fields"].values() for f in facts)


CCE = "axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin"
LIGER = "axolotl.integrations.liger.LigerPlugin"


def _axolotl_loss(cli, tmp_path, extra: str):
    base = "base_model: org/m\nadapter: qlora\nload_in_4bit: true\nsequence_len: 2048\nmicro_batch_size: 2\nbf16: true\n"
    (tmp_path / "cfg.yml").write_text(base + textwrap.dedent(extra))
    plan = plan_of(cli, "axolotl", "train", "cfg.yml", cwd=tmp_path)
    facts = plan["fields"].get("loss.implementation") or []
    return (facts[0]["value"], facts[0]["source"]["line"]) if facts else None


def test_axolotl_cut_cross_entropy_plugin_is_a_fused_loss(cli, tmp_path):
    # the plugin alone: cut_cross_entropy defaults to true, the plugins line is the source
    assert _axolotl_loss(cli, tmp_path, f"plugins:\n  - {CCE}\n") == ("fused", 7)
    assert _axolotl_loss(cli, tmp_path, f"plugins:\n  - {CCE}\ncut_cross_entropy: true\n") == ("fused", 9)
    # switched off, or the option without the plugin (axolotl does not load it): no fused loss
    assert _axolotl_loss(cli, tmp_path, f"plugins:\n  - {CCE}\ncut_cross_entropy: false\n") is None
    assert _axolotl_loss(cli, tmp_path, "cut_cross_entropy: true\n") is None


def test_axolotl_liger_plugin_fuses_the_loss_only_when_asked(cli, tmp_path):
    assert _axolotl_loss(cli, tmp_path, f"plugins:\n  - {LIGER}\nliger_fused_linear_cross_entropy: true\n") \
        == ("fused", 9)
    # Liger's other kernels (RMSNorm, SwiGLU) leave the logits as they are
    assert _axolotl_loss(cli, tmp_path, f"plugins:\n  - {LIGER}\nliger_rms_norm: true\n") is None


def test_axolotl_cut_cross_entropy_reaches_the_estimate(cli, tmp_path):
    cfg = ("base_model: meta-llama/Llama-3.1-8B\nadapter: qlora\nload_in_4bit: true\nsequence_len: 2048\n"
           "micro_batch_size: 2\nbf16: true\ngradient_checkpointing: true\nflash_attention: true\n")
    (tmp_path / "plain.yml").write_text(cfg)
    (tmp_path / "cce.yml").write_text(cfg + f"plugins:\n  - {CCE}\n")

    def forward_logits(name):
        res = cli("estimate", "--format", "json", "--gpu", "h100", "--", "axolotl", "train", name, cwd=tmp_path)
        assert res.code == 0, res.out + res.err
        return json.loads(res.out)["phases"]["forward"]["logits_loss"]

    tokens, vocab, hidden = 2 * 2048, 128256, 4096
    # transformers' loss: bf16 logits, their fp32 upcast and log_softmax's fp32 output
    assert forward_logits("plain.yml") == tokens * vocab * (2 + 4 + 4)
    # Cut Cross Entropy never holds the logits: the head input's bf16 gradient only
    assert forward_logits("cce.yml") == tokens * hidden * 2


def _facts(cli, tmp_path, text, *fields):
    (tmp_path / "q.yml").write_text(text)
    plan = plan_of(cli, "axolotl", "train", "q.yml", cwd=tmp_path)
    return tuple((plan["fields"][f][0]["value"], plan["fields"][f][0]["source"]["kind"])
                 if f in plan["fields"] else None for f in fields)


QUANT = ("peft.kbit_prepared", "precision.quant_type", "precision.double_quant")


def test_axolotl_qlora_defaults_nf4_double_quant_and_16bit_embeddings(cli, tmp_path):
    base = "base_model: org/m\nadapter: qlora\nload_in_4bit: true\nsequence_len: 2048\nmicro_batch_size: 1\n"
    # axolotl's loader: nf4 + double quantization; norms, embed_tokens, lm_head cast back to 16 bits
    # after prepare_model_for_kbit_training, so nothing stays in fp32
    assert _facts(cli, tmp_path, base, *QUANT) == ((False, "default"), ("nf4", "default"), (True, "default"))
    # bnb_config_kwargs overrides the BitsAndBytesConfig defaults
    over = base + "bnb_config_kwargs:\n  bnb_4bit_use_double_quant: false\n  bnb_4bit_quant_type: fp4\n"
    assert _facts(cli, tmp_path, over, *QUANT) == ((False, "default"), ("fp4", "config"), (False, "config"))


def test_axolotl_8bit_lora_and_unquantized_lora(cli, tmp_path):
    eight = "base_model: org/m\nadapter: lora\nload_in_8bit: true\nsequence_len: 2048\nmicro_batch_size: 1\n"
    assert _facts(cli, tmp_path, eight, *QUANT) == ((False, "default"), None, None)
    plain = "base_model: org/m\nadapter: lora\nsequence_len: 2048\nmicro_batch_size: 1\n"
    assert _facts(cli, tmp_path, plain, *QUANT) == (None, None, None)


def test_axolotl_padding_from_packing_and_pad_to_sequence_len(cli, tmp_path):
    base = "base_model: org/m\nadapter: lora\nsequence_len: 2048\nmicro_batch_size: 1\n"
    # sample_packing alone: axolotl sets pad_to_sequence_len, rows are full length
    assert _facts(cli, tmp_path, base + "sample_packing: true\n", "data.padding") == (("packed", "default"),)
    assert _facts(cli, tmp_path, base + "sample_packing: true\npad_to_sequence_len: true\n",
                  "data.padding") == (("packed", "config"),)
    assert _facts(cli, tmp_path, base + "pad_to_sequence_len: true\n", "data.padding") == (("max_length", "config"),)
    # the collator pads each batch to its longest sample: lengths vary from step to step
    assert _facts(cli, tmp_path, base, "data.padding") == (("dynamic", "default"),)
    assert _facts(cli, tmp_path, base + "sample_packing: true\npad_to_sequence_len: false\n",
                  "data.padding") == (("dynamic", "config"),)
