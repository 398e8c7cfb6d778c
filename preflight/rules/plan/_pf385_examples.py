"""PF385 examples: one small project per config entry of the release-defect table. The finding sits on
a config line, so each bad example lists it under ``# --- expect``; its twins pin the fixed release or
keep the affected pin with other keys."""

from __future__ import annotations

import textwrap

_DS = textwrap.dedent("""
    # --- train.py
    import argparse

    import deepspeed
    import torch

    from task import build_dataset, build_model

    parser = argparse.ArgumentParser()
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = build_model()
    engine, optimizer, loader, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                                        training_data=build_dataset())
    for step, (x, y) in enumerate(loader):
        x, y = x.to(engine.device), y.to(engine.device)
        loss = torch.nn.functional.cross_entropy(engine(x), y)
        engine.backward(loss)
        engine.step()
    # --- ds_config.json
    {config}
    # --- requirements.txt
    deepspeed=={version}
    torch==2.4.0
    # --- launch
    deepspeed --num_gpus 4 train.py --deepspeed --deepspeed_config ds_config.json
""")


def _ds(config: str, version: str, expect: str = "") -> str:
    out = _DS.format(config=config, version=version)
    return out + (f"# --- expect\n{expect}\n" if expect else "")


_OPT = '"optimizer": {"type": "AdamW", "params": {"lr": 3e-4}}'
# 0.13.2: gradient_clipping without fp16/bf16/ZeRO goes through the broken clip_grad_norm_
_CLIP = ('{"train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 1,\n'
         ' "gradient_clipping": 1.0, ' + _OPT + '{extra}}')
# ZeRO-2 with the optimizer offloaded to CPU and accumulation
_OFFLOAD = ('{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": {ga},\n'
            ' "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "{device}"}},\n'
            ' "bf16": {"enabled": true}, "gradient_clipping": {clip}, ' + _OPT + '}')
# bf16 with ZeRO stage 0 or 1
_BF16 = ('{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 4,\n'
         ' "bf16": {"enabled": true{bf16_extra}},\n'
         ' "zero_optimization": {"stage": {stage}}{data_types}, ' + _OPT + '}')


def _clip(extra: str = "") -> str:
    return _CLIP.replace("{extra}", extra)


def _offload(ga: int, device: str, clip: str) -> str:
    return _OFFLOAD.replace("{ga}", str(ga)).replace("{device}", device).replace("{clip}", clip)


def _bf16(stage: object, data_types: str = "", bf16_extra: str = "") -> str:
    return _BF16.replace("{stage}", str(stage)).replace("{data_types}", data_types).replace("{bf16_extra}",
                                                                                            bf16_extra)


_Z1_CPU = '1, "offload_optimizer": {"device": "cpu"}'
_FP32_ACCUM = ', "data_types": {"grad_accum_dtype": "fp32"}'

_HYDRA = textwrap.dedent("""
    # --- train.py
    import hydra
    from omegaconf import DictConfig

    from pipeline import run


    @hydra.main(config_path="conf", config_name="config")
    def main(cfg: DictConfig) -> None:
        run(cfg)


    if __name__ == "__main__":
        main()
    # --- conf/config.yaml
    defaults:
      - model: resnet
      - {logging}
    lr: 0.1
    epochs: 90
    # --- conf/model/resnet.yaml
    depth: 50
    # --- conf/experiment/short.yaml
    # @package _global_
    lr: 0.4
    epochs: 10
    # --- requirements.txt
    hydra-core=={version}
    # --- launch
    python train.py {append}
""")


def _hydra(version: str, append: str, expect: str = "", logging: str = "override hydra/job_logging: disabled") -> str:
    out = _HYDRA.format(version=version, append=append, logging=logging)
    return out + (f"# --- expect\n{expect}\n" if expect else "")


BAD_EXAMPLES = [
    # DeepSpeed PR 5150: max(1, max_norm/norm) on 0.13.2
    _ds(_clip(), "0.13.2", "ds_config.json:2: error: PF385"),
    # DeepSpeed PR 6550: ZeRO-2 CPU offload accumulation on 0.15.1
    _ds(_offload(8, "cpu", "0.0"), "0.15.1", "ds_config.json:2: error: PF385"),
    # DeepSpeed PR 7967: the gradient norm from the first micro-step only on 0.16.0
    _ds(_offload(8, "cpu", "1.0"), "0.16.0", "ds_config.json:3: error: PF385"),
    # DeepSpeed PR 7839: bf16 without ZeRO divides by a loss scale never applied on 0.18.5
    _ds(_bf16(0), "0.18.5", "ds_config.json:2: error: PF385"),
    # DeepSpeed PR 7985: bf16 ZeRO-1 with fp32 accumulation drops the last micro-batch from the average on 0.18.5
    _ds(_bf16(1, _FP32_ACCUM), "0.18.5", "ds_config.json:3: error: PF385"),
    # DeepSpeed PR 4084 (issue 4083): bf16 + fp32 accumulation + ZeRO-1 picks the BF16 optimizer, offload ignored
    _ds(_bf16(_Z1_CPU, _FP32_ACCUM), "0.9.5", "ds_config.json:3: error: PF385"),
    # Hydra PR 1735: `+experiment=short` lands before the primary config's override entry on 1.1.0
    _hydra("1.1.0", "+experiment=short", "conf/config.yaml:3: error: PF385"),
]

GOOD_EXAMPLES = [
    # the fixed releases
    _ds(_clip(), "0.13.3"),
    _ds(_offload(8, "cpu", "0.0"), "0.15.2"),
    _ds(_offload(8, "cpu", "1.0"), "0.19.0"),
    _ds(_bf16(0), "0.18.6"),
    _ds(_bf16(1, _FP32_ACCUM), "0.19.0"),
    _ds(_bf16(_Z1_CPU, _FP32_ACCUM), "0.15.2"),  # past 0.10.1, and past the offload-accumulation fix
    _hydra("1.1.1", "+experiment=short"),
    # the affected releases with other keys: clipping inside ZeRO; no accumulation; no offload; ZeRO-2 with
    # bf16; immediate_grad_update on; no appended group, or no override entry in the primary config
    _ds(_clip(', "zero_optimization": {"stage": 2}, "bf16": {"enabled": true}'), "0.13.2"),
    _ds(_offload(1, "cpu", "0.0"), "0.15.1"),
    _ds(_offload(8, "none", "1.0"), "0.16.0"),
    _ds(_bf16(2), "0.18.5"),
    _ds(_bf16(1, _FP32_ACCUM, ', "immediate_grad_update": true'), "0.18.5"),
    # 0.9.5: bf16 ZeRO-1 offload without fp32 accumulation (the ZeRO offload path), fp32 accumulation without offload
    _ds(_bf16(_Z1_CPU), "0.9.5"),
    _ds(_bf16(1, _FP32_ACCUM), "0.9.5"),
    _hydra("1.1.0", ""),
    _hydra("1.1.0", "+experiment=short", logging="hydra/job_logging: disabled"),
    # tricky-correct: a lower bound inside the range; the clipping release with clipping off
    _ds(_clip(), "0.13.2").replace("deepspeed==0.13.2", "deepspeed>=0.13.2"),
    _ds(_clip().replace('"gradient_clipping": 1.0', '"gradient_clipping": 0.0'), "0.13.2"),
]
