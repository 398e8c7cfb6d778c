"""Public figures of a PyTorch process's GPU memory outside the caching allocator
(calibration/public/context_measurements.json), for the ``cuda_context`` term of the estimator (est30).

Run: python calibration/public/build_context_measurements.py

No GPU is lent to this project, so the term is read from what others published. Every row is one
published figure with its source address, who published it, the GPU, the versions the source gives and how
the figure was read. Three kinds of figure:

- ``bare_context``: a process after CUDA initialisation (``torch.cuda.init()``, ``mem_get_info``, or one
  tiny tensor), read by nvidia-smi or ``cudaMemGetInfo``. A tensor's allocator segment is taken off when
  the row had one (a 2 MiB ``kSmallBuffer`` segment for a tensor up to 1 MiB, a 20 MiB ``kLargeBuffer``
  segment for one of 1-10 MiB: c10's CUDACachingAllocator ``get_allocation_size``).
- ``in_step``: the memory a running job holds outside PyTorch's allocator, read from PyTorch's own
  out-of-memory message (torch 2.1 and later): "Including non-PyTorch memory, this process has A in use. Of
  the allocated memory B is allocated by PyTorch, and C is reserved by PyTorch but unallocated", so the
  figure is A - B - C (``cudaMemGetInfo`` of the process less the allocator's reserved memory, at the
  failing step). The message's two decimals give each figure to +-0.005 GiB, the difference to +-0.015 GiB.
  That message exists only from torch 2.1, whose PyPI wheels are CUDA 12 builds: lazy loading is on.
- ``vllm_profile``: vLLM's start-up log "non_torch_memory takes X" (vLLM 0.7 and later,
  vllm-project/vllm#11809 and #12126): the growth of memory outside the allocator from a snapshot taken
  after the CUDA context and the process groups exist, through loading the weights and one profiling
  forward pass. That is the part a forward pass adds on top of the bare context (kernels loaded lazily on
  first launch, library handles), without a backward pass.
- ``nccl``: one communicator's buffers.

Held-out rows: within each kind of figure, publishers are ordered by the SHA-1 of their key and taken from
the top until at least a third of that kind's scored rows are held out (``split`` "held-out"); the rest fit
the term. (A first version took a third of all rows at once; it held out no ``in_step`` row, so it was
changed to this one before anything was derived.) Rows marked ``late`` were collected after the term's
constants were committed, to test it on GPUs the first held-out rows did not name; they are held out and
take no part in the rule. The split was fixed
by this rule before anything was derived; the values were read while collecting, before the split (said
plainly: collecting is reading). Rows whose figure cannot be compared (a range of 500 MiB, a job that
allocates outside PyTorch on purpose) stay in the file with ``excluded`` and are not scored.

Not measurements, and cited where the term uses them (preflight/estimate/constants.py): the cuBLAS
workspace sizes (torch ``aten/src/ATen/cuda/CublasHandlePool.cpp``; pytorch/pytorch#91564, #95668), lazy
loading's conditions (CUDA C Programming Guide, "Lazy Loading"), NCCL's buffer sizes (est26,
preflight/estimate/nccl.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Optional

OUT = Path(__file__).with_name("context_measurements.json")
GIB = 2 ** 30
MIB = 2 ** 20
ROWS: list[dict[str, Any]] = []


def _row(rid: str, quantity: str, publisher: str, url: str, value_bytes: Optional[int], *, gpu: str,
         torch: Optional[str], cuda: Optional[str] = None, loading: str, mode: str, world_size: Optional[int] = 1,
         how: str, notes: str = "", excluded: str = "", approximate: bool = False) -> None:
    row: dict[str, Any] = {"id": rid, "quantity": quantity, "publisher": publisher, "url": url,
                           "value_bytes": value_bytes, "gpu": gpu, "torch": torch, "cuda": cuda,
                           "loading": loading, "mode": mode, "world_size": world_size, "how": how}
    if approximate:
        row["approximate"] = True
    if notes:
        row["notes"] = notes
    if excluded:
        row["excluded"] = excluded
    ROWS.append(row)


def _oom(in_use: float, allocated: float, unallocated: float) -> int:
    """A - B - C of PyTorch's out-of-memory message, every figure in GiB."""
    return round((in_use - allocated - unallocated) * GIB)


