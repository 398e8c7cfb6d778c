"""The twenty-fifth held-out set (calibration/public/heldout25.json): 15 public rows (12 measured peaks, 3 out-of-memory
verdicts) from three pages no earlier split read, chosen for regimes the data has few of: litgpt's GPT trained in pure bf16
with fused AdamW under torch.compile (inductor) by Lightning Thunder's benchmark script, torch's max allocated bytes
(lightning-thunder issue #474: Llama-2-13B cut to 2, 4, 10 and 20 layers at 2 x 4,096 tokens on one H100 and under FSDP
FULL_SHARD on eight; lightning-thunder PR #1261: Mistral-7B-v0.2 at 3 x 32,768 tokens, LongChat-13B-16K, Vicuna-7B-v1.5-16K
and CodeLlama-34B at 16,384 tokens under FSDP FULL_SHARD with activation checkpointing on eight H100s, Gemma-2-27B and
Llama-3-70B out of memory), and a DPO run with a full fp32 reference copy of Qwen2.5-0.5B that ran out of memory on an A100
80GB (TRL issue #3168, the quick-start script with DPOConfig's defaults); every row sourced, the source's printed figure
kept, and what the source leaves open recorded as unknown. Publishers: Lightning-AI (litgpt: held-out-9, the devset) and
huggingface (many splits); the pages and the Thunder project are new.

Run: python calibration/public/build_heldout25.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model and GPU
names, the architecture reader's list of model types, how held-out-9/-11/-13/-18 encode litgpt, FSDP and DPO rows, and
one grep for "litgpt" in preflight/estimate that showed a few comment lines). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

1. Lightning-AI/lightning-thunder issue #474 ("OOM errors for Gemma-7, pythia-12b, Llama-2-13b-hf and Nous-Hermes-13b with
   FSDP zero3 and 2x8 H100"), kiya00's comment of 2024-06-11: "Here is a comparison of memory usage on 1 node(8*H100)
   zero3 vs. single H100 with different number of layers", a table for llama-2-13b-hf with columns "micr_Bs=2,glb_bs=2"
   (thunder-cudnn | inductor | difference) and "zero3 micr_Bs=2,glb_bs=16" (the same three): "2 layers | 11.58 | 11.33 |
   0.25 | 6.52 | 6.27 | 0.25", "4 layers | 18.94 | 18.35 | 0.59 | 10.54 | 9.95 | 0.59", "10 layers | 41.02 | 39.43 | 1.59 |
   22.6 | 21 | 1.60", "20 layers | 77.82 | 74.56 | 3.26 | 42.69 | 39.41 | 3.28". Taken: the eight inductor cells (torch.compile,
   which the estimator expresses); the thunder-cudnn cells (Thunder's own compiler) are left out. The script is
   thunder/benchmarks/benchmark_litgpt.py at 6a627c0 (2024-06-09, the version of that day): litgpt 0.3.1's GPT built on the
   GPU (single) or on the meta device (FSDP), model.to(torch.bfloat16), torch.optim.AdamW(fused=True, betas (0.9, 0.95),
   weight decay 0.1), DummyDataset of block_size tokens (4,096 for Llama-2-13b-hf), logits = model(input_ids) then
   cross_entropy on the bf16 logits, loss.backward(), optimizer.step(), zero_grad(set_to_none=True), 45 iterations, and
   "memory_used_GB" = torch.cuda.max_memory_allocated() / 1e9; --n_layers sets config.n_layer; FSDP: torch's
   FullyShardedDataParallel(sharding_strategy FULL_SHARD for zero3, use_orig_params=True, auto_wrap_policy by
   --bucketing_mode, default "none": every module).
2. Lightning-AI/lightning-thunder PR #1261 ("A converter for FXGraph with Torch calls -> FXGraph with Thunder calls"),
   kiya00's comment of 2024-10-31: "`torchrun --nproc_per_node=8 --nnodes=1 thunder/benchmarks/benchmark_litgpt.py
   --model_name Mistral-7B-v0.2 --micro_batch_size 3 --compile thunder+dynamo --checkpoint_activations=True
   --distributed_mode=fsdp --shard_mode zero3 --max_iters=4 --warmup_iters=1 --bucketing_mode=block` on 8*H100 (container:
   20241028)" and a table "| micro batch size | thunder+dynamo | inductor": "longchat-13b-16k | 3 | 49.09 | 48.59",
   "CodeLlama-34b-hf | 1 | 50.47 | 50.8", "Gemma-2-27b | 1 | OOM | OOM", "Llama-3-70B | 1 | OOM | OOM", "Mistral-7B-v0.2 | 3
   | 63.43 | 64.63", "vicuna-7b-v1.5-16k | 5 | 51.67 | 51". Taken: the inductor column (four peaks, two out-of-memory
   verdicts). The script at a5e1e27 (2024-10-31): as above with litgpt 0.4.11's configs (block_size 32,768 for
   Mistral-7B-v0.2, 16,384 for the 16K models and CodeLlama-34b-hf, 8,192 for Gemma-2-27b and Llama-3-70B),
   apply_activation_checkpointing(checkpoint_wrapper, check_fn=Block) and FSDP FULL_SHARD wrapped per Block.
3. huggingface/trl issue #3168 ("OOM when DPO training Qwen2.5-0.5B with A100 80G", BUGLI27, 2025-03-28): "DPO training of
   Qwen2.5-0.5B on an A100-80G also encounters an OOM issue. Additionally, I directly used the Quick Start Code."
   (AutoModelForCausalLM.from_pretrained("Qwen2.5-0.5B-Instruct") with no dtype, DPOConfig(output_dir=...) with every
   default, DPOTrainer(model, args, train_dataset=ultrafeedback_binarized, processing_class=tokenizer), trainer.train()),
   the traceback at "0/23676" (the first step). A maintainer's later reply (2026-07-19) explains it from the same setup:
   "DPO keeps the policy *and* reference model resident and runs a concatenated chosen+rejected forward, and because
   `AutoModelForCausalLM.from_pretrained(...)` has no `torch_dtype` set the 0.5B model loads in fp32".

Left out on purpose (decided before scoring, by what is known): the thunder-cudnn and thunder+dynamo cells (Thunder's
compilers, not torch's); lightning-thunder issue #1364 (Phi-3-mini with TransformerEngine fp8); torchtune PRs #961, #389
and #1517 (torchtune is read by the devset, held-out-2 and held-out-22; #961 re-measures held-out-22's row; #1517's data
lengths are Alpaca's, unpadded); transformers issue #9742 and PR #4912 (figures not readable in full here, or forward-only
benchmarks of 2020); peft issues #1469 and #675 (the batch and lengths of #1469's script were not readable here; #675
gives "around" figures); trl issue #5200 (batch size not readable here); FastChat issue #2556 (the fitting run has no
figure; FastChat is held-out-18's publisher); the arXiv paper 2406.02290 (its tables were not readable here)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-25"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
TH = f"{GH}/Lightning-AI/lightning-thunder"
LAYERS = "lightning-thunder-issue-474-llama2-13b-layers"
LONG = "lightning-thunder-pr-1261-fsdp-long-context"
DPO = "trl-issue-3168-dpo-qwen2.5-oom"

SOURCES = {
    LAYERS: {
        "url": f"{TH}/issues/474",
        "also": [f"{TH}/blob/6a627c0db/thunder/benchmarks/benchmark_litgpt.py (the script on 2024-06-09)",
                 f"{GH}/Lightning-AI/litgpt/blob/v0.3.1/litgpt/config.py (Llama-2-13b-hf: block_size 4096)"],
        "setup": "litgpt's GPT with Llama-2-13b-hf's shapes cut to 2/4/10/20 layers (--n_layers), pure bf16 weights "
                 "(model.to(torch.bfloat16)), fused torch AdamW, torch.compile (inductor), random tokens of 4,096 "
                 "(block_size), micro batch 2, no accumulation, no activation checkpointing, cross_entropy on the bf16 "
                 "logits; one H100, or FSDP FULL_SHARD (use_orig_params) on eight; 'Memory used' = "
                 "torch.cuda.max_memory_allocated() / 1e9 (GB)",
        "versions": {"torch": "2.4 nightly in NVIDIA's internal container, June 2024 (not stated; 2.4.0 written)",
                     "litgpt": "0.3.1 (requirements/test.txt at 6a627c0)"},
        "date": "2024-06-11 (comment on the issue)",
        "project": "Lightning-AI/lightning-thunder (kiya00, NVIDIA)",
    },
    LONG: {
        "url": f"{TH}/pull/1261",
        "also": [f"{TH}/blob/a5e1e2785/thunder/benchmarks/benchmark_litgpt.py (the script on 2024-10-31)",
                 f"{GH}/Lightning-AI/litgpt/blob/v0.4.11/litgpt/config.py (block sizes and shapes)"],
        "setup": "litgpt's GPT in pure bf16 with fused torch AdamW under torch FSDP FULL_SHARD (wrapped per Block, "
                 "use_orig_params, built on the meta device) on 8 H100s, activation checkpointing per Block "
                 "(checkpoint_wrapper), torch.compile (inductor), random tokens of the model's block_size, the "
                 "table's micro batch, no accumulation, cross_entropy on the bf16 logits; 'Memory used' = "
                 "torch.cuda.max_memory_allocated() / 1e9 (GB)",
        "versions": {"torch": "2.6 nightly in NVIDIA's container 20241028 (not stated; 2.6.0 written)",
                     "litgpt": "0.4.11 (requirements/test.txt at a5e1e27)"},
        "date": "2024-10-31 (comment on the PR)",
        "project": "Lightning-AI/lightning-thunder (kiya00, NVIDIA)",
    },
    DPO: {
        "url": f"{GH}/huggingface/trl/issues/3168",
        "also": [],
        "setup": "TRL's DPO quick start: Qwen2.5-0.5B-Instruct loaded with no dtype (fp32), DPOConfig with every "
                 "default (per-device batch 8 pairs, max_length 1024, no gradient checkpointing), the reference model "
                 "a full copy made by the trainer, trl-lib/ultrafeedback_binarized, one A100 80GB; out of memory at "
                 "the first step",
        "versions": {"trl": "0.16 (March 2025; not stated)", "transformers": "4.50 (not stated)",
                     "torch": "2.6 (not stated)"},
        "date": "2025-03-28 (issue description)",
        "project": "huggingface/trl (user report, BUGLI27)",
    },
}


def llama(hidden: int, heads: int, kv: int, ffn: int, layers: int, vocab: int, positions: int) -> dict:
    """A Llama-shaped config with litgpt's sizes (litgpt builds the same parameter layout: fused qkv, SwiGLU,
    RMSNorm, an untied head)."""
    return {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": hidden,
            "num_attention_heads": heads, "num_key_value_heads": kv, "intermediate_size": ffn,
            "num_hidden_layers": layers, "vocab_size": vocab, "max_position_embeddings": positions,
            "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "tie_word_embeddings": False}


# ------------------------------------------------------------------ shared: benchmark_litgpt.py's loop
LITGPT_BASE = dict(mode="train", precision="bf16", optimizer="adamw-fused", model_impl="litgpt",
                   attention="sdpa", padding="max_length", loss="standard", loss_in_logits_dtype=True, compiled=True,
                   compiled_loss=False, grad_accum=1, keeps_outputs=True)
LITGPT_UNKNOWN = (
    "the table gives no unit: GB written, as the script prints 'Memory used: {memory_used_GB:.02f} GB' with "
    "memory_used_GB = torch.cuda.max_memory_allocated() / 1e9, read after the last of the iterations",
    "'H100' written as the catalog's H100-SXM-80GB (NVIDIA's DGX nodes; SXM or PCIe not stated)",
    "'inductor' read as --compile inductor: setup_compile calls torch.compile(model) on the litgpt GPT only; the "
    "loss (torch.nn.functional.cross_entropy on the reshaped bf16 logits, no fp32 upcast) runs eagerly outside it",
    "pure bf16: model.to(dtype=torch.bfloat16), no autocast, no fp32 master weights; torch.optim.AdamW(fused=True) "
    "keeps its two states in bf16 (written optimizer 'adamw-fused', est77: the fused in-place kernel holds no step temporaries)",
    "DummyDataset yields random tokens of exactly block_size + 1 (dynamic False): every sequence is the full "
    "length, the targets the inputs shifted by one",
    "litgpt's attention: torch.nn.functional.scaled_dot_product_attention with is_causal (sdpa written); which "
    "kernel inductor picks is not stated",
    "the torch release in NVIDIA's internal container is not stated",
    "est54 (after scoring, in-sample): keeps_outputs True written: the loop binds 'logits = self.model(input_ids)' "
    "at loop level with no del (benchmark_litgpt.py at 6a627c0 lines 422-428, a5e1e27 lines 687-709), so each "
    "step's logits live through its backward and the next step's forward; the first scoring had it False",
)

# ------------------------------------------------------------------ 1. Llama-2-13B cut to N layers (issue #474)
L13_UNKNOWN = (
    "the command lines are not in the comment: --compile inductor, --micro_batch_size 2 and --n_layers N read from "
    "the table's headings; 'glb_bs=2' on one GPU and 'glb_bs=16' on eight are one micro batch of 2 per GPU per "
    "step (no accumulation)",
    "the FSDP auto-wrap policy: --bucketing_mode is not stated; its default at 6a627c0 is 'none', whose policy "
    "(nonwrapped_numel >= 0) wraps every submodule as its own FSDP unit; 'block' wraps per Block",
    "with FSDP the model is built on the meta device and materialised by FSDP; on one GPU it is built on the GPU",
    "Llama-2-13b-hf's litgpt config: hidden 5,120, 40 heads (no GQA), SwiGLU 13,824, vocabulary 32,000, "
    "block_size 4,096 (the Config default), written as a Llama config with num_hidden_layers N",
)
L13_TABLE = {  # layers -> (single-GPU inductor GB, zero3 8-GPU inductor GB), kiya00 2024-06-11
    2: (11.33, 6.27), 4: (18.35, 9.95), 10: (39.43, 21.0), 20: (74.56, 39.41),
}
L13_CELLS = {  # the comment's whole rows, quoted in the notes
    2: "| 2 layers | 11.58 | 11.33 | 0.25 | 6.52 | 6.27 | 0.25 |",
    4: "| 4 layers | 18.94 | 18.35 | 0.59 | 10.54 | 9.95 | 0.59 |",
    10: "| 10 layers | 41.02 | 39.43 | 1.59 | 22.6 | 21 | 1.60 |",
    20: "| 20 layers | 77.82 | 74.56 | 3.26 | 42.69 | 39.41 | 3.28 |",
}
L13_WRAP = ("est54 (after scoring, in-sample): fsdp_wrap 'module' written, the script's default --bucketing_mode "
            "'none' at 6a627c0 (zero_bucket_wrap_policy: nonwrapped_numel >= 0, true for every module), as the "
            "comment states no flag; the first scoring had no such input (a unit was one Block)")
L13_BASE = dict(LITGPT_BASE, micro_batch=2, seq_len=4096, grad_ckpt=False, torch_version="2.4.0")
for _layers, (_single, _zero3) in L13_TABLE.items():
    _config = llama(5120, 40, 40, 13824, _layers, 32000, 4096)
    _name = f"Llama-2-13b-hf ({_layers} of 40 layers, litgpt)"
    add(LAYERS, f"llama2-13b-{_layers}l-litgpt-bf16-inductor-b2-s4096-h100", _single, "GB", "max_memory_allocated",
        "H100-SXM-80GB", dict(L13_BASE, hf_config=_config, model_name=_name, world_size=1, load_placement="gpu"),
        unknown=(*LITGPT_UNKNOWN, *L13_UNKNOWN),
        notes=f"lightning-thunder issue #474, kiya00 2024-06-11, llama-2-13b-hf, 'micr_Bs=2,glb_bs=2' columns "
              f"thunder-cudnn | inductor | difference: '{L13_CELLS[_layers]}'; this row: single H100, inductor "
              f"{_single}")
    add(LAYERS, f"llama2-13b-{_layers}l-litgpt-bf16-inductor-fsdp-zero3-b2-s4096-8xh100", _zero3, "GB",
        "max_memory_allocated", "H100-SXM-80GB",
        dict(L13_BASE, hf_config=_config, model_name=_name, world_size=8, devices_per_node=8, fsdp="full",
             fsdp_version=1, load_placement="sharded", fsdp_wrap="module"),
        unknown=(*LITGPT_UNKNOWN, *L13_UNKNOWN, L13_WRAP),
        notes=f"lightning-thunder issue #474, kiya00 2024-06-11, llama-2-13b-hf, 'zero3 micr_Bs=2,glb_bs=16' columns "
              f"thunder-cudnn | inductor | difference: '{L13_CELLS[_layers]}'; this row: 1 node (8*H100) zero3, "
              f"inductor {_zero3}")

# ------------------------------------------------------------------ 2. long-context FSDP with checkpointing (PR #1261)
LONG_UNKNOWN = (
    "the command is printed for --compile thunder+dynamo; the inductor column is read as the same command with "
    "--compile inductor (the same micro batch, checkpointing, FSDP zero3, block bucketing, 8 H100s)",
    "--checkpoint_activations=True: torch's apply_activation_checkpointing with checkpoint_wrapper (non-reentrant) "
    "on every litgpt Block, applied after FSDP wrapping; the embedding, final norm and head are not checkpointed",
    "no --global_batch_size: global = micro batch x 8, no accumulation; --max_iters=4 --warmup_iters=1",
    "litgpt 0.4.11's configs written as Llama-shaped configs with its sizes (block_size the sequence length); "
    "Gemma-2-27b as a Gemma 2 config (sliding window, soft-capping, 256,000-token vocabulary)",
)
LONG_BASE = dict(LITGPT_BASE, grad_ckpt=True, world_size=8, devices_per_node=8, fsdp="full", fsdp_version=1,
                 load_placement="sharded", torch_version="2.6.0", fsdp_wrap="block")
LONG_MODELS = {  # litgpt name -> (config, the table's micro batch, inductor GB or None for 'OOM', the table's row)
    "Mistral-7B-v0.2": (llama(4096, 32, 8, 14336, 32, 32000, 32768), 3, 64.63,
                        "Mistral-7B-v0.2 | 3 | 63.43 | 64.63"),
    "longchat-13b-16k": (llama(5120, 40, 40, 13824, 40, 32000, 16384), 3, 48.59,
                         "longchat-13b-16k | 3 | 49.09 | 48.59"),
    "vicuna-7b-v1.5-16k": (llama(4096, 32, 32, 11008, 32, 32000, 16384), 5, 51.0,
                           "vicuna-7b-v1.5-16k | 5 | 51.67 | 51"),
    "CodeLlama-34b-hf": (llama(8192, 64, 8, 22016, 48, 32000, 16384), 1, 50.8,
                         "CodeLlama-34b-hf | 1 | 50.47 | 50.8"),
    "Gemma-2-27b": ({"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "hidden_size": 4608,
                     "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128,
                     "intermediate_size": 36864, "num_hidden_layers": 46, "vocab_size": 256000,
                     "max_position_embeddings": 8192, "sliding_window": 4096, "attn_logit_softcapping": 50.0,
                     "final_logit_softcapping": 30.0, "query_pre_attn_scalar": 144, "hidden_activation":
                     "gelu_pytorch_tanh", "rms_norm_eps": 1e-06, "tie_word_embeddings": True}, 1, None,
                    "Gemma-2-27b | 1 | OOM | OOM"),
    "Llama-3-70B": (dict(llama(8192, 64, 8, 28672, 80, 128256, 8192), rope_theta=500000.0), 1, None,
                    "Llama-3-70B | 1 | OOM | OOM"),
}
for _name, (_config, _mb, _gb, _cells) in LONG_MODELS.items():
    _seq = _config["max_position_embeddings"]
    _rid = f"{_name.lower()}-litgpt-bf16-inductor-fsdp-zero3-ckpt-b{_mb}-s{_seq}-8xh100"
    _setup = dict(LONG_BASE, hf_config=_config, model_name=f"{_name} (litgpt)", micro_batch=_mb, seq_len=_seq)
    _notes = (f"lightning-thunder PR #1261, kiya00 2024-10-31, '| micro batch size | thunder+dynamo | inductor': "
              f"'{_cells}'; this row: inductor, "
              + (f"{_gb} GB" if _gb is not None else "OOM"))
    _extra = ()
    if _name == "Gemma-2-27b":
        _extra = ("litgpt's GPT always builds its own lm_head Linear (256,000 x 4,608, untied in training); the "
                  "Hub config's tie_word_embeddings is kept in the config, the model_impl 'litgpt' says who builds it",)
    if _gb is None:
        add_oom(LONG, _rid, "max_memory_allocated", "H100-SXM-80GB", _setup, unknown=(*LITGPT_UNKNOWN, *LONG_UNKNOWN,
                                                                                     *_extra), notes=_notes)
    else:
        add(LONG, _rid, _gb, "GB", "max_memory_allocated", "H100-SXM-80GB", _setup,
            unknown=(*LITGPT_UNKNOWN, *LONG_UNKNOWN, *_extra), notes=_notes)

# ------------------------------------------------------------------ 3. TRL DPO quick start, out of memory (issue #3168)
add_oom(DPO, "qwen2.5-0.5b-instruct-dpo-fp32-ref-copy-b8pairs-s1024-a100-80gb", "nvidia-smi", "A100-SXM-80GB",
        dict(mode="train", model="Qwen2.5-0.5B", model_name="Qwen/Qwen2.5-0.5B-Instruct", precision="fp32",
             optimizer="adamw", micro_batch=16, grad_accum=1, seq_len=1024, padding="dynamic", grad_ckpt=False,
             attention="sdpa", loss="standard", frozen_models=1, frozen_bits=32, world_size=1,
             torch_version="2.6.0", transformers_version="4.50.0"),
        unknown=(
            "the trl release is not stated (March 2025: 0.16 written); DPOConfig's defaults then: per-device batch "
            "8 pairs, max_length 1024, max_prompt_length 512, gradient checkpointing off, precompute_ref_log_probs "
            "off; bf16 is read as off (TrainingArguments' default; a later reply in the thread prints bf16=True for "
            "another user's config): fp32 written",
            "DPOTrainer's concatenated forward: the 8 chosen and 8 rejected sequences run as one batch of 16 "
            "(micro_batch 16 written), padded to the longest of the batch and truncated to max_length 1024; the "
            "length of the first batch of trl-lib/ultrafeedback_binarized is not stated (1,024 written, the "
            "truncation limit)",
            "the reference model: the policy is not a PEFT model and no ref_model is passed, so the trainer makes "
            "a full copy in the policy's dtype (fp32, frozen_models 1, frozen_bits 32)",
            "'A100-80G' written as the catalog's A100-SXM-80GB; the out-of-memory is at the first step (0/23676)",
            "Qwen2.5-0.5B-Instruct has the base model's shapes (the catalog's Qwen2.5-0.5B: tied embeddings, "
            "151,936-token vocabulary)",
        ),
        notes="huggingface/trl issue #3168, BUGLI27 2025-03-28: 'DPO training of Qwen2.5-0.5B on an A100-80G also "
              "encounters an OOM issue. Additionally, I directly used the Quick Start Code.' (model = "
              "AutoModelForCausalLM.from_pretrained(\".../Qwen2.5-0.5B-Instruct\"); training_args = "
              "DPOConfig(output_dir=\"Qwen2.5-0.5B-DPO\"); DPOTrainer(model=model, args=training_args, "
              "train_dataset=dataset, processing_class=tokenizer); trainer.train() -> '0/23676' then the "
              "traceback)")


def main():
    write_split("heldout25", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
