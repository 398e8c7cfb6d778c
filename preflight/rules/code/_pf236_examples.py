"""PF236 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# warning: PF236`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

from textwrap import dedent

# Megatron-DeepSpeed PR 193's shape: a custom initialisation applied after the model was built
# under zero.Init
_INIT = dedent("""
    import math

    import deepspeed
    import torch.nn as nn

    from gpt import GPT


    def init_weights(model, n_layer, std=0.02):
        for name, module in model.named_modules():
            if isinstance(module, nn.Linear):
                nn.init.normal_(module.weight, mean=0.0, std=std){pin}
            if name.endswith("c_proj"):
                nn.init.normal_(module.weight, mean=0.0, std=std / math.sqrt(2 * n_layer)){pin}


    def build(cfg, ds_config):
        with deepspeed.zero.Init(config_dict_or_path=ds_config):
            model = GPT(n_layer=cfg.n_layer, n_embd=cfg.n_embd){inside}
        {outside}
        return model
    """)

# DeepSpeedExamples issue 659's shape: counting parameters of a model loaded under HfDeepSpeedConfig
_COUNT = dedent("""
    import deepspeed
    from transformers import AutoModelForCausalLM
    from transformers.integrations import HfDeepSpeedConfig


    def print_trainable_parameters(model):
        total = 0
        trainable = 0
        for _, param in model.named_parameters():
            n = {count}{pin}
            total += n
            if param.requires_grad:
                trainable += n
        print(f"trainable params: {{trainable}} || all params: {{total}}")


    def main(args, ds_config):
        dschf = HfDeepSpeedConfig(ds_config) if args.zero_stage == 3 else None
        model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
        print_trainable_parameters(model)
        engine, *_ = deepspeed.initialize(model=model, config=ds_config)
        return engine, dschf
    """)

# DeepSpeedExamples PR 839's shape: a helper returns the partitioned model, a wrapper holds it and
# its final LayerNorm is re-initialised
_WRAPPED = dedent("""
    import deepspeed
    import torch
    from transformers import AutoModel
    from transformers.integrations import HfDeepSpeedConfig

    from reward import RewardModel


    def create_hf_model(name, ds_config):
        dschf = HfDeepSpeedConfig(ds_config) if ds_config["zero_optimization"]["stage"] == 3 else None
        model = AutoModel.from_pretrained(name)
        return model


    def create_critic_model(name, ds_config):
        base = create_hf_model(name, ds_config)
        critic = RewardModel(base)
        final_ln = critic.rwtransformer.final_layer_norm
        {body}
        return critic
    """)

PF236_BAD = [
    _INIT.format(pin="  # warning: PF236", inside="", outside="init_weights(model, cfg.n_layer)"),
    _COUNT.format(count="param.numel()", pin="  # warning: PF236"),
    _WRAPPED.format(body="torch.nn.init.ones_(final_ln.weight)  # warning: PF236\n"
                         "    torch.nn.init.zeros_(final_ln.bias)  # warning: PF236"),
    # the bias zeroed through .data
    _WRAPPED.format(body="final_ln.bias.data.zero_()  # warning: PF236"),
]

PF236_GOOD = [
    # tricky: the initialisation runs before partitioning (the model is built outside zero.Init)
    _INIT.replace("with deepspeed.zero.Init(config_dict_or_path=ds_config):", "if True:").format(
        pin="", inside="", outside="init_weights(model, cfg.n_layer)"),
    # the weights gathered around the initialisation, rank 0 writes
    _INIT.format(pin="", inside="", outside="with deepspeed.zero.GatheredParameters(list(model.parameters()), "
                 "modifier_rank=0):\n            init_weights(model, cfg.n_layer)"),
    # the fix of DeepSpeedExamples issue 659: ds_numel
    _COUNT.format(count='param.ds_numel if hasattr(param, "ds_numel") else param.numel()', pin=""),
    # tricky: no HfDeepSpeedConfig before the load (the model is whole when counted)
    _COUNT.replace("dschf = HfDeepSpeedConfig(ds_config) if args.zero_stage == 3 else None", "dschf = None")
          .format(count="param.numel()", pin=""),
    # the fix of DeepSpeedExamples PR 839: gathered, rank 0 writes
    _WRAPPED.format(body="with deepspeed.zero.GatheredParameters([final_ln.weight, final_ln.bias], "
                         "modifier_rank=0):\n"
                         "        torch.nn.init.ones_(final_ln.weight)\n"
                         "        torch.nn.init.zeros_(final_ln.bias)"),
    # tricky: OpenRLHF's shape, gathered under ZeRO-3 and written plainly in the other branch
    _WRAPPED.format(body='if ds_config["zero_optimization"]["stage"] == 3:\n'
                         "        with deepspeed.zero.GatheredParameters([final_ln.bias], modifier_rank=0):\n"
                         "            final_ln.bias.data.zero_()\n"
                         "    else:\n"
                         "        final_ln.bias.data.zero_()"),
]