# --------------------------------------------------------------------------- bare context
_row("pt86509-lazy", "bare_context", "syed-ahmed", "https://github.com/pytorch/pytorch/pull/86509",
     287_047_680 - 20 * MIB, gpu="not stated", torch="1.13", cuda="11.7", loading="lazy", mode="init",
     how="cudaMemGetInfo total - free after torch.randn(20, 16, 50, 100).cuda(); less the 20 MiB segment of "
         "the 6.4 MB tensor")
_row("pt86509-eager", "bare_context", "syed-ahmed", "https://github.com/pytorch/pytorch/pull/86509",
     666_632_192 - 20 * MIB, gpu="not stated", torch="1.13", cuda="11.7", loading="eager", mode="init",
     how="the same with CUDA_MODULE_LOADING=DEFAULT (eager in CUDA 11.7); less the 20 MiB segment")
_row("invokeai9413", "bare_context", "sammcj", "https://github.com/invoke-ai/InvokeAI/issues/9413",
     256 * MIB, gpu="rtx-3090", torch="2.7.1", cuda="12.8", loading="lazy", mode="init",
     how="nvidia-smi per-process figure of an idle server that created a context and no tensor")
_row("unsloth-zoo1053", "bare_context", "oobabooga", "https://github.com/unslothai/unsloth-zoo/pull/1053",
     426 * MIB, gpu="rtx-6000-ada", torch="2.10.0", cuda="13.0", loading="lazy", mode="init",
     how="nvidia-smi after torch.cuda.mem_get_info(0) (context only; torch allocated/reserved 0)")
_row("pt107667", "bare_context", "ptrblck", "https://github.com/pytorch/pytorch/issues/107667",
     300 * MIB, gpu="not stated", torch="2.0", cuda="11.7+", loading="lazy", mode="init", approximate=True,
     how="'the currently used ~300MB' for the context with lazy loading (maintainer's statement, 2023-08)")
_row("pt109888", "bare_context", "ptrblck", "https://github.com/pytorch/pytorch/issues/109888",
     400 * MIB, gpu="not stated", torch="2.0", cuda="11.7+", loading="lazy", mode="init", approximate=True,
     how="'uses around 400MB if CUDA >= 11.7 is used and lazy module loading enabled' (2023-09)")
_row("pt20532", "bare_context", "lironmo", "https://github.com/pytorch/pytorch/issues/20532",
     350 * MIB, gpu="v100-16gb", torch="1.1", cuda="10", loading="eager", mode="init", approximate=True,
     how="'around 300MB to 400MB' after torch.cuda.FloatTensor(1) on a p3.8xlarge (V100); the middle taken")
_row("pt28113", "bare_context", "ruotianluo", "https://github.com/pytorch/pytorch/issues/28113",
     None, gpu="k40c", torch="1.3", cuda="10.1", loading="eager", mode="init",
     how="nvidia-smi after torch.cuda.synchronize(): 'from 200+mb to 700+mb' on different machines",
     excluded="a range over machines, not one figure")
_row("forum73021", "bare_context", "discuss.pytorch.org/t/73021",
     "https://discuss.pytorch.org/t/what-is-the-reason-for-pytorchs-gpu-memory-floor/73021",
     723 * MIB - 2 * MIB, gpu="not stated", torch="1.4", cuda="10.1", loading="eager", mode="init",
     how="nvidia-smi per-process 723 MiB after th.randn(1).cuda(1) (2020-03, torch 1.4 current), less the "
         "2 MiB small segment")
_row("forum81330", "bare_context", "discuss.pytorch.org/t/81330",
     "https://discuss.pytorch.org/t/high-gpu-memory-overhead/81330",
     800 * MIB - 2 * MIB, gpu="not stated", torch="1.5", cuda="10.2", loading="eager", mode="init",
     approximate=True, how="'~800mb' after moving Linear(1, 1) to the GPU, 'happens in 1.4 and 1.5'")
