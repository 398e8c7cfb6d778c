"""The thirty-first held-out set (calibration/public/heldout31.json): 15 public rows (15 measured peaks) from pages no
earlier split read, by four publishers no earlier split read: Benjamin Bossan's peft-experiments logs
(BenjaminBossan/peft-experiments: Llama-3-8B-Instruct LoRA and QLoRA fine-tuning with PEFT and with torchtune on one RTX
4090, LoRA with FSDP on two, and Llama-2-7B QLoRA with FSDP and CPU offload on two, the per-step torchtune memory stats,
max_memory_allocated in 1e9-byte GB; 6 TRAINING rows), SYSTRAN/faster-whisper's README benchmark (Whisper large-v2
transcribing 13 minutes of audio in fp16 with beam size 5 with openai/whisper and transformers, the device's NVML
'used' memory; 3 rows), a PKU NLPDL 2024 homework repository (cby-pku/pku_nlp_2024 hw3: GPT-2 and Llama-2-7B fp32
generation of 50 tokens with and without a KV cache, max_memory_allocated after reset_peak_memory_stats; 4 rows) and
another student's repository of the same homework (huolanmiao/NLPDL-Assignment3: GPT-2 fp32 generation of 1,000 tokens
with and without a KV cache, max_memory_allocated; 2 rows). Every row sourced, the source's printed figure kept, and what
the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout31.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is fitted to
them, and the builder was written without reading the estimator's cost model (only the input field names and their
comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model and GPU
names, and how held-out-2 writes a torchtune QLoRA row, held-out-3 an FSDP LoRA row, held-out-6 an FSDP QLoRA row with
CPU offload and a loss computed on the logits, and held-out-16 a Whisper row). Same row format as devset.json (see
build_devset.py). Every figure is the source's own.

Publishers. No earlier split cites any of the four owners (tests/test_public_heldout31.py checks every URL under
calibration/public and bench). BenjaminBossan is a personal repository of a maintainer of huggingface/peft (a publisher
earlier splits read): the runs, scripts and logs are his own experiments on his own two RTX 4090s, not a Hugging Face
page; this is said here so a reader can weigh it. The two NLPDL repositories are two students' answers to the same PKU
course homework (2024 autumn, assignment 3), with different code and different runs.

1. BenjaminBossan/peft-experiments at e0e5696 (2024-07-31 to 2024-08-20). Each directory states "torch v2.3.1", "PEFT
   commit hash: 1b16753...", "torchtune commit hash: ca1d7a1..." (torchtune 0.2.1 on main, 2024-07-30), "transformers
   commit hash: 7f552e2...", "dtype: bfloat16 (also for LoRA weights)", "NVIDIA GeForce RTX 4090". The PEFT runs are
   notebooks / scripts that copy torchtune's single-device recipe loop around a transformers model (torchtune's
   InstructDataset of yahma/alpaca-cleaned with the Alpaca template, max_seq_len 512, padded_collate to the longest
   sample of the batch, batch 2, gradient accumulation 4, torch.optim.AdamW, the loss computed by the script on
   ``model(tokens).logits`` shifted with ``.contiguous()``, no gradient checkpointing) and log torchtune's
   ``get_memory_stats``, which prints ``torch.cuda.max_memory_allocated() / 1e9`` and resets the peak after every optimizer
   step. The figure of a row is the largest ``peak_memory_alloc`` of its log (the run's peak after the first step; the
   largest value repeats across the log: the batches padded to the 512-token cap). Rows: LoRA r8 on q/v, single GPU
   (log_peft.txt, 3,255 steps: 23.446532096); QLoRA (bitsandbytes 0.43.3 nf4, double quant, bf16 compute, LoRA r8 on all
   seven linears; log_peft_bnb-0.43.3.txt, 704 steps: 18.969474048); torchtune's own QLoRA recipe
   (qlora_llama3_8b, activation checkpointing off; log_torchtune.txt, 105 steps: 16.38058752); LoRA r8 on q/v with FSDP
   FULL_SHARD on two GPUs, PEFT (train.py: every rank loads the model on its GPU, PEFT's fsdp_auto_wrap_policy, no mixed
   precision; rank 0's log: 17.504780288) and torchtune's lora_finetune_distributed (FSDP1, rank 0 builds on the CPU;
   17.579687936); Llama-2-7B QLoRA with FSDP and CPU offload on two GPUs (answerai/llama2-qlora-fsdp/train.py, fsdp_qlora's
   script with PEFT's QLoRA: batch 1, context 512 of the synthetic 'alpaca_sample' dataset whose every sample is
   truncated to 512 tokens, LoRA r8 on all linears, no gradient checkpointing, CPUOffload(offload_params=True); rank 0's
   log: 8.746859008).
2. SYSTRAN/faster-whisper README.md: at 97a4785 (2024-11-21, "Bump version to 1.1.0 and update benchmarks"): "Large-v2
   model on GPU | openai/whisper | fp16 | 5 | 2m23s | 4708MB" and "transformers (SDPA)[^1] | fp16 | 5 | 1m52s | 4960MB",
   "openai/whisper@v20240930", "transformers@v4.46.3", "Executed with CUDA 12.4 on a NVIDIA RTX 3070 Ti 8GB"; at 58f4447
   (2023-03-17, the first printing of the figure, kept until 97a4785): "openai/whisper | fp16 | 5 | 4m30s | 11325MB |
   9439MB", "openai/whisper@6dea21fd", "Executed with CUDA 11.7.1 on a NVIDIA Tesla V100S". The repository's
   benchmark/memory_benchmark.py samples ``nvmlDeviceGetMemoryInfo(handle).used >> 20`` every 0.5 s (MiB, the whole
   device) and keeps the largest.
3. cby-pku/pku_nlp_2024 hw3/task1/inference_time_test at ec4b8ac (2024-12-09): benchmark_gpt2.py and
   benchmark_general.py load the model in fp32 (``from_pretrained(...)`` without a dtype, ``.to("cuda")``), call
   ``torch.cuda.reset_peak_memory_stats()``, generate for each of the 20 prompts of test_prompts.txt in turn (batch 1,
   ``max_length=50``, greedy, ``use_cache`` per configuration) and write ``torch.cuda.max_memory_allocated() / 1024 /
   1024`` to inference_results_gpt2.csv / inference_results_llama2.csv: GPT-2 "Baseline (no cache)" 524.2177734375,
   "With KV-cache" 504.27001953125; Llama-2-7b-hf 25722.81298828125 and 25763.7705078125.
4. huolanmiao/NLPDL-Assignment3 Task1_LLM_inference_acceleration/1.1_Experiments_KVcache_Quantization at 14fb80e
   (README.md, the results of 2024-12-13): gpt2_inference_efficiency.py loads GPT-2 in fp32 on the GPU and generates
   from "The quick brown fox jumps over the lazy dog." with ``min_length=1000, max_length=1000`` (batch 1, greedy):
   "Inference time GPU Memory Usage (Naïve): 1072.46 MB" (use_cache False) and "GPU Memory Usage (KV-cache): 638.07 MB"
   (use_cache True), both from ``torch.cuda.max_memory_allocated()`` in a fresh process (MiB; see the rows).

Left out on purpose (decided before scoring, by what is known): peft-experiments' torchtune single-device LoRA log (it
prints no memory: log_peak_memory_stats False), the QLoRA log_peft_bnb-0.43.2.txt (the same figure as 0.43.3's, the
same setup but the bitsandbytes release), log_peft_in_torchtune.txt and the transformers-in-torchtune notebook (PEFT or
transformers modules patched into torchtune's recipe by peft.patch / peft-transformers.patch: no input describes the
mixture), answer.ai's custom_qlora log (the same arguments as the PEFT row with answer.ai's own quantized linear: no
input tells them apart) and the QDoRA logs (DoRA: no input); Bossan's EuroPython 2024 slides (calculated, not
measured); faster-whisper's own rows (CTranslate2, not PyTorch), its whisper.cpp rows, its CPU tables (RAM), its
distil-large-v3 table (word error rate, no memory) and the footnote "transformers OOM for any batch size > 1" (which
batching the pipeline used is not stated); the NLPDL rows with int8 / int4 bitsandbytes models (cby-pku: ``device_map
"auto"`` with peaks of 0.19 to 1.3 GB for a 7B model, so not the whole model on the GPU; huolanmiao: its fp16, int8 and
fp4 lines print ``torch.cuda.memory_allocated()`` after generation, not a peak); CS336 students' memory_profiling
answers (the ones found name no repository here or read peaks off memory_viz images); ai-learner-1429/peft-examples
NOTES.md (wandb's device memory of runs whose notes say the same setup gave 18.3 and 14.5 GB); modded-nanogpt records
(Muon and a custom GPT); sayakpaul/diffusers-torchao's Flux tables (diffusion pipelines, which this bench does not
score)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-31"
book = RowBook(SPLIT)
rows = book.rows
add = book.add

GH = "https://github.com"
BB = f"{GH}/BenjaminBossan/peft-experiments/blob"
BB_LORA = f"{BB}/6028f8900212fd9c6146020fdd061880f524535d/torchtune/llama3-lora-single-device"
BB_QLORA = f"{BB}/e0e56969541f00411076e45353cc2d770dc3d6a4/torchtune/llama3-qlora-single-device"
BB_QLORA_PEFT = f"{BB}/5f91f40ce5c26da6cda315627bb785393291cb4a/torchtune/llama3-qlora-single-device"
BB_FSDP = f"{BB}/b825c5cc54cb8fe6af33915883da921e358b974b/torchtune/llama3-lora-fsdp"
BB_AA = f"{BB}/f4712b5bb6d7626d42b6f3f9554c3f1d35d38678/answerai/llama2-qlora-fsdp"
FW = f"{GH}/SYSTRAN/faster-whisper/blob"
FW_NEW = f"{FW}/97a4785fa13d067c300f8b6e40c4381ad0381c02"
FW_OLD = f"{FW}/58f44479643235d941ce153c4ae663ca96ce4d79"
CB = f"{GH}/cby-pku/pku_nlp_2024/blob/ec4b8acce6483fb552da584e90d145170a452ef6/hw3/task1/inference_time_test"
HL = (f"{GH}/huolanmiao/NLPDL-Assignment3/blob/14fb80e72e31bf170911fcb881a2441857fad519/"
      "Task1_LLM_inference_acceleration/1.1_Experiments_KVcache_Quantization")

BBLORA = "peft-experiments-llama3-lora-single-4090"
BBQLORA = "peft-experiments-llama3-qlora-single-4090"
BBFSDP = "peft-experiments-llama3-lora-fsdp-2x4090"
BBAA = "peft-experiments-llama2-qlora-fsdp-offload-2x4090"
FWNEW = "faster-whisper-readme-benchmark-97a4785"
FWOLD = "faster-whisper-readme-benchmark-58f4447"
CBPKU = "pku-nlpdl-2024-hw3-cby-pku-inference-test"
HLMIAO = "pku-nlpdl-2024-hw3-huolanmiao-kvcache"

BB_VERSIONS = {"torch": "2.3.1 (stated)", "transformers": "commit 7f552e2 (stated; main of 2024-07, 4.44.0.dev0)",
               "peft": "commit 1b16753 (stated)", "torchtune": "commit ca1d7a1 (stated; version.txt 0.2.1)"}
BB_PROJECT = "BenjaminBossan/peft-experiments (Benjamin Bossan's own comparison runs)"
SOURCES = {
    BBLORA: {
        "url": f"{BB_LORA}/log_peft.txt",
        "also": [f"{BB_LORA}/README.md", f"{BB_LORA}/train-peft.ipynb", f"{BB_LORA}/bb_8B_lora_single_device.yaml"],
        "setup": "Meta-Llama-3-8B-Instruct in bf16 (torch_dtype and device_map 0), PEFT LoRA r8 alpha 16 dropout 0.05 on "
                 "q_proj/v_proj (autocast_adapter_dtype False: bf16 adapters), torch.optim.AdamW (weight decay 0.01), "
                 "torchtune's InstructDataset of yahma/alpaca-cleaned (Alpaca template, max_seq_len 512), "
                 "padded_collate to the batch's longest sample, batch 2, gradient accumulation 4, the loss computed on "
                 "the returned logits (shifted, .contiguous(), transposed, nn.CrossEntropyLoss), no gradient "
                 "checkpointing, one RTX 4090; 'peak_memory_alloc' = torch.cuda.max_memory_allocated() / 1e9, reset "
                 "after every optimizer step",
        "versions": BB_VERSIONS,
        "date": "2024-07-31 (6028f89)",
        "project": BB_PROJECT,
    },
    BBQLORA: {
        "url": f"{BB_QLORA_PEFT}/log_peft_bnb-0.43.3.txt",
        "also": [f"{BB_QLORA}/README.md", f"{BB_QLORA}/train-peft.ipynb", f"{BB_QLORA}/log_torchtune.txt",
                 f"{BB_QLORA}/bb_8B_qlora_single_device.yaml"],
        "setup": "the LoRA notebook's loop with BitsAndBytesConfig(load_in_4bit, nf4, double quant, bf16 compute) and "
                 "LoRA r8 on the seven linears (PEFT), or torchtune's lora_finetune_single_device recipe with "
                 "qlora_llama3_8b (torchao NF4, LoRA on q/k/v/output_proj and the MLP) with activation checkpointing "
                 "off; both batch 2, gradient accumulation 4, max_seq_len 512, AdamW, one RTX 4090",
        "versions": dict(BB_VERSIONS, bitsandbytes="0.43.3 (stated)"),
        "date": "2024-07-31 (5f91f40, the PEFT log) / 2024-08-20 (e0e5696, the torchtune log and config)",
        "project": BB_PROJECT,
    },
    BBFSDP: {
        "url": f"{BB_FSDP}/log_peft.txt",
        "also": [f"{BB_FSDP}/README.md", f"{BB_FSDP}/train.py", f"{BB_FSDP}/log_torchtune.txt",
                 f"{BB_FSDP}/bb_8B_lora.yaml"],
        "setup": "LoRA r8 on q/v of Llama-3-8B-Instruct in bf16 with FSDP FULL_SHARD on two RTX 4090s: PEFT's train.py "
                 "(torchrun, every rank loads the model with device_map=rank, PEFT's fsdp_auto_wrap_policy, "
                 "mixed_precision None, sync_module_states True) or torchtune's lora_finetune_distributed (FSDP1, "
                 "rank 0 builds the model on the CPU, the others on the meta device); batch 2, gradient accumulation 4, "
                 "max_seq_len 512 (alpaca-cleaned), AdamW, no activation checkpointing; rank 0's stats",
        "versions": BB_VERSIONS,
        "date": "2024-08-01 (b825c5c)",
        "project": BB_PROJECT,
    },
    BBAA: {
        "url": f"{BB_AA}/log_peft.txt",
        "also": [f"{BB_AA}/README.md", f"{BB_AA}/train.py", f"{BB_AA}/compare-logs.ipynb"],
        "setup": "fsdp_qlora's train.py (answer.ai, cec4386) adapted by Bossan: --model_name meta-llama/Llama-2-7b-hf "
                 "--train_type qlora --batch_size 1 --context_length 512 --precision bf16 "
                 "--use_gradient_checkpointing false --use_cpu_offload true --dataset alpaca_sample --low_memory false "
                 "--lora_rank 8 --lora_alpha 16 --gradient_accumulation_steps 4 on two RTX 4090s: transformers' "
                 "bitsandbytes nf4 loading (double quant, bf16 compute and quant storage), PEFT LoRA on all-linear "
                 "(dropout 0.1), PEFT's fsdp_auto_wrap_policy, FULL_SHARD, CPUOffload(offload_params=True), AdamW; "
                 "get_memory_stats as above (/ 1e9, reset per logged step), rank 0",
        "versions": {"torch": "2.3.1 (stated)", "transformers": "commit e4522fe (stated)",
                     "peft": "commit 22f042a (stated)", "bitsandbytes": "0.43.3 (stated)",
                     "fsdp_qlora": "cec4386 (stated)"},
        "date": "2024-08-15 (f4712b5)",
        "project": BB_PROJECT,
    },
    FWNEW: {
        "url": f"{FW_NEW}/README.md",
        "also": [f"{FW_NEW}/benchmark/memory_benchmark.py"],
        "setup": "transcribing the 13-minute benchmark audio with Whisper large-v2 in fp16 with beam size 5 on an RTX "
                 "3070 Ti 8GB (CUDA 12.4): openai/whisper@v20240930, or transformers@v4.46.3 with SDPA; 'VRAM Usage' "
                 "in MB: the device's NVML used memory sampled every 0.5 s (memory_benchmark.py, >> 20: MiB)",
        "versions": {"openai-whisper": "v20240930 (stated)", "transformers": "4.46.3 (stated)",
                     "torch": "not stated (2.5.1 written for CUDA 12.4 in 2024-11)"},
        "date": "2024-11-21 (97a4785)",
        "project": "SYSTRAN/faster-whisper",
    },
    FWOLD: {
        "url": f"{FW_OLD}/README.md",
        "setup": "the same transcription with openai/whisper@6dea21fd (large-v2, fp16, beam size 5) on a Tesla V100S "
                 "(CUDA 11.7.1); 'Max. GPU memory' in MB",
        "versions": {"openai-whisper": "6dea21fd (stated; 2023-03)",
                     "torch": "not stated (1.13.1 written for CUDA 11.7.1 in 2023-03)"},
        "date": "2023-03-17 (58f4447; the line stayed until 97a4785)",
        "project": "SYSTRAN/faster-whisper",
    },
    CBPKU: {
        "url": f"{CB}/inference_results_llama2.csv",
        "also": [f"{CB}/inference_results_gpt2.csv", f"{CB}/benchmark_general.py", f"{CB}/benchmark_gpt2.py",
                 f"{CB}/test_prompts.txt", f"{CB}/README.md"],
        "setup": "GPT-2 (gpt2) or Llama-2-7b-hf loaded in fp32 and moved to the GPU, reset_peak_memory_stats(), then "
                 "generate() for each of the 20 short prompts of test_prompts.txt one after another (batch 1, "
                 "max_length 50, greedy, pad_token_id = eos), use_cache False ('Baseline (no cache)') or True ('With "
                 "KV-cache'); 'peak_memory_mb' = torch.cuda.max_memory_allocated() / 1024 / 1024",
        "versions": {"torch": "not stated", "transformers": "not stated (the repository's copied modeling_gpt2.py has "
                     "GPT2SdpaAttention and legacy tuple caches: 4.45 / 4.46; 4.46.3 written)"},
        "date": "2024-12-09 (ec4b8ac)",
        "project": "cby-pku/pku_nlp_2024 (a PKU NLPDL 2024 homework answer)",
    },
    HLMIAO: {
        "url": f"{HL}/README.md",
        "also": [f"{HL}/gpt2_inference_efficiency.py"],
        "setup": "GPT-2 (gpt2) in fp32 on the GPU, one prompt 'The quick brown fox jumps over the lazy dog.' (10 "
                 "tokens), generate(min_length=1000, max_length=1000), greedy, batch 1, use_cache False ('naive') or "
                 "True ('KV-cache'); torch.cuda.max_memory_allocated() / 1024**2 in a fresh process",
        "versions": {"torch": "not stated", "transformers": "not stated (4.46.3 written for 2024-12)"},
        "date": "2024-12-13 (f44169e / 3c9c539; file read at 14fb80e)",
        "project": "huolanmiao/NLPDL-Assignment3 (a PKU NLPDL 2024 homework answer)",
    },
}

# ------------------------------------------------------------------ 1. peft-experiments (training, RTX 4090s)
BB_BASE = dict(mode="train", model="Llama-3-8B", precision="bf16", optimizer="adamw", micro_batch=2, grad_accum=4,
               seq_len=512, padding="dynamic", datasets=["yahma/alpaca-cleaned"], grad_ckpt=False, attention="sdpa",
               lora_r=8, lora_dropout=0.05, world_size=1, torch_version="2.3.1", transformers_version="4.44.0")
BB_UNKNOWN = (
    "the figure: the largest 'peak_memory_alloc' of the log; torchtune.utils.get_memory_stats at ca1d7a1 prints "
    "torch.cuda.max_memory_allocated(device) / 1e9 and resets the peak (reset_stats=True) after each optimizer step, "
    "so every value is one step's peak (4 micro-batches) and the largest is the run's peak after the first step "
    "(the first value also holds the model load); unit GB (1e9) written",
    "the sequence length: max_seq_len 512 truncates (torchtune InstructDataset), padded_collate pads each batch to its "
    "longest sample; yahma/alpaca-cleaned has samples longer than 512 Llama-3 tokens and the largest value repeats "
    "across the log, so the peak is a batch at the cap: seq_len 512, padding 'dynamic', datasets alpaca-cleaned "
    "written",
    "the model: Meta-Llama-3-8B-Instruct (the catalog's Llama-3-8B has the same shapes)",
    "attention: transformers' default for Llama at 7f552e2 is SDPA ('sdpa' written); the PEFT runs never call "
    "gradient_checkpointing_enable (grad_ckpt False)",
    "transformers 7f552e2 is main between 4.43 and 4.44 (4.44.0 written)",
    "'NVIDIA GeForce RTX 4090' written as RTX-4090-24GB",
)
PEFT_LOOP = ("the loop: logits = model(tokens).logits; logits[..., :-1, :].contiguous(); transpose(1, 2); "
             "nn.CrossEntropyLoss on the bf16 logits (no labels passed to the model: loss_in_logits_dtype True); "
             "'del logits' before backward; torch.optim.AdamW (foreach default); loss / 4 accumulated")

add(BBLORA, "llama3-8b-instruct-peft-lora-r8-qv-bf16-b2-s512-rtx4090", 23.446532096, "GB", "max_memory_allocated",
    "RTX-4090-24GB",
    dict(BB_BASE, lora_targets=["q_proj", "v_proj"], loss="standard", loss_in_logits_dtype=True),
    unknown=(*BB_UNKNOWN, PEFT_LOOP,
             "log_peft.txt has 3,255 logged steps (about half the epoch of 51,760 samples at 8 per step)"),
    notes="BenjaminBossan/peft-experiments torchtune/llama3-lora-single-device/log_peft.txt at 6028f89: 'Step 12 | "
          "loss:2.0077314376831055 ... peak_memory_active:23.446532096 peak_memory_alloc:23.446532096 "
          "peak_memory_reserved:24.748490752' (the largest peak_memory_alloc of the log; README: 'Memory is also very "
          "closely matched, ~23GiB')")

add(BBQLORA, "llama3-8b-instruct-peft-qlora-bnb-nf4-r8-all-bf16-b2-s512-rtx4090", 18.969474048, "GB",
    "max_memory_allocated", "RTX-4090-24GB",
    dict(BB_BASE, lora_targets=["q_proj", "v_proj", "k_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
         loss="standard", loss_in_logits_dtype=True, quant="4bit", quant_type="nf4", double_quant=True,
         kbit_prepared=False),
    unknown=(*BB_UNKNOWN, PEFT_LOOP,
             "quantization: BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16, "
             "bnb_4bit_use_double_quant=True, bnb_4bit_quant_type='nf4'), torch_dtype bf16 for the rest, no "
             "prepare_model_for_kbit_training (kbit_prepared False)",
             "a state-dict hook (reparametrize_as_dtype_state_dict_post_hook) is registered but no checkpoint is "
             "saved in the loop",
             "log_peft_bnb-0.43.3.txt has 704 logged steps"),
    notes="BenjaminBossan/peft-experiments torchtune/llama3-qlora-single-device/log_peft_bnb-0.43.3.txt at 5f91f40: "
          "'Step 12 | loss:1.8301935195922852 ... peak_memory_alloc:18.969474048 ...' (the largest, first at step 12 "
          "and repeated; README at e0e5696: 'torchtune slightly lower (~19GiB) than PEFT + bitsandbytes (~20GiB)')")

add(BBQLORA, "llama3-8b-instruct-torchtune-qlora-nf4-r8-bf16-b2-s512-rtx4090", 16.38058752, "GB",
    "max_memory_allocated", "RTX-4090-24GB",
    dict(BB_BASE, lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
         loss="standard", quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False,
         model_impl="torchtune", torchtune_version="0.2.1", compiled=False),
    unknown=(*BB_UNKNOWN,
             "torchtune's recipe lora_finetune_single_device at ca1d7a1 with bb_8B_qlora_single_device.yaml: "
             "qlora_llama3_8b (lora_attn_modules q_proj, v_proj, k_proj, output_proj; apply_lora_to_mlp True; rank 8, "
             "alpha 16), dtype bf16, enable_activation_checkpointing False, compile False, batch 2, gradient "
             "accumulation 4, torch.optim.AdamW, nn.CrossEntropyLoss; torchtune's own modules (model_impl "
             "torchtune), version.txt 0.2.1 (torchtune_version 0.2.1)",
             "quantization: torchao's NF4Tensor (torchtune QLoRA), whose block scales are themselves quantized: "
             "written as the estimator's 4bit nf4 with double quant",
             "alpaca_cleaned_dataset's default max_seq_len at ca1d7a1 is 512 (torchtune/datasets/_alpaca.py)",
             "log_torchtune.txt has 105 logged steps; the largest value (16.38058752) is first at step 12 and "
             "appears at 15 steps"),
    notes="BenjaminBossan/peft-experiments torchtune/llama3-qlora-single-device/log_torchtune.txt at e0e5696: "
          "'Step 12 | ... peak_memory_alloc:16.38058752 ...' (the largest)")

FSDP_COMMON = dict(BB_BASE, lora_targets=["q_proj", "v_proj"], world_size=2, fsdp="full", fsdp_version=1,
                   fsdp_wrap="block", fsdp_unsharded_accum=False, fsdp_frozen_grads=False, loss="standard")
FSDP_UNKNOWN = ("the two ranks' samplers are DistributedSampler(num_replicas=1, rank=0): both ranks see the same "
                "batches", "no no_sync(): each micro-batch's gradients are reduce-scattered (fsdp_unsharded_accum "
                "False)", "rank 0's log (metric_logger on rank 0, get_memory_stats(device) of rank 0)",
                "torch 2.3.1's FSDP1 defaults otherwise (limit_all_gathers True, use_orig_params False)")
add(BBFSDP, "llama3-8b-instruct-peft-lora-r8-qv-fsdp-full-2x4090-b2-s512", 17.504780288, "GB",
    "max_memory_allocated", "RTX-4090-24GB",
    dict(FSDP_COMMON, load_placement="gpu", loss_in_logits_dtype=True),
    unknown=(*BB_UNKNOWN, PEFT_LOOP, *FSDP_UNKNOWN,
             "train.py (read at b825c5c, the log's commit): AutoModelForCausalLM.from_pretrained(torch_dtype=bf16, "
             "device_map=rank) on every rank before FSDP(...) (load_placement 'gpu'), auto_wrap_policy="
             "fsdp_auto_wrap_policy(model) (PEFT: the decoder layers plus every module with trainable weights, so "
             "the LoRA linears are their own units: fsdp_wrap 'block', fsdp_frozen_grads False), FULL_SHARD, "
             "mixed_precision None (the bf16 weights: precision bf16), FSDP1 (fsdp_version 1)",
             "log_peft.txt has 222 logged steps"),
    notes="BenjaminBossan/peft-experiments torchtune/llama3-lora-fsdp/log_peft.txt at b825c5c: 'Step 12 | ... "
          "peak_memory_active:17.941004288 peak_memory_alloc:17.504780288 ...' (the largest peak_memory_alloc)")

add(BBFSDP, "llama3-8b-instruct-torchtune-lora-r8-qv-fsdp-full-2x4090-b2-s512", 17.579687936, "GB",
    "max_memory_allocated", "RTX-4090-24GB",
    dict(FSDP_COMMON, load_placement="host", model_impl="torchtune", torchtune_version="0.2.1", compiled=False),
    unknown=(*BB_UNKNOWN, *FSDP_UNKNOWN[1:],
             "torchtune's lora_finetune_distributed at ca1d7a1 with bb_8B_lora.yaml: lora_llama3_8b (q_proj, v_proj; "
             "rank 8, alpha 16), FullyShardedDataParallel (FSDP1: fsdp_version 1 written, not torchtune's later "
             "fully_shard), rank 0 builds the model on the CPU and the other ranks on the meta device, "
             "sync_module_states (load_placement 'host' for rank 0), torchtune's LoRA wrap policy (decoder layers "
             "and LoRA modules: fsdp_wrap 'block'), dtype bf16, enable_activation_checkpointing False, batch 2, "
             "gradient accumulation 4, AdamW, nn.CrossEntropyLoss on torchtune's logits; DistributedSampler over "
             "the two ranks",
             "log_torchtune.txt has 208 logged steps"),
    notes="BenjaminBossan/peft-experiments torchtune/llama3-lora-fsdp/log_torchtune.txt at b825c5c: 'Step 6 | ... "
          "peak_memory_active:18.015911936 peak_memory_alloc:17.579687936 ...' (the largest, first at step 6)")

add(BBAA, "llama2-7b-peft-qlora-r8-all-fsdp-cpu-offload-2x4090-b1-s512", 8.746859008, "GB",
    "max_memory_allocated", "RTX-4090-24GB",
    dict(mode="train", model="Llama-2-7B", precision="bf16", optimizer="adamw", micro_batch=1, grad_accum=4,
         seq_len=512, padding="dynamic", datasets=["yahma/alpaca-cleaned"], grad_ckpt=False, attention="sdpa",
         world_size=2, fsdp="full", fsdp_version=1, fsdp_wrap="block", fsdp_frozen_grads=False,
         fsdp_unsharded_accum=True, load_placement="gpu",
         offload_params="cpu", offload_optimizer="cpu", lora_r=8, lora_dropout=0.1,
         lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"], loss="standard",
         quant="4bit", quant_type="nf4", double_quant=True, kbit_prepared=False, use_cache=False,
         torch_version="2.3.1", transformers_version="4.44.0"),
    unknown=("the figure: the largest 'peak_memory_alloc' of log_peft.txt (JSON lines, rank 0, logged every 4 "
             "micro-batches: the script's get_memory_stats, max_memory_allocated / 1e9 with a reset after each log); "
             "unit GB (1e9)",
             "the data (est68, after the blind scoring, in-sample; blind: 'alpaca_sample' read as 512 copies of "
             "'output' * context_length * 2, padding 'max_length'): get_dataloader's alpaca_sample is "
             "load_dataset('yahma/alpaca-cleaned', split='train[:512]') (train.py lines 383-384; the constant "
             "output is the 'dummy' dataset, lines 385-389), batch 1 truncated to context_length 512 by collate_fn "
             "(line 422): padding 'dynamic', seq_len 512 the cap; the log's peaks run from 5.13 to 8.75 GB and the "
             "largest repeats three times (a capped batch)",
             "loading: train_type qlora with low_memory false loads AutoModelForCausalLM.from_pretrained("
             "quantization_config=nf4 / double quant / bf16 compute and quant storage, torch_dtype bf16, sdpa, "
             "use_cache False) on every rank's GPU before FSDP (load_placement 'gpu')",
             "FSDP: PEFT's fsdp_auto_wrap_policy (fsdp_wrap 'block'), FULL_SHARD, use_orig_params False, "
             "CPUOffload(offload_params=True) (offload_params cpu; the optimizer then steps on the CPU copies: "
             "offload_optimizer cpu, as held-out-6 writes fsdp_qlora's offload), limit_all_gathers True, "
             "mixed_precision None for --precision bf16 (the bf16 weights: precision bf16)",
             "no_sync (est68, after the blind scoring; blind: off, fsdp_unsharded_accum False): train.py lines "
             "1253-1254 set args['no_sync'] = True when use_cpu_offload and gradient_accumulation_steps > 1, and "
             "the loop runs 3 of every 4 micro-batches under model.no_sync() (lines 909-910): "
             "fsdp_unsharded_accum True",
             "the loop sets output = None and loss = None after each micro-batch (no output kept across steps)",
             "LoRA: target_modules 'all-linear' (lora_target_modules 'all'), r 8, alpha 16, dropout 0.1 (the "
             "script's default)",
             "the optimizer: the script's default 'adamw' (torch.optim.AdamW, betas 0.9/0.95, weight decay 0.1)",
             "the loss: the model is called with labels (transformers' own loss)",
             "transformers commit e4522fe (2024-08, main near 4.44: 4.44.0 written)",
             "the model: meta-llama/Llama-2-7b-hf (the catalog's Llama-2-7B)"),
    notes="BenjaminBossan/peft-experiments answerai/llama2-qlora-fsdp/log_peft.txt at f4712b5: '{\"step\": 103, ... "
          "\"peak_memory_alloc\": 8.746859008, ... \"rank\": 0}' (the largest); README: 'Memory usage is very close'")

# ------------------------------------------------------------------ 2. faster-whisper's README (generation, nvml)
FW_BASE = dict(mode="generate", model="Whisper-large-v2", micro_batch=1, num_beams=5, seq_len=1500,
               max_new_tokens=224, use_cache=True, world_size=1)
FW_UNKNOWN = (
    "the reading: 'VRAM Usage' / 'Max. GPU memory' in MB; the repository's memory_benchmark.py takes the largest "
    "nvmlDeviceGetMemoryInfo(handle).used >> 20 sampled every 0.5 s (MiB, the whole device, CUDA context included); "
    "the page does not show the script it used for the other implementations: nvidia-smi (MiB) written",
    "the audio: 13 minutes, decoded in 30-second windows one after another (1,500 encoder positions each, seq_len "
    "1500), batch 1 with 5 beams (num_beams 5)",
    "the new tokens per window: openai/whisper's sample_len is n_text_ctx // 2 = 224 (224 written for every row; "
    "how many each window generated is not stated)",
)
add(FWNEW, "whisper-large-v2-openai-whisper-v20240930-fp16-beam5-rtx3070ti", 4708, "MiB", "nvidia-smi",
    "RTX-3080-10GB",
    dict(FW_BASE, precision="fp16", attention="sdpa", torch_version="2.5.1"),
    unknown=(*FW_UNKNOWN,
             "the implementation: openai/whisper's own Whisper model, not transformers (written as the catalog's "
             "Whisper-large-v2, the same shapes)",
             "precision: the figure (4,708 MiB) is below large-v2's fp32 weights (1.55e9 x 4 bytes, 5,900 MiB), so "
             "the run held fp16 weights: 'fp16' written (how the benchmark cast them is not shown)",
             "attention: openai/whisper v20240930 calls scaled_dot_product_attention ('sdpa')",
             "the GPU: 'NVIDIA RTX 3070 Ti 8GB' is not in the catalog; RTX-3080-10GB (the same Ampere generation) "
             "written: the memory it reports is not the card's capacity"),
    notes="SYSTRAN/faster-whisper README.md at 97a4785: '| openai/whisper | fp16 | 5 | 2m23s | 4708MB |', "
          "'*GPU Benchmarks are Executed with CUDA 12.4 on a NVIDIA RTX 3070 Ti 8GB.*'")
add(FWNEW, "whisper-large-v2-transformers-4.46.3-sdpa-fp16-beam5-rtx3070ti", 4960, "MiB", "nvidia-smi",
    "RTX-3080-10GB",
    dict(FW_BASE, precision="fp16", attention="sdpa", torch_version="2.5.1", transformers_version="4.46.3"),
    unknown=(*FW_UNKNOWN,
             "transformers (SDPA) at v4.46.3 with fp16 weights; the footnote '[^1]: transformers OOM for any batch "
             "size > 1' says this row ran at batch size 1; whether through the pipeline or generate's long-form "
             "loop is not stated",
             "the GPU: RTX 3070 Ti 8GB written as RTX-3080-10GB (see the openai/whisper row)"),
    notes="SYSTRAN/faster-whisper README.md at 97a4785: '| transformers (SDPA)[^1] | fp16 | 5 | 1m52s | 4960MB |'")
add(FWOLD, "whisper-large-v2-openai-whisper-6dea21fd-fp16-beam5-v100s", 11325, "MiB", "nvidia-smi",
    "V100-SXM2-32GB",
    dict(FW_BASE, precision="amp-fp16", attention="eager", torch_version="1.13.1", autocast=False),
    unknown=(*FW_UNKNOWN,
             "the implementation: openai/whisper@6dea21fd; load_model keeps the checkpoint's weights in fp32 and its "
             "Linear / Conv1d / LayerNorm cast the weight to the input's dtype at each call, the input fp16: fp32 "
             "weights with fp16 compute, written as 'amp-fp16' (autocast casts the same way)",
             "est73, written after the blind scoring (heldout31_first_scoring.txt keeps it): no torch.autocast runs "
             "(whisper/model.py line 39 'self.weight.to(x.dtype)' inside Linear.forward, a cast made and freed at "
             "each call; no 'autocast' anywhere in whisper/ at 6dea21fd), so autocast's weight cache never holds "
             "the fp16 copies: autocast False",
             "attention: the 2023 openai/whisper computes q @ k^T and softmax itself ('eager')",
             "the GPU: 'Tesla V100S' (PCIe, 32 GB) written as V100-SXM2-32GB"),
    notes="SYSTRAN/faster-whisper README.md at 58f4447: '| openai/whisper | fp16 | 5 | 4m30s | 11325MB | 9439MB |', "
          "'*Executed with CUDA 11.7.1 on a NVIDIA Tesla V100S.*'")

# ------------------------------------------------------------------ 3. cby-pku NLPDL hw3 (generation, fp32)
CB_BASE = dict(mode="generate", precision="fp32", micro_batch=1, seq_len=10, max_new_tokens=40, num_beams=1,
               attention="sdpa", world_size=1, torch_version="2.5.1", transformers_version="4.46.3")
CB_UNKNOWN = (
    "the figure: 'peak_memory_mb' = torch.cuda.max_memory_allocated() / 1024 / 1024 after reset_peak_memory_stats(), "
    "which runs after the model is loaded and moved to the GPU (the weights are in the peak; the load's transients "
    "are not): MiB",
    "the prompts: 20 short English openings (about 8 to 10 tokens); max_length 50 is prompt plus new tokens: seq_len 10 "
    "and max_new_tokens 40 written",
    "the GPU is not stated (A100-SXM-80GB written; a 7B fp32 model needs more than 26 GB)",
    "torch and transformers are not pinned (transformers 4.46.3 written: the repository's copied modeling_gpt2.py has "
    "GPT2SdpaAttention and tuple caches, the 4.45 / 4.46 code; torch 2.5.1 for 2024-12)",
    "attention: transformers' default SDPA for GPT-2 and Llama ('sdpa')",
)
for _cfg, _cache in (("Baseline (no cache)", False), ("With KV-cache", True)):
    _slug = "kvcache" if _cache else "nocache"
    _gpt2 = {False: 524.2177734375, True: 504.27001953125}[_cache]
    _llama = {False: 25722.81298828125, True: 25763.7705078125}[_cache]
    add(CBPKU, f"gpt2-fp32-generate-50-{_slug}", _gpt2, "MiB", "max_memory_allocated", "A100-SXM-80GB",
        dict(CB_BASE, model="GPT-2", use_cache=_cache),
        unknown=(*CB_UNKNOWN, "the model: gpt2 (GPT2LMHeadModel.from_pretrained('gpt2').to('cuda'))"),
        notes=f"cby-pku/pku_nlp_2024 hw3/task1/inference_time_test/inference_results_gpt2.csv at ec4b8ac: "
              f"'{_cfg},...,{_gpt2},...'")
    add(CBPKU, f"llama2-7b-fp32-generate-50-{_slug}", _llama, "MiB", "max_memory_allocated", "A100-SXM-80GB",
        dict(CB_BASE, model="Llama-2-7B", seq_len=12, max_new_tokens=38, use_cache=_cache),
        unknown=(*CB_UNKNOWN,
                 "the model: '/data/models/Llama-2-7b-hf' loaded with AutoModelForCausalLM.from_pretrained(path) "
                 "(no torch_dtype: fp32) and .to('cuda'); Llama's tokenizer gives the prompts a few more tokens "
                 "(BOS): seq_len 12, max_new_tokens 38"),
        notes=f"cby-pku/pku_nlp_2024 hw3/task1/inference_time_test/inference_results_llama2.csv at ec4b8ac: "
              f"'{_cfg},...,{_llama},...'")

# ------------------------------------------------------------------ 4. huolanmiao NLPDL hw3 (generation, fp32)
HL_BASE = dict(mode="generate", model="GPT-2", precision="fp32", micro_batch=1, seq_len=10, max_new_tokens=990,
               num_beams=1, attention="sdpa", world_size=1, torch_version="2.5.1", transformers_version="4.46.3")
HL_UNKNOWN = (
    "the process: one mode per run (the script's 'mode' line is edited), so max_memory_allocated counts from the "
    "process start; the model is built on the CPU and moved with .to('cuda') (no load transient on the GPU)",
    "the prompt: 'The quick brown fox jumps over the lazy dog.' is 10 GPT-2 tokens; min_length = max_length = 1000: "
    "990 new tokens, greedy",
    "the GPU, torch and transformers are not stated (A100-SXM-80GB, 2.5.1 and 4.46.3 written for 2024-12)",
    "attention: transformers' default SDPA for GPT-2 ('sdpa')",
)
add(HLMIAO, "gpt2-fp32-generate-1000-nocache", 1072.46, "MiB", "max_memory_allocated", "A100-SXM-80GB",
    dict(HL_BASE, use_cache=False),
    unknown=(*HL_UNKNOWN,
             "the figure: the script prints (torch.cuda.max_memory_allocated() - model_memory) / 1024**2 where "
             "model_memory is already in MiB (487.47): 487 bytes off the peak, so the printed 1072.46 is the peak in "
             "MiB"),
    notes="huolanmiao/NLPDL-Assignment3 Task1_LLM_inference_acceleration/1.1_Experiments_KVcache_Quantization/"
          "README.md at 14fb80e: 'Inference time GPU Memory Usage (Naïve): 1072.46 MB'")
add(HLMIAO, "gpt2-fp32-generate-1000-kvcache", 638.07, "MiB", "max_memory_allocated", "A100-SXM-80GB",
    dict(HL_BASE, use_cache=True),
    unknown=(*HL_UNKNOWN,
             "the figure: (torch.cuda.max_memory_allocated() - memory_before) / 1024**2 with memory_before the "
             "memory allocated at the start of the fresh process (0): the peak in MiB"),
    notes="huolanmiao/NLPDL-Assignment3 Task1_LLM_inference_acceleration/1.1_Experiments_KVcache_Quantization/"
          "README.md at 14fb80e: 'GPU Memory Usage (KV-cache): 638.07 MB'")


def main():
    write_split("heldout31", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
