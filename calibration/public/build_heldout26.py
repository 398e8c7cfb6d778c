"""The twenty-sixth held-out set (calibration/public/heldout26.json): 20 public rows (19 measured peaks, 1 out-of-memory
verdict) from three pages no earlier split read: NVIDIA NeMo AutoModel's gradient-checkpointing guide (Llama-3.2-1B trained
at 8 x 2,048 tokens on H100s: one GPU, FSDP2 on eight, FSDP2 with activation checkpointing, and with the fused linear
cross-entropy added; torch.cuda.max_memory_allocated averaged over the ranks), and two measurements of the same litgpt LoRA
/ QLoRA tutorial table (StableLM-3B and Llama-2-7B on Alpaca at micro batch 4: bf16-mixed with fp32 weights, bf16-true,
NF4 and NF4 with double quantization, with and without bf16-true; lit-gpt's 'Memory used' = max_memory_allocated): the
tutorial as of Aug/Sep 2023 (commit 064fd52) and its re-measurement after lit-gpt moved to Fabric's quantization (PR #596,
2023-10-03). Every row sourced, the source's printed figure kept, and what the source leaves open recorded as unknown.
Publishers: NVIDIA-NeMo (new) and Lightning-AI (litgpt: devset, held-out-9, held-out-25's Thunder pages); the three
pages are new.

Run: python calibration/public/build_heldout26.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the architecture reader's list
of model types, and how the devset and held-out-3/-12/-13/-14/-18/-19 encode litgpt, FSDP2, fused-loss and QLoRA rows).
Same row format as devset.json (see build_devset.py). Every figure is the source's own.

1. NVIDIA-NeMo/Automodel docs/guides/gradient-checkpointing.md (the version at 0e90101, the same table also at 52255633 /
   55651730 of the stored history): "## Example Memory Savings (H100-80GB, Llama-3.2-1B)" | Technique | Max GPU Mem (GB)
   | Δ vs Baseline |: "Baseline | 53.03 | -", "+ FSDP (dp_size=8) | 47.59 | ↓ 10 %", "+ Gradient Checkpointing | 33.06 |
   ↓ 38 %", "+ LC-CE | 7.30 | ↓ 86 %", "**FSDP + LC-CE + Checkpointing** | **7.30** | **↓ 86 %**"; note: "Measurements
   taken with local batch size = 8, sequence len = 2048, AdamW, PyTorch 2.8." and "Peak memory reported by
   `torch.cuda.max_memory_allocated()` averaged across DP ranks." Read as cumulative (the '+ LC-CE' row equals the
   'FSDP + LC-CE + Checkpointing' row): four distinct setups, four rows. An earlier version of the same page (a Llama-3-8B
   / A100 table with 'PyTorch 2.3', non-cumulative figures) was replaced by this one and is left out.
2. Lightning-AI/litgpt tutorials/finetune_lora.md at 064fd52: "The table below lists a comparison with different settings
   on a StableLM 3B model finetuned with LoRA on Alpaca for 5,000 iterations using a microbatch size of 4" (Training
   Memory: Default (bfloat16-mixed) 33.50 GB, --precision "bf16-true" 15.86 GB, --quantize "bnb.nf4" 22.34 GB, --quantize
   "bnb.nf4-dq" 22.18 GB, bf16-true + nf4 14.81 GB, bf16-true + nf4-dq 14.65 GB) and "the results for Llama 2 7B on
   Alpaca for 5,000 iterations using a microbatch size of 4" (Default (bfloat16-mixed) OutOfMemoryError, bf16-true 20.60
   GB, nf4 19.62 GB, nf4-dq 19.32 GB, bf16-true + nf4 13.44 GB, bf16-true + nf4-dq 13.15 GB). The same figures appear in
   rasbt's comment of 2023-08-16 on lit-gpt PR #275 (the measurements' origin; not a second source).
3. Lightning-AI/litgpt PR #596 ("Use Fabric's quantization", carmocca, review thread of 2023-10-03 on
   tutorials/finetune_lora.md): the StableLM 3B table replaced by "| Default (bf16-mixed) | 38.01 GB | 591.78s | 0.9207 |
   21.49 GB |", "| --precision bf16-true | 19.40 GB | 592.14s | 0.9180 | 7.35 GB |", "| --precision bf16-true --quantize
   bnb.nf4 | 19.13 GB | 802.02s | 0.9408 | 3.26 GB |", "| --precision bf16-true --quantize bnb.nf4-dq | 18.97 GB |
   802.94s | 0.9384 | 3.09 GB |" (the same settings, 5,000 iterations at micro batch 4, re-measured after the quantization
   moved to Fabric's BitsandbytesPrecision; the Llama 2 7B rows of that diff are not readable here and are left out).

Left out on purpose (decided before scoring, by what is known): later versions of tutorials/finetune_lora.md (micro batch
1, 1,000 iterations: the same figures as the devset's resource tables); lit-gpt PR #694 (LLaMA-Adapter, which the
estimator cannot express); NVIDIA-NeMo/Automodel PRs #2634 (phi-4 on SQuAD) and #2585 (Gemma-2-9B on SQuAD): their peaks
depend on the longest SQuAD sample of the batches they drew, which no source states; huggingface/peft's MetaMathQA
method comparison (its 'cuda_memory_max' spans the evaluation's batch-50 generation); torchtitan's performance.md
(selective activation checkpointing and Float8, neither expressible); transformers' model-doc SDPA tables (DistilBERT:
read by held-out-4; BEiT, BioGPT, ViViT: model types without a reader)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-26"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
AM = "automodel-gradient-checkpointing-guide-llama3.2-1b"
LORA = "litgpt-finetune-lora-tutorial-064fd52"
FABRIC = "litgpt-pr-596-fabric-quantization-remeasure"

SOURCES = {
    AM: {
        "url": f"{GH}/NVIDIA-NeMo/Automodel/blob/0e901019e973860a61de9e4dbdd1557cff97ecc7/docs/guides/"
               "gradient-checkpointing.md",
        "also": [f"{GH}/NVIDIA-NeMo/Automodel/blob/13daecb11d44c3e9a1bc683f04a62d5271f573c3/docs/guides/"
                 "mixed-precision-training.md (model.torch_dtype unset resolves to bf16 resident parameters; torch "
                 "AdamW state then in bf16)",
                 f"{GH}/NVIDIA-NeMo/Automodel/blob/080dca533b63291983ff936c9b2433f7958d6a7b/examples/llm_finetune/"
                 "llama3_2/llama3_2_1b_squad.yaml (the Llama-3.2-1B recipe: FSDP2, MaskedCrossEntropy, no torch_dtype)"],
        "setup": "NeMo AutoModel's LLM fine-tuning recipe with meta-llama/Llama-3.2-1B on H100-80GB: local batch 8 x 2,048 "
                 "tokens, AdamW, PyTorch 2.8; baseline, then FSDP2 over 8 ranks (dp_size=8), then activation "
                 "checkpointing, then the fused linear cross-entropy (LC-CE, FusedLinearCrossEntropy: no logits); "
                 "'Max GPU Mem' = torch.cuda.max_memory_allocated() averaged across DP ranks",
        "versions": {"torch": "2.8 (stated)", "nemo_automodel": "main, 2025 (not stated)",
                     "transformers": "not stated (4.5x, 2025)"},
        "date": "2025 (the page's current version; earlier versions showed a Llama-3-8B table instead)",
        "project": "NVIDIA-NeMo/Automodel (NVIDIA, docs)",
    },
    LORA: {
        "url": f"{GH}/Lightning-AI/litgpt/blob/064fd523128cdc1bfc4d76cfeff67cb36078e56b/tutorials/finetune_lora.md",
        "also": [f"{GH}/Lightning-AI/litgpt/pull/275 (rasbt 2023-08-16: the same StableLM 3B figures at 10,000 "
                 "iterations, micro batch 4; the measurements' origin)"],
        "setup": "lit-gpt's finetune/lora.py defaults of Aug 2023: LoRA r 8, alpha 16, dropout 0.05 on the query and value "
                 "parts of the fused qkv projection, micro batch 4, batch 128 (32 accumulation steps), AdamW, Alpaca "
                 "prepared by scripts/prepare_alpaca.py (no truncation below the block size), each batch padded to its "
                 "longest sample and the longest training sample forced into the first step; --precision "
                 "bf16-mixed (default: fp32 weights, bf16 autocast) or bf16-true; --quantize bnb.nf4 / bnb.nf4-dq "
                 "(bitsandbytes 4-bit linears, no k-bit preparation); 'Training Memory' = the script's 'Memory used' "
                 "= torch.cuda.max_memory_allocated() / 1e9",
        "versions": {"torch": "2.1 nightly (lit-gpt required torch>=2.1.0.dev then; 2.1.0 written)",
                     "bitsandbytes": "0.41 (not stated)", "lit-gpt": "commit 064fd52 (Aug/Sep 2023)"},
        "date": "2023-08 (PR #275 comment 2023-08-16; tutorial text at 064fd52)",
        "project": "Lightning-AI/litgpt (rasbt, tutorial)",
    },
    FABRIC: {
        "url": f"{GH}/Lightning-AI/litgpt/pull/596",
        "also": [],
        "setup": "the same StableLM 3B LoRA run as the tutorial (5,000 iterations at micro batch 4 on Alpaca, LoRA r 8 on "
                 "query and value) re-measured after lit-gpt used Fabric's BitsandbytesPrecision plugin for --quantize "
                 "(PR #596, merged Oct 2023); 'Training Memory' = max_memory_allocated / 1e9",
        "versions": {"torch": "2.1.0 (Oct 2023; not stated)", "lit-gpt": "PR #596 (2023-09-29 to 2023-10-03)",
                     "bitsandbytes": "0.41 (not stated)"},
        "date": "2023-10-03 (review thread on the PR)",
        "project": "Lightning-AI/litgpt (carmocca, PR)",
    },
}

# ------------------------------------------------------------------ 1. AutoModel, Llama-3.2-1B on H100s
AM_UNKNOWN = (
    "the table states batch 8 x 2,048, AdamW and PyTorch 2.8 only; the recipe the page runs "
    "(examples/llm_finetune/llama3_2/llama_3_2_1b_my_finetune.yaml) is the reader's own copy; read as the Llama-3.2-1B "
    "SQuAD recipe (FSDP2 strategy, MaskedCrossEntropy on the logits with an fp32 upcast, no torch_dtype: bf16 resident "
    "weights, so torch AdamW keeps its two states in bf16 and there is no fp32 master copy: precision 'bf16' written)",
    "'sequence len = 2048': every sample written at 2,048 tokens (padding max_length); the dataset is not stated",
    "'Max GPU Mem (GB)' read as GB = 1e9 bytes of torch.cuda.max_memory_allocated(), averaged over the DP ranks",
    "'Baseline' read as one GPU without FSDP sharding (the next row adds 'FSDP (dp_size=8)'); whether the baseline ran on "
    "one rank or as DDP on eight is not stated",
    "the rows are read as cumulative: '+ Gradient Checkpointing' is FSDP + checkpointing, '+ LC-CE' is FSDP + "
    "checkpointing + LC-CE (its figure equals the 'FSDP + LC-CE + Checkpointing' row)",
    "activation checkpointing: AutoModel's FSDP2 'activation_checkpointing: true' (full checkpointing of each decoder "
    "layer); LC-CE: nemo_automodel FusedLinearCrossEntropy with output_hidden_states, no logits materialised ('fused')",
    "whether NeMoAutoModelForCausalLM patched the model with Liger kernels (RMSNorm, SwiGLU, RoPE) is not stated; "
    "attention written sdpa",
    "est56 (after scoring, in-sample): Liger written (liger_kernels) from the code of the commit that added the table "
    "(b4733bdc1, 2025-09-18, 'feat: gradient checkpointing (#289)'): pyproject.toml line 15 makes liger-kernel>=0.5.9 a "
    "dependency on x86_64 Linux; nemo_automodel/components/_transformers/auto_model.py line 176 "
    "'use_liger_kernel: bool = True' and line 277 'model = _patch_liger_kernel(model)', which calls "
    "liger_kernel_trf._apply_liger_kernel_to_instance(model=model) (line 112); the recipe sets no use_liger_kernel",
    "est56 (after scoring, in-sample): checkpointing written per submodule (ckpt_submodules) from the same commit: "
    "nemo_automodel/components/distributed/parallelizer.py, DefaultParallelizationStrategy (Llama's, line 272), lines "
    "148-170 wrap layers[i].mlp, self_attn, input_layernorm and post_attention_layernorm each in checkpoint_wrapper "
    "for activation_checkpointing, not the decoder layer",
    "'H100-80GB' written as the catalog's H100-SXM-80GB",
)
AM_BASE = dict(mode="train", model="Llama-3.2-1B", model_name="meta-llama/Llama-3.2-1B", precision="bf16",
               optimizer="adamw", micro_batch=8, grad_accum=1, seq_len=2048, padding="max_length", attention="sdpa",
               torch_version="2.8.0", use_cache=False, liger_kernels=True)
AM_ROWS = (  # (row id, printed GB, the table's row, setup changes)
    ("llama3.2-1b-full-bf16-adamw-b8-s2048-1gpu-baseline", 53.03, "| Baseline | 53.03 | - |",
     dict(world_size=1, grad_ckpt=False, loss="standard")),
    ("llama3.2-1b-full-bf16-adamw-b8-s2048-fsdp2-8xh100", 47.59, "| + FSDP (dp_size=8) | 47.59 | ↓ 10 % |",
     dict(world_size=8, devices_per_node=8, fsdp="full", fsdp_version=2, load_placement="sharded", grad_ckpt=False,
          loss="standard")),
    ("llama3.2-1b-full-bf16-adamw-b8-s2048-fsdp2-ckpt-8xh100", 33.06, "| + Gradient Checkpointing | 33.06 | ↓ 38 % |",
     dict(world_size=8, devices_per_node=8, fsdp="full", fsdp_version=2, load_placement="sharded", grad_ckpt=True,
          ckpt_submodules=True, loss="standard")),
    ("llama3.2-1b-full-bf16-adamw-b8-s2048-fsdp2-ckpt-lcce-8xh100", 7.30,
     "| + LC-CE | 7.30 | ↓ 86 % | and | **FSDP + LC-CE + Checkpointing** | **7.30** | **↓ 86 %** |",
     dict(world_size=8, devices_per_node=8, fsdp="full", fsdp_version=2, load_placement="sharded", grad_ckpt=True,
          ckpt_submodules=True, loss="fused")),
)
for _rid, _gb, _cells, _extra in AM_ROWS:
    add(AM, _rid, _gb, "GB", "max_memory_allocated", "H100-SXM-80GB", dict(AM_BASE, **_extra), unknown=AM_UNKNOWN,
        notes=f"NVIDIA-NeMo/Automodel docs/guides/gradient-checkpointing.md, 'Example Memory Savings (H100-80GB, "
              f"Llama-3.2-1B)': '{_cells}'; 'Measurements taken with local batch size = 8, sequence len = 2048, AdamW, "
              f"PyTorch 2.8.'; 'Peak memory reported by torch.cuda.max_memory_allocated() averaged across DP ranks.'")

# ------------------------------------------------------------------ 2./3. lit-gpt LoRA / QLoRA on Alpaca, micro batch 4
STABLELM = {"model_type": "gpt_neox", "hidden_size": 4096, "intermediate_size": 16384, "num_hidden_layers": 16,
            "num_attention_heads": 32, "vocab_size": 50688, "max_position_embeddings": 4096,
            "tie_word_embeddings": False, "rotary_pct": 0.25, "use_parallel_residual": True,
            "architectures": ["GPTNeoXForCausalLM"]}
LIT_BASE = dict(mode="train", optimizer="adamw", micro_batch=4, grad_accum=32, lora_r=8, lora_targets=["q_proj", "v_proj"],
                lora_dropout=0.05, attention="sdpa", loss="chunked", world_size=1, grad_ckpt=False, model_impl="litgpt",
                torch_version="2.1.0")
LIT_UNKNOWN = (
    "the GPU is not stated: the page's intro says 'a single RTX 3090 (24GB)', but the table's figures exceed 24 GB; the "
    "author's runs of the time (the repository's resource tables, same author) used an A100-SXM4-40GB: A100-SXM-40GB "
    "written (it matters only for the verdict and the CUDA context)",
    "'Training Memory' read as the script's 'Memory used: {torch.cuda.max_memory_allocated() / 1e9:.02f} GB' (GB = 1e9 "
    "bytes), printed after training",
    "sequence length: lit-gpt's finetune/lora.py of the time pads each micro batch to its longest sample and forces the "
    "longest training sample into the first step; the longest Alpaca sample is written as the devset does for the same "
    "script (1,034 tokens for StableLM's tokenizer, 1,304 for Llama 2's), the other samples of that batch padded to it",
    "--precision bf16-mixed (the default): fp32 weights and fp32 LoRA/AdamW states under bf16 autocast ('amp-bf16'); "
    "bf16-true: bf16 weights, LoRA parameters and AdamW states ('bf16')",
    "--quantize bnb.nf4 / bnb.nf4-dq: the frozen linear weights stored as bitsandbytes NF4 (double quantization for "
    "-dq); the rest of the model (embeddings, norms, head) in the precision's dtype; no prepare_model_for_kbit_training",
    "the loss: lit-gpt's chunked_cross_entropy over the lm_head's chunked output ('chunked', as the devset writes it)",
    "LoRA: lit-gpt's LoRAQKVLinear on the fused qkv projection with query and value enabled (written q_proj, v_proj)",
)
LLAMA2_NOTE = "Llama 2 7B: the catalog's Llama-2-7B (litgpt's Llama-2-7b-hf config has the same shapes)"
LLAMA2_SEQ = (
    "est56 (after scoring, in-sample): the sequence length re-read in lit-gpt at 064fd52; what the pinned code runs is 4 x "
    "the longest sample: finetune/lora.py line 37 'override_max_seq_length = None', line 171 get_max_seq_length(train_data) "
    "(lines 316-325: the longest tokenized sample), line 208 passes longest_seq_ix at iter_num 0 and get_batch (lines "
    "290-303) forces that sample into the first micro batch of 4 and pads the others to it; scripts/prepare_alpaca.py "
    "line 44 truncates at the model's block_size (4,096 for Llama-2-7b-hf, lit_gpt/config.py line 512), which no Alpaca "
    "sample reaches; lit-gpt's own count of that sample for Llama 2 is 1,304 tokens (tutorials/resource-tables.md, "
    "#663, 0cc02afa). So 1,304 stays. The table's figures are not consistent with it (20.60 GB at micro batch 4, where "
    "the same script measured 21.30 GB at micro batch 1 in Oct 2023): how the Aug 2023 runs prepared their data is not "
    "stated anywhere read (prepare_alpaca.py truncated at a max_seq_length argument, default 256, before c38f191e of "
    "2023-06-10; from 5ac1b086 of 2023-09-13 the argument is back with the block size as default); the rows stay scored"
)
# est58 (after scoring, in-sample): the five measured Llama 2 rows are below what the setting the pinned code runs must
# keep, counted by hand from the shapes alone (no estimator term), as est51 did for torchtune's README rows.
LLAMA2_FLOOR = (
    "est58: the stated setting cannot give these figures: at 064fd52 finetune/lora.py pads the first micro batch of 4 "
    "to the longest sample (1,304 tokens: 5,216 tokens) without activation checkpointing (line 85 sets it only in the "
    "FSDPStrategy of devices > 1; line 35 devices = 1); with LoRA on q and v every one of the 32 layers keeps for backward at least SDPA's q, k, v and output "
    "(4 x 2 x 4,096 bytes per token) and the SwiGLU's gate, up and silu outputs (3 x 2 x 11,008; the frozen fc_1, fc_2 "
    "and proj need no saved input): 98,816 B x 32 x 5,216 = 16.49 GB in 2-byte elements, alone above the 13.44 / 13.15 "
    "GB read with bf16-true and NF4; with the blocks' NF4 weights (32 x (4 x 4,096^2 + 3 x 4,096 x 11,008) = 6.48e9 x "
    "0.5 B = 3.24 GB) and bf16-mixed's fp32 embedding (0.52 GB) 20.26 GB against 19.62 / 19.32 GB; with bf16-true's "
    "6.74e9 x 2 = 13.48 GB of weights 29.97 GB against 20.60 GB; what the "
    "Aug 2023 runs fed the model is not stated (the same script's Oct 2023 resource table read 21.30 GB at micro "
    "batch 1, floor 17.6 GB)")
LIT_SETTINGS = {  # settings key -> (precision, quant fields)
    "default-bf16-mixed": ("amp-bf16", {}),
    "bf16-true": ("bf16", {}),
    "nf4": ("amp-bf16", dict(quant="4bit", quant_type="nf4", double_quant=False, kbit_prepared=False)),
    "nf4-dq": ("amp-bf16", dict(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False)),
    "bf16-true-nf4": ("bf16", dict(quant="4bit", quant_type="nf4", double_quant=False, kbit_prepared=False)),
    "bf16-true-nf4-dq": ("bf16", dict(quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False)),
}
LIT_CELLS = {  # settings key -> the tutorial's 'Settings' cell
    "default-bf16-mixed": "Default (bfloat16-mixed)", "bf16-true": "--precision \"bf16-true\"",
    "nf4": "--quantize \"bnb.nf4\"", "nf4-dq": "--quantize \"bnb.nf4-dq\"",
    "bf16-true-nf4": "--precision \"bf16-true\"  --quantize \"bnb.nf4\"",
    "bf16-true-nf4-dq": "--precision \"bf16-true\"  --quantize \"bnb.nf4-dq\"",
}
TUTORIAL = {  # (model, settings) -> GB, or None for 'OutOfMemoryError'; tutorials/finetune_lora.md at 064fd52
    ("stablelm-3b", "default-bf16-mixed"): 33.50, ("stablelm-3b", "bf16-true"): 15.86, ("stablelm-3b", "nf4"): 22.34,
    ("stablelm-3b", "nf4-dq"): 22.18, ("stablelm-3b", "bf16-true-nf4"): 14.81, ("stablelm-3b", "bf16-true-nf4-dq"): 14.65,
    ("llama-2-7b", "default-bf16-mixed"): None, ("llama-2-7b", "bf16-true"): 20.60, ("llama-2-7b", "nf4"): 19.62,
    ("llama-2-7b", "nf4-dq"): 19.32, ("llama-2-7b", "bf16-true-nf4"): 13.44, ("llama-2-7b", "bf16-true-nf4-dq"): 13.15,
}
FABRIC_TABLE = {  # StableLM 3B, PR #596's replacement table
    "default-bf16-mixed": (38.01, "| Default (bf16-mixed) | 38.01 GB | 591.78s | 0.9207 | 21.49 GB |"),
    "bf16-true": (19.40, "| --precision bf16-true | 19.40 GB | 592.14s | 0.9180 | 7.35 GB |"),
    "bf16-true-nf4": (19.13, "| --precision bf16-true --quantize bnb.nf4 | 19.13 GB | 802.02s | 0.9408 | 3.26 GB |"),
    "bf16-true-nf4-dq": (18.97,
                         "| --precision bf16-true --quantize bnb.nf4-dq | 18.97 GB | 802.94s | 0.9384 | 3.09 GB |"),
}


def lit_setup(model: str, settings: str) -> dict:
    precision, quant = LIT_SETTINGS[settings]
    if model == "stablelm-3b":
        arch = dict(hf_config=STABLELM, model_name="stabilityai/stablelm-base-alpha-3b", seq_len=1034)
    else:
        arch = dict(model="Llama-2-7B", model_name="meta-llama/Llama-2-7b-hf", seq_len=1304)
    return dict(LIT_BASE, precision=precision, **arch, **quant)


for (_model, _settings), _gb in TUTORIAL.items():
    _rid = f"{_model}-lora-r8-qv-{_settings}-mb4-alpaca"
    _unknown = (*LIT_UNKNOWN, LLAMA2_NOTE, LLAMA2_SEQ) if _model == "llama-2-7b" else LIT_UNKNOWN
    _title = "StableLM 3B" if _model == "stablelm-3b" else "Llama 2 7B"
    _notes = (f"litgpt tutorials/finetune_lora.md at 064fd52, the {_title} table ('5,000 iterations using a microbatch "
              f"size of 4'): Settings '{LIT_CELLS[_settings]}', Training Memory "
              + (f"'{_gb:.2f} GB'" if _gb is not None else "'OutOfMemoryError'"))
    if _gb is None:
        add_oom(LORA, _rid, "max_memory_allocated", "A100-SXM-40GB", lit_setup(_model, _settings),
                unknown=(*_unknown, "the out-of-memory verdict is read on the GPU written above (A100 40GB); on an "
                         "80GB card the verdict would not hold"), notes=_notes)
    else:
        add(LORA, _rid, _gb, "GB", "max_memory_allocated", "A100-SXM-40GB", lit_setup(_model, _settings),
            unknown=_unknown, notes=_notes, not_scored=LLAMA2_FLOOR if _model == "llama-2-7b" else "")

for _settings, (_gb, _cells) in FABRIC_TABLE.items():
    add(FABRIC, f"stablelm-3b-lora-r8-qv-{_settings}-mb4-alpaca-fabric-quant", _gb, "GB", "max_memory_allocated",
        "A100-SXM-40GB", lit_setup("stablelm-3b", _settings),
        unknown=(*LIT_UNKNOWN, "PR #596 changes how --quantize is applied (Fabric's BitsandbytesPrecision) and "
                 "re-measures the memory column only (times and losses equal the earlier table's); the lit-gpt "
                 "commit of the re-measurement is not stated"),
        notes=f"Lightning-AI/litgpt PR #596, carmocca's review thread of 2023-10-03 on tutorials/finetune_lora.md, the "
              f"StableLM 3B table's new line: '{_cells}'")


def main():
    write_split("heldout26", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