_row("pt54564", "bare_context", "zmzhang2000", "https://github.com/pytorch/pytorch/issues/54564",
     1001 * MIB - 2 * MIB, gpu="rtx-3090", torch="1.8", cuda="11.1", loading="eager", mode="init",
     how="nvidia-smi device Memory-Usage 1001 MiB after torch.rand(100, 100).cuda() (driver 455.23, 2021-03; "
         "torch 1.8 current, version not stated), less the 2 MiB small segment")
_row("pt60150", "bare_context", "lfxx", "https://github.com/pytorch/pytorch/issues/60150",
     1105 * MIB, gpu="not stated", torch="1.7.1", cuda="11.0", loading="eager", mode="init",
     how="nvidia-smi 1105 MiB after the only tensor was deleted and torch.cuda.empty_cache() returned its segment")
_row("hf-perf-v100", "bare_context", "huggingface-docs",
     "https://huggingface.co/docs/transformers/v4.21.0/perf_train_gpu_one",
     1343 * MIB - 2 * MIB, gpu="v100-16gb", torch="1.11", cuda="11.3", loading="eager", mode="init",
     how="nvidia-smi 1343 MB (MiB) after torch.ones((1, 1)).to('cuda'), less the 2 MiB small segment "
         "(the figure the estimator's eager constant already holds)")

# --------------------------------------------------------------------------- in a running job (OOM message)
_row("dbgpt-hub248", "in_step", "yilia1828", "https://github.com/eosphoros-ai/DB-GPT-Hub/issues/248",
     _oom(23.28, 22.74, 136.85 / 1024), gpu="rtx-4090", torch=">=2.2", loading="lazy", mode="train",
     how="OOM message: LoRA fine-tune of chatglm3-6b, one RTX 4090 (23.64 GiB)")
_row("vsmtrans3", "in_step", "maolimin", "https://github.com/qingze-bai/VSmTrans/issues/3",
     _oom(15.48, 14.81, 336.73 / 1024), gpu="16gb (15.70 GiB) not named", torch=">=2.2", loading="lazy",
     mode="train", how="OOM message in backward: 3D segmentation network training on one 16 GB GPU")
_row("seamless341", "in_step", "210023", "https://github.com/facebookresearch/seamless_communication/issues/341",
     _oom(5.48, 5.34, 22.94 / 1024), gpu="rtx-4050-laptop", torch="2.1", loading="lazy", mode="train",
     how="OOM message (torch 2.1 wording 'capacty') in a thread on fine-tuning, RTX 4050 6 GB (5.77 GiB)")
_row("fit9", "in_step", "DZ1204", "https://github.com/whlzy/FiT/issues/9",
     _oom(23.57, 22.14, 510.78 / 1024), gpu="24gb (23.69 GiB) not named", torch=">=2.2", loading="lazy",
     mode="train", world_size=None,
     how="OOM message of rank 0 of a diffusion-transformer training launched by torchrun; world size not said")
_row("keye11", "in_step", "learningpro", "https://github.com/Kwai-Keye/Keye/issues/11",
     _oom(17.37, 14.34, 2.53), gpu="80gb (79.14 GiB) not named", torch=">=2.2", loading="lazy", mode="infer",
     how="OOM message of a vision-language model asking for 13,535 GiB (inference)")
_row("echomimic115", "in_step", "UniVersos1", "https://github.com/antgroup/echomimic_v2/issues/115",
     _oom(11.14, 10.14, 771.43 / 1024), gpu="16gb (15.69 GiB) not named", torch=">=2.2", loading="lazy",
     mode="infer", how="OOM message of a video-generation pipeline run from Pinokio (inference)")
_row("fireredtts17", "in_step", "m08594589-source", "https://github.com/FireRedTeam/FireRedTTS2/issues/17",
     _oom(9.74, 9.30, 163.19 / 1024), gpu="12gb (11.66 GiB) not named", torch=">=2.2", loading="lazy",
     mode="infer", how="OOM message of text-to-speech inference (two other processes on the GPU, not counted)")
_row("tribev2-28", "in_step", "anshuman0123", "https://github.com/facebookresearch/tribev2/issues/28",
     _oom(14.53, 13.86, 558.41 / 1024), gpu="t4 (14.56 GiB, Colab)", torch=">=2.2", loading="lazy",
     mode="infer", how="OOM message in Google Colab (the repository's inference notebook)")
