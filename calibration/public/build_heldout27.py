"""The twenty-seventh held-out set (calibration/public/heldout27.json): 7 public rows (7 measured peaks) from one
repository no earlier split read: IDRIS's (CNRS, the Jean Zay / DALIA supercomputer centre) Democratizing-LLM-FT
benchmark of instruct fine-tuning with PyTorch FSDP2 (fully_shard per decoder layer and at the root, fp32 sharded
parameters with a bf16 MixedPrecisionPolicy, torch AdamW, 2 x 4,096 tokens per GPU, 64 GPUs, with and without
torch.compile): Qwen2.5-14B and -32B without activation checkpointing on DALIA's GB200s, and Qwen2.5-72B with full
activation checkpointing on Jean Zay's H100s and A100s. Each figure is the training script's own
``torch.cuda.max_memory_allocated()/2**30`` printed on rank 0 after 100 steps, read from the job logs committed beside
the script, the Slurm files and the collate function. Publisher idriscnrs (new).

Run: python calibration/public/build_heldout27.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the architecture catalog's
Qwen2.5 entries, the GPU catalog's names, and how held-out-18 and held-out-26 encode FSDP2 rows). Same row format as
devset.json (see build_devset.py). Every figure is the source's own.

1. idriscnrs/Democratizing-LLM-FT at 932e1bd (2025-12-02): FSDP_sAC.py (the training script: model loaded with
   torch_dtype="bfloat16" on every rank's CPU, ``fully_shard(layer.type(torch.float32), mp_policy=MixedPrecisionPolicy(
   param_dtype=torch.bfloat16, reduce_dtype=torch.float32))`` on each decoder layer then on the model, ``model.to(
   device)``, optional ``torch.compile(model)``, ``AdamW(params, lr, weight_decay=0.1, eps=1e-05)``, ``logits =
   model(input_ids, attention_mask=attention_mask).logits``, ``CrossEntropyLoss(ignore_index=-100)`` on the logits
   viewed as (bsz * seq_len, vocab), a torchmetrics Perplexity updated on the same logits, ``loss.backward()``,
   clip_grad_norm_ 1.0, ``optimizer.step()``, ``optimizer.zero_grad()``; at the end ``print(f'MaxMemory for
   GPU:{RANK} {torch.cuda.max_memory_allocated()/2**30} GBytes')`` on rank 0); utils/ac_handler.py
   (apply_fsdp_checkpointing: torch's non-reentrant checkpoint_wrapper on a share p of the decoder layers, p = 0 none,
   p = 1 every layer); utils/dataset.py (make_sft_collate: every sample tokenized with the chat template, truncated at
   4,097 tokens and left-padded to 4,097, then shifted: every batch is exactly 4,096 tokens); slurm/*.slurm (the launch
   lines: ``--test --model Qwen/Qwen2.5-<N>B-Instruct --sac <p> --bsz 2 --grad-acc 1 [--compile]``, 16 nodes x 4 GPUs
   on DALIA and Jean Zay's H100 partition gpu_p6, 8 nodes x 8 GPUs on the A100 partition gpu_p5; containers
   nemo2506_arm.sif on DALIA, nemo2506_amd.sif on Jean Zay); logs/out/*.out (each log's first line states the world
   size, batch per device, sequence length, sAC ratio, accumulation and compile of that run; its last figure is the
   peak). The training path of FSDP_sAC.py is the same at c6998b4 (2025-11-24, the first Jean Zay logs), 331938c and
   14ea99a (2025-11-29, the DALIA logs); only the checkpoint saving outside ``--test`` changed.

Left out on purpose (decided before scoring, by what is known; the repository holds 41 logs): the 13 logs with a
partial checkpointing ratio (sAC 1/4, 1/2 and 3/4: torch's wrapper on one layer in four, every second layer or three
layers in four; the estimator has no input for a share of layers checkpointed); the 21 NeMo logs (nemo_TPFSDP2.py: NeMo
2's HFAutoModelForCausalLM under a Lightning FSDP2Strategy with Transformer Engine's fused Adam
(``--use-te-optimizer``), Liger kernels and the linear cross-entropy; the weights' dtype and the optimizer states'
dtypes are not stated in what is read; 12 of them add tensor parallelism, which the estimator cannot express; three
print no peak: the two FSDP 72B runs at micro batch 1 and one tensor-parallel 72B run at micro batch 16); the
repository's poster and results figure (images of the same runs); the TODO/AutoModel recipe (no log)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-27"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
IDRIS = "idris-democratizing-llm-ft-fsdp2-qwen2.5"
REPO = f"{GH}/idriscnrs/Democratizing-LLM-FT/blob/932e1bd79f9c68d127bfc9c2a6dfcc90b53207d7"

SOURCES = {
    IDRIS: {
        "url": f"{REPO}/FSDP_sAC.py",
        "also": [f"{REPO}/utils/ac_handler.py (apply_fsdp_checkpointing: checkpoint_wrapper on a share p of the "
                 "decoder layers; p = 0 none, p = 1 all)",
                 f"{REPO}/utils/dataset.py (make_sft_collate: left-padded to max_seq_length + 1, then shifted: 4,096 "
                 "tokens per sample)",
                 f"{REPO}/slurm/DALIA_FSDP_sAC_14B.slurm (16 nodes x 4 GPUs, nemo2506_arm.sif, --sac 0 --bsz 2 "
                 "--grad-acc 1 --compile)",
                 f"{REPO}/slurm/FSDP_sAC_h100_72B.slurm (16 nodes x 4 H100, gpu_p6, nemo2506_amd.sif, --sac 1 --bsz 2)",
                 f"{REPO}/slurm/FSDP_sAC_a100_72B_.slurm (8 nodes x 8 A100, gpu_p5, nemo2506_amd.sif, --sac 1 --bsz 2)",
                 f"{REPO}/logs/out (the job logs: each run's settings line and its 'MaxMemory for GPU:0' figure)",
                 f"{REPO}/README.md (the benchmark's purpose: instruct fine-tuning on 64 GPUs, FSDP2, selective "
                 "activation checkpointing, torch.compile, 4,096 tokens)"],
        "setup": "full instruct fine-tuning of Qwen2.5-{14,32,72}B-Instruct on tulu-3-sft-mixture with PyTorch FSDP2 "
                 "(fully_shard on each Qwen2DecoderLayer and on the model; fp32 sharded parameters, bf16 compute "
                 "through MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)), torch AdamW, 2 samples x 4,096 "
                 "tokens per GPU (left-padded to the length), no accumulation, 64 GPUs, activation checkpointing on "
                 "none or all decoder layers, with or without torch.compile(model); the loss computed by the script "
                 "on the bf16 logits; 'MaxMemory for GPU:0' = torch.cuda.max_memory_allocated()/2**30 on rank 0 after "
                 "100 steps",
        "versions": {"torch": "not stated: the NeMo 25.06 container (nemo2506_*.sif); 2.8.0 written (the slurm files' "
                              "commented-out alternative 'module load pytorch-gpu/py3/2.8.0')",
                     "transformers": "not stated (the container's)", "torchmetrics": "not stated"},
        "date": "2025-11-24 to 2025-11-29 (the logs' commits; the DALIA logs are dated Fri Nov 28 2025)",
        "project": "idriscnrs/Democratizing-LLM-FT (IDRIS, CNRS; benchmark repository with job logs)",
    },
}

QWEN25_72B = {  # Qwen/Qwen2.5-72B-Instruct config.json (the same shapes as the catalog's Qwen2-72B)
    "model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 8192,
    "intermediate_size": 29568, "num_hidden_layers": 80, "num_attention_heads": 64,
    "num_key_value_heads": 8, "vocab_size": 152064, "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-06, "tie_word_embeddings": False,
}
MODELS: dict[str, tuple[dict[str, Any], int]] = {  # size -> (setup keys, the log's 'number of parameters')
    "14B": (dict(model="Qwen2.5-14B", model_name="Qwen/Qwen2.5-14B-Instruct"), 14770033664),
    "32B": (dict(model="Qwen2.5-32B", model_name="Qwen/Qwen2.5-32B-Instruct"), 32763876352),
    "72B": (dict(hf_config=QWEN25_72B, model_name="Qwen/Qwen2.5-72B-Instruct"), 72706203648),
}
MACHINES = {  # machine -> (GPU written, GPUs per node, how it was read)
    "dalia": ("GB200-186GB", 4, "DALIA (IDRIS's Grace-Blackwell system: ARM container nemo2506_arm.sif, 4 GPUs a "
                                "node): the catalog's GB200-186GB written; the 14B no-compile run's 107 GiB and the "
                                "32B run's 148 GiB exceed any 80 GB card"),
    "h100": ("H100-SXM-80GB", 4, "Jean Zay's gpu_p6 partition (-C h100, 4 GPUs a node): H100 SXM 80GB written"),
    "a100": ("A100-SXM-80GB", 8, "Jean Zay's gpu_p5 partition (-C a100, 8 GPUs a node): A100 SXM4 80GB written"),
}
BASE = dict(mode="train", precision="amp-bf16", optimizer="adamw", micro_batch=2, grad_accum=1, seq_len=4096,
            padding="max_length", world_size=64, fsdp="full", fsdp_version=2, load_placement="sharded",
            attention="sdpa", loss="standard", loss_in_logits_dtype=True, compiled_loss=False, use_cache=False,
            torch_version="2.8.0")
UNKNOWN = (
    "precision: the model is loaded in bf16, then each decoder layer and the model are cast to fp32 "
    "(layer.type(torch.float32)) and sharded by fully_shard with MixedPrecisionPolicy(param_dtype=bf16, "
    "reduce_dtype=fp32): fp32 sharded parameters, gradients and AdamW states, bf16 gathered weights and compute; "
    "written amp-bf16 as held-out-18 writes fully_shard with a bf16 MixedPrecisionPolicy",
    "optimizer: torch.optim.AdamW with foreach and fused unset (None: torch's CUDA default, foreach) written adamw",
    "sequence: make_sft_collate left-pads every sample to 4,097 tokens and drops one (input_ids[..., :-1]): every "
    "batch is 2 x 4,096 tokens ('max_length'); the attention mask marks the padding",
    "attention: FSDP_sAC.py passes no attn_implementation; transformers' default for Qwen2 (sdpa) written",
    "loss: the script takes the logits the model returns (no labels passed) and runs CrossEntropyLoss on them in "
    "their dtype (bf16 under the mixed-precision policy): loss 'standard' with loss_in_logits_dtype; the compiled "
    "runs compile the model only (torch.compile(model)), the loss runs eagerly: compiled_loss False",
    "the torchmetrics Perplexity is updated on the same logits before backward (a softmax over the vocabulary; "
    "whether torchmetrics holds it in the logits' dtype or fp32 is not read here); the estimator has no input for it",
    "use_cache: FSDP_sAC.py sets model.config.use_cache = False whenever --sac is given (every run here passes it)",
    "load placement: every rank loads the whole model on its CPU, shards it with fully_shard on the CPU and moves "
    "its shards with model.to(device): the GPU never holds the whole model ('sharded' written). The logs' "
    "'Pre-loop Model MaxMemory' (6.66 GiB for 14B, 7.71 for 32B, 13.51 for 72B) is printed as the source gives it",
    "torch version: the NeMo 25.06 container's PyTorch build is not stated in the repository; 2.8.0 written from "
    "the slurm files' commented-out 'module load pytorch-gpu/py3/2.8.0'; transformers and torchmetrics versions "
    "not stated",
    "'GBytes' read as GiB: the script divides max_memory_allocated() by 2**30",
)
RUNS = (  # (row id, log file, machine, size, checkpointing, compiled, printed GiB)
    ("qwen2.5-14b-full-fsdp2-noac-compile-b2-s4096-64xgb200", "DALIA_FSDP_sAC_14B_5434.out", "dalia", "14B", False,
     True, 82.14638185501099),
    ("qwen2.5-14b-full-fsdp2-noac-eager-b2-s4096-64xgb200", "DALIA_FSDP_sAC_14B_5435.out", "dalia", "14B", False,
     False, 107.42760133743286),
    ("qwen2.5-32b-full-fsdp2-noac-compile-b2-s4096-64xgb200", "DALIA_FSDP_sAC_32B_5431.out", "dalia", "32B", False,
     True, 148.18441438674927),
    ("qwen2.5-72b-full-fsdp2-fullac-compile-b2-s4096-64xh100", "FSDP_sAC_h100_72B_1915512.out", "h100", "72B", True,
     True, 42.486295223236084),
    ("qwen2.5-72b-full-fsdp2-fullac-eager-b2-s4096-64xh100", "FSDP_sAC_h100_72B_1915697.out", "h100", "72B", True,
     False, 43.51562261581421),
    ("qwen2.5-72b-full-fsdp2-fullac-eager-b2-s4096-64xa100", "FSDP_sAC_a100_72B_1966947.out", "a100", "72B", True,
     False, 43.34417390823364),
    ("qwen2.5-72b-full-fsdp2-fullac-compile-b2-s4096-64xa100", "FSDP_sAC_a100_72B_1984860.out", "a100", "72B", True,
     True, 45.90084505081177),
)
for _rid, _log, _machine, _size, _ckpt, _compiled, _gib in RUNS:
    _gpu, _per_node, _gpu_note = MACHINES[_machine]
    _model, _nparams = MODELS[_size]
    _sac = "1" if _ckpt else "0"
    _settings = (f"world size:64, GBS:128, BSperDev:2, seq. length:4096, sAC ratio:{_sac}, grad accumulation:1, "
                 f"compile:{_compiled}")
    _ckpt_note = ("activation checkpointing: --sac 1, torch's non-reentrant checkpoint_wrapper on every "
                  "Qwen2DecoderLayer (apply_activation_checkpointing), written grad_ckpt" if _ckpt else
                  "activation checkpointing: --sac 0, apply_fsdp_checkpointing wraps no layer (p = 0: 'no ac for all "
                  "blocks'), written no checkpointing")
    add(IDRIS, _rid, _gib, "GiB", "max_memory_allocated", _gpu,
        dict(BASE, **_model, devices_per_node=_per_node, grad_ckpt=_ckpt, compiled=_compiled),
        unknown=(*UNKNOWN, _ckpt_note, _gpu_note),
        notes=f"idriscnrs/Democratizing-LLM-FT logs/out/{_log}: '{_settings}', 'number of parameters: {_nparams}', "
              f"'MaxMemory for GPU:0 {_gib} GBytes'")


def main():
    write_split("heldout27", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