_row("pt126766", "in_step", "JubilantJerry", "https://github.com/pytorch/pytorch/issues/126766",
     _oom(14.27, 11.74, 932.02 / 1024), gpu="a100-40gb (39.43 GiB)", torch="2.3.0", loading="lazy",
     mode="unknown", how="the full OOM message the reporter expected, quoted from an earlier run (workload not said)")
_row("diffsynth411", "in_step", "wangli68", "https://github.com/modelscope/DiffSynth-Studio/issues/411",
     _oom(94.14, 85.75, 3.97), gpu="h100-nvl (94.99 GiB)", torch=">=2.2", loading="lazy", mode="train",
     world_size=8, how="OOM message of rank 4: LoRA training of Wan2.1-T2V-14B on 8 x H100")
_row("lerf73", "in_step", "jiachen0212", "https://github.com/kerrj/lerf/issues/73",
     _oom(20.81, 12.09, 4.84), gpu="24gb (23.65 GiB) not named", torch="2.1", loading="lazy", mode="train",
     how="OOM message of a NeRF training", excluded="the job allocates outside PyTorch on purpose "
     "(tiny-cuda-nn hash grids), so the figure is not the process's overhead")

# --------------------------------------------------------------------------- found after the term was fixed
# Collected after the constants were committed (est30 commit a61ff54), looking for OOM messages whose GPU
# is named: held out by construction, never fitted (``late``).
LATE_FROM = len(ROWS)
_row("st3214", "in_step", "maayansharon10", "https://github.com/huggingface/sentence-transformers/issues/3214",
     _oom(44.47, 43.89, 79.61 / 1024), gpu="l40s-48gb", torch=">=2.2", loading="lazy", mode="train",
     how="OOM message of a Trainer hyper-parameter search on one NVIDIA L40S (44.52 GiB)")
_row("phidias8", "in_step", "mura-kami-6", "https://github.com/3DTopia/Phidias-Diffusion/issues/8",
     _oom(14.56, 13.86, 213.20 / 1024), gpu="rtx-4090", torch="2.1", loading="lazy", mode="infer",
     how="OOM message (torch 2.1 wording) of a diffusion model's inference on an RTX 4090 (23.64 GiB)")
_row("controlgic6", "in_step", "Chengbin-Liang", "https://github.com/lianqi1008/Control-GIC/issues/6",
     _oom(9.25, 8.27, 500.38 / 1024), gpu="a100-80gb", torch=">=2.2", loading="lazy", mode="infer",
     how="OOM message of image-compression inference on 'a single NVIDIA A100 card which has 80GB' "
         "(another process on the GPU, not counted)")
_row("varedit6", "in_step", "JiachengZuo", "https://github.com/HiDream-ai/VAREdit/issues/6",
     _oom(16.54, 15.94, 205.65 / 1024), gpu="a100-80gb", torch=">=2.2", loading="lazy", mode="infer",
     how="OOM message of the README's inference example on an A100 (79.25 GiB; another process on the GPU)")
_row("catvton133", "in_step", "far3x", "https://github.com/Zheng-Chong/CatVTON/issues/133",
     _oom(4.11, 3.72, 264.21 / 1024), gpu="t4 (GCP)", torch=">=2.2", loading="lazy", mode="infer",
     how="OOM message of a try-on inference service on a Tesla T4 (14.56 GiB)")
_row("hyavatar25", "in_step", "haojing8312", "https://github.com/Tencent-Hunyuan/HunyuanVideo-Avatar/issues/25",
     _oom(23.61, 23.16, 13.49 / 1024), gpu="rtx-4090", torch=">=2.2", loading="lazy", mode="infer",
     world_size=8, how="OOM message of rank 3 of a video-generation run on 8 x RTX 4090 (23.64 GiB)")
for _late in ROWS[LATE_FROM:]:
    _late["late"] = True

# --------------------------------------------------------------------------- vLLM profiling (forward only)
_row("vllm12126", "vllm_profile", "youkaichao", "https://github.com/vllm-project/vllm/pull/12126",
     round(0.16 * GIB), gpu="h100-80gb", torch="2.5", loading="lazy", mode="infer",
     how="'non_torch_memory takes 0.16GiB' (Llama-3.2-11B-Vision, enforce-eager, one GPU)")
_row("vllm14452", "vllm_profile", "JiapengLi", "https://github.com/vllm-project/vllm/issues/14452",
     round(0.33 * GIB), gpu="rtx-5090", torch="2.7", loading="lazy", mode="infer", world_size=2,
     how="'non_torch_memory takes 0.33GiB' (QwQ-32B bitsandbytes 4-bit, pipeline parallel 2)")
_row("vllm14447", "vllm_profile", "davidsyoung", "https://github.com/vllm-project/vllm/pull/14447",
     round(0.20 * GIB), gpu="24gb (23.58 GiB) not named", torch="2.6", loading="lazy", mode="infer",
     world_size=None, how="'non_torch_memory takes 0.20GiB' on every worker of a tensor-parallel MoE run")
_row("mellea416", "vllm_profile", "planetf1", "https://github.com/generative-computing/mellea/pull/416",
     round(0.16 * GIB), gpu="80gb (79.19 GiB) not named", torch="2.6", loading="lazy", mode="infer",
     how="'non_torch_memory takes 0.16GiB' (a 1 GiB model, one GPU)")
_row("vllm11251", "vllm_profile", "mces89", "https://github.com/vllm-project/vllm/issues/11251",
     round(0.39 * GIB), gpu="16gb (15.77 GiB) not named", torch="2.5", loading="lazy", mode="infer",
     world_size=None, how="'non_torch_memory takes 0.39GiB' with vLLM 0.6.4.post1",
     excluded="before vllm-project/vllm#11809 the figure was process memory less *allocated* memory, so it "
              "holds reserved-but-unallocated blocks too")

# --------------------------------------------------------------------------- NCCL
_row("nccl964-2", "nccl", "ConnollyLeon", "https://github.com/NVIDIA/nccl/issues/964",
     544 * 10 ** 6, gpu="a100 nvlink x4", torch="2.0", loading="lazy", mode="init", world_size=2,
     how="'for group with only 2 devices, it requires 544 MB' (one 4 MB all-reduce per group)",
     notes="est26 checked the NCCL term against it; est30 does not change that term")
_row("nccl964-4", "nccl", "ConnollyLeon", "https://github.com/NVIDIA/nccl/issues/964",
     688 * 10 ** 6, gpu="a100 nvlink x4", torch="2.0", loading="lazy", mode="init", world_size=4,
     how="'for group with more than 2 devices, it requires 688 MB'",
     notes="est26 checked the NCCL term against it; est30 does not change that term")


def scored(row: dict[str, Any]) -> bool:
    return row["value_bytes"] is not None and not row.get("excluded")


def assign_split(rows: list[dict[str, Any]]) -> None:
    """Within each kind of figure, publishers in SHA-1 order are held out until a third of that kind's
    scored rows are (a publisher held out for one kind is held out for every kind)."""
    held: set[str] = {r["publisher"] for r in rows if r.get("late")}
    for quantity in sorted({r["quantity"] for r in rows}):
        kind = [r for r in rows if r["quantity"] == quantity and not r.get("late")]
        publishers = sorted({r["publisher"] for r in kind}, key=lambda p: hashlib.sha1(p.encode()).hexdigest())
        total = sum(1 for r in kind if scored(r))
        count = sum(1 for r in kind if scored(r) and r["publisher"] in held)
        for p in publishers:
            if 3 * count >= total:
                break
            if p not in held:
                held.add(p)
                count += sum(1 for r in kind if r["publisher"] == p and scored(r))
    for r in rows:
        r["split"] = "held-out" if r["publisher"] in held else "fit"


def main() -> None:
    assign_split(ROWS)
    OUT.write_text(json.dumps({"rows": ROWS}, indent=1) + "\n")
    n = sum(1 for r in ROWS if scored(r))
    h = sum(1 for r in ROWS if scored(r) and r["split"] == "held-out")
    print(f"{len(ROWS)} rows, {n} scored, {h} held out -> {OUT}")


if __name__ == "__main__":
    main()
