"""The splits of ``bench/public_accuracy.py``: which file each ``--split`` scores and where its rows come from.

Every split but ``fit``/``held-out`` (the two halves of ``calibration/public/devset.json``, by source) is a file of
rows committed before it was first scored; add a split here (its path constant, its ``SPLIT_FILES`` entry and its
paragraph below) and build its rows with ``calibration/public/build_heldoutN.py``.

``--split held-out-2`` scores the second held-out set, ``calibration/public/heldout2.json``
(25 rows from sources devset.json does not use, committed before it was first scored);
``--split held-out-3`` the third, ``calibration/public/heldout3.json`` (35 rows from sources
neither earlier set uses, committed before it was first scored). Its optimum rows measure
``allocated+context``: peak allocated tensors plus the process's non-PyTorch memory (the CUDA
context), compared with the tensor peak plus the estimate's context term.
``--split held-out-4`` the fourth, ``calibration/public/heldout4.json`` (rows from the training
benchmarks of transformers' "add SDPA" pull requests, committed before it was first scored).
``--split held-out-5`` the fifth, ``calibration/public/heldout5.json`` (GPT-2 large's training
benchmark from transformers' GPT-2 SDPA pull request, committed before it was first scored).
``--split held-out-6`` the sixth, ``calibration/public/heldout6.json`` (ms-swift's benchmark page,
Answer.AI's fsdp_qlora note and HPC-AI Tech's Lightning GPT benchmark, committed before it was
first scored).
``--split held-out-7`` the seventh, ``calibration/public/heldout7.json`` (transformers' ALBERT SDPA
pull request's training benchmark and llama-recipes' FSDP LoRA memory pull request, committed before
it was first scored).
``--split held-out-8`` the eighth, ``calibration/public/heldout8.json`` (rasbt/pytorch-memory-optim's
logs: ViT-L/16 fine-tunes, FSDP, DistilBERT with ZeRO-2 and FSDP offload; and LLMs-from-scratch's
GPT-2 124M training-speed README: fp32 to bf16, SDPA, compile, DDP; committed before it was first
scored).
``--split held-out-9`` the ninth, ``calibration/public/heldout9.json`` (six independent publishers: litgpt's
config-hub table, PyTorch's optimizer-in-backward tutorial, DeepSpeedExamples' bf16_master_weight ZeRO-3
rows, a BERT-large notebook, mmengine's ViT-L/16 pull request and the Hugging Face FSDP blog's GPT-2 XL
out-of-memory rows; committed before it was first scored).
``--split held-out-10`` the tenth, ``calibration/public/heldout10.json`` (three independent publishers:
gpjt/fine-tune-2024-04's DeepSpeed ZeRO-3 fp16 full fine-tunes of Qwen1.5-0.5B on one GPU and Llama-3-8B on
eight, the Mesa paper's DeiT-Ti/S/B and Swin-T ImageNet baselines, and bitsandbytes' 8-bit/paged optimizer
benchmark on Qwen3-0.6B; committed before it was first scored).
``--split held-out-11`` the eleventh, ``calibration/public/heldout11.json`` (two publishers: the Qwen2.5 speed
benchmark's bf16 FlashAttention-2 generation of 2,048 tokens after prompts of up to 30,720 tokens on an A100,
and universal-llm-trainer's H100 table of full/LoRA/QLoRA fine-tunes at 2 x 8,192 tokens, one FSDP CPU-offload
row and one out-of-memory row; committed before it was first scored).
``--split held-out-12`` the twelfth, ``calibration/public/heldout12.json`` (the memory figures ms-swift's example
scripts and Megatron-SWIFT benchmark state: DeepSpeed ZeRO-2/3 full fine-tunes at 8,192 packed tokens on four and
eight GPUs with and without Liger, LoRA under DDP/ZeRO-2/ZeRO-3/FSDP2, QLoRA under FSDP with CPU offload, and
single-GPU full, LoRA, QLoRA, packed and Unsloth runs, plus Philipp Schmid's Llama-3-70B FSDP QLoRA offload row;
committed before it was first scored).
``--split held-out-13`` the thirteenth, ``calibration/public/heldout13.json`` (two publishers: Liger-Kernel's
Hugging Face Trainer FSDP fine-tunes of Llama-3-8B and Qwen2-7B on four and eight A100s with and without the
fused linear cross-entropy, and DeepSeek-LLM's 7B bf16 inference profile on one A100-PCIE-40GB, with five
out-of-memory verdicts; committed before it was first scored).
``--split held-out-14`` the fourteenth, ``calibration/public/heldout14.json`` (three publishers: LLaMA-Factory's
wiki QLoRA context-length sweep of LLaMA2-7B on one A100 40GB with two out-of-memory verdicts, a DeepSpeed
benchmark gist of LLaMA-7B full fine-tunes on eight A800s under ZeRO-2/3 with checkpointing and CPU offload, and
milabench's BERT-base masked-LM memory model in fp32 and fp16 AMP; committed before it was first scored).
``--split held-out-15`` the fifteenth, ``calibration/public/heldout15.json`` (three publishers: Unsloth's docs, the
longest context its Hugging Face + FA2 baseline fits for QLoRA of Llama 3.1 8B on 8-80 GB GPUs and Llama 3.3 70B
on 48/80 GB with two out-of-memory verdicts, and axolotl's example READMEs from 2023 to 2025: LoRA/QLoRA of 7-24B
models, a Llama-3-8B full fine-tune and a 70B FSDP QLoRA with offload on two GPUs, and xTuring's LLaMA-7B
full and LoRA fine-tunes under DeepSpeed ZeRO-2 with and without CPU offload on four A100 40GB; committed
before it was first scored).
``--split held-out-16`` the sixteenth, ``calibration/public/heldout16.json`` (eight publishers, half the rows
not decoder-LLM fine-tunes: Whisper-large LoRA/AdaLoRA fine-tunes under DDP on A100s and on a Colab T4 with a full
fine-tune that does not fit, open_clip CLIP ViT-B/16 on a V100 32GB and ViT-B/32 on an RTX 3090 with out-of-memory
verdicts, stanford_alpaca's FSDP full fine-tunes of LLaMA-7B that run out of memory on 4-8 GPUs, qlora.py QLoRA of
LLaMA-7B/13B under DDP on two RTX 3090s, an 8-bit LoRA under ZeRO-2 with CPU offload on two P100s and a 16-bit LoRA
of Llama-3.2-1B; committed before it was first scored).
``--split held-out-17`` the seventeenth, ``calibration/public/heldout17.json`` (twelve publishers, most rows not
single-GPU LoRA of a decoder LLM: Swin-T/S ImageNet logs (max_memory_allocated), a Flan-T5-large fine-tune in fp32,
RoBERTa-base/DistilBERT classifiers, an unsupervised SimCSE RoBERTa-large batch, LLaVA under ZeRO-2/ZeRO-3/FSDP,
a Llama-2-7B FSDP run on 16 GPUs, ToolLLaMA-7B FSDP/ZeRO-2 at 8k on 4 GPUs, LongLoRA's 32k LoRA and YaRN's 64k
full fine-tune, a StarCoder 8-bit LoRA at 8k, with eight out-of-memory verdicts, and 8-bit LoRA of LLaMA-7B/13B on
an RTX 4090; committed before it was first scored).
``--split held-out-18`` the eighteenth, ``calibration/public/heldout18.json`` (seven publishers: XTuner's docs and
issues (Qwen3-8B under FSDP2 on 8 GPUs and a 3-layer Qwen3 from the v1 trainer's max_memory_allocated / reserved
log, an InternLM2-7B QLoRA and an InternLM2-1.8B reward model from mmengine's memory column, Yi-34B-200K at 128k
tokens under ZeRO-3 out of memory on 16/32/64 GPUs, LLaVA-v1.5-13B QLoRA out of memory on an RTX 3090), caikit-nlp's
Llama-2-7B full fine-tunes out of memory on an A100 80GB, NegCLIP CLIP ViT-B/32 with hard negatives, Ludwig's
Llama-2-7B QLoRA out of memory on a T4, FastChat's Vicuna-7B FSDP on 8 (about 30 GiB) and 4 (OOM) A100 40GB and
LLM-Workshop's Llama-2-7B FSDP full fine-tune with paged 32-bit AdamW and OpenRLHF's GLM-4-9B DPO under ZeRO-3 out
of memory without FlashAttention; committed before it was first scored).
``--split held-out-19`` the nineteenth, ``calibration/public/heldout19.json`` (four publishers: the GLM-4 and
ChatGLM3 fine-tuning demos' per-GPU tables (GLM-4-9B LoRA on one A100 80GB and full under ZeRO-3 on eight,
ChatGLM3-6B LoRA on one GPU and full in fp32 under ZeRO-3 on four) and three LoRA runs their users report out of
memory (GLM-4-9B at 6k tokens under ZeRO-3 on 4 RTX 3090s, on one RTX 3090 Ti, ChatGLM3-6B at 2.5k on an RTX 4090),
lowmem_finetuning's Llama-3.2-1B full fine-tunes with fp32 Adam / Adafactor and bf16 Adafactor inside backward with
a fused cross-entropy (also Llama-3.1-8B), s1's Qwen2.5-32B FSDP full fine-tunes at 32k tokens out of memory on 8
and 16 H100s, and a Whisper-large-v3 full fine-tune with 8-bit AdamW on an A100 80GB; committed before it was first
scored).
``--split held-out-20`` the twentieth, ``calibration/public/heldout20.json`` (three publishers: ChatGLM-Finetuning's
A40 table of ChatGLM-6B / ChatGLM2-6B LoRA under ZeRO-2 fp16 on 1 and 4 GPUs with and without checkpointing and full
fine-tunes under ZeRO-3 with and without CPU offload on 4, Datawhale self-llm's Phi-4 LoRA, Qwen3-30B-A3B expert LoRA
on an H20, Qwen3-1.7B bf16 full fine-tune and MiniCPM-2B LoRA / full under ZeRO-2 with the optimizer on the CPU, and
Chinese-Vicuna's LLaMA-7B/13B LLM.int8 and fp16 LoRA runs at 256-2,048 tokens; committed before it was first
scored).
``--split held-out-21`` the twenty-first, ``calibration/public/heldout21.json`` (the Qwen-1 repository's own profiling
table: Qwen-1.8B/7B/14B/72B fine-tuned with its finetune.py on A100 80GB at batch 1 and 256-8,192 padded tokens: LoRA
on every linear with and without trainable embedding/output copies, Q-LoRA on the GPTQ Int4 chat models under ZeRO-2
fp16, full fine-tunes under ZeRO-3 on 1 and 2 GPUs and a 72B LoRA under ZeRO-3 on 4; committed before it was first
scored).
``--split held-out-22`` the twenty-second, ``calibration/public/heldout22.json`` (two sources: the CoRal project's
GPU-usage notes on its ASR configs, full fine-tunes of Whisper tiny to large-v3 and wav2vec2-xls-r-300m (CTC) with the
HF Trainer under bf16 autocast on an RTX A4000 / RTX 6000 Ada, and torchtune's May 2024 README table, Llama-2-7B
QLoRA / LoRA / full fine-tunes on RTX 4090s and Llama-2-70B LoRA / full under FSDP on 8 A100s at fixed batch 4 x
2,048 / 4,096 tokens; committed before it was first scored).

``--split held-out-23`` the twenty-third, ``calibration/public/heldout23.json`` (four sources: Mistral-7B generation with
FlashAttention-2 after 12- and 11K-token prompts at batch 1-4 from transformers PR #26464, BERT with its LM head trained in
fp16 under eager and SDPA attention on an A100 from transformers PR #28802, FLAN-T5-XL / XXL ZeRO-3 fp32 fine-tunes out of
memory on V100s from Philipp Schmid's DeepSpeed notebook, and MiniCPM-2B full / LoRA fine-tunes under ZeRO-3 with CPU offload
from OpenBMB/MiniCPM's finetune README; committed before it was first scored).

``--split held-out-24`` the twenty-fourth, ``calibration/public/heldout24.json`` (one source: ELECTRA's base generator and
base discriminator trained with a masked-LM head in pure fp16 on a Tesla T4 under eager and SDPA attention at 8 x 256,
16 x 128 and 16 x 256 tokens, the SDPA training benchmark of transformers PR #37106; committed before it was first
scored).

``--split held-out-25`` the twenty-fifth, ``calibration/public/heldout25.json`` (three sources: Lightning Thunder's
litgpt benchmark (pure bf16, fused AdamW, torch.compile) of Llama-2-13B cut to 2-20 layers at 2 x 4,096 tokens on one
H100 and under FSDP on eight, from lightning-thunder issue #474; Mistral-7B-v0.2, LongChat-13B-16K, Vicuna-7B-v1.5-16K
and CodeLlama-34B at 16-32K tokens under FSDP with activation checkpointing on eight H100s with Gemma-2-27B and
Llama-3-70B out of memory, from lightning-thunder PR #1261; and TRL's DPO quick start with an fp32 reference copy of
Qwen2.5-0.5B out of memory on an A100 80GB, trl issue #3168; committed before it was first scored).

``--split held-out-26`` the twenty-sixth, ``calibration/public/heldout26.json`` (three sources: NVIDIA NeMo AutoModel's
gradient-checkpointing guide, Llama-3.2-1B at 8 x 2,048 tokens on H100s on one GPU, under FSDP2 on eight, with activation
checkpointing and with the fused linear cross-entropy; litgpt's LoRA / QLoRA tutorial table of Aug 2023, StableLM-3B and
Llama-2-7B on Alpaca at micro batch 4 in bf16-mixed / bf16-true with NF4 and double quantization, Llama-2-7B bf16-mixed
out of memory; and its StableLM-3B re-measurement after Fabric's quantization, litgpt PR #596; committed before it was
first scored).

``--split held-out-27`` the twenty-seventh, ``calibration/public/heldout27.json`` (one source: IDRIS's
Democratizing-LLM-FT job logs, full fine-tuning of Qwen2.5-14B/32B/72B with FSDP2 (fp32 shards, bf16 mixed-precision
policy) at 2 x 4,096 tokens per GPU on 64 GPUs, with and without torch.compile: 14B and 32B without activation
checkpointing on GB200s, 72B with full activation checkpointing on H100s and A100s; committed before it was first
scored).

``--split held-out-28`` the twenty-eighth, ``calibration/public/heldout28.json`` (four pages, two publishers: ATorch's
Llama-2-7B FSDP example README in intelligent-machine-learning/dlrover, full fine-tuning and LoRA under FSDP FULL_SHARD
with bf16 autocast, checkpointing and flash attention at 4 x 4,096 tokens on 8 to 64 A100-80GB; and three Lightning
Thunder pages printing benchmark_litgpt.py's peaks for litgpt's GPT in pure bf16 on 8 H100s under torch FSDP1 / FSDP2,
eager or torch.compile: Llama-2-7b-hf (PR #940), stablecode-completion-alpha-3b at 16,384 and 8,192 tokens (issue
#1176), Llama-3-8B zero2 / zero3 (PR #1156); committed before it was first scored).

``--split held-out-29`` the twenty-ninth, ``calibration/public/heldout29.json`` (six pages, three publishers:
Chinese-CLIP's FlashAttention table, CN-CLIP ViT-B/16 to ViT-H/14 fine-tuned under DDP with AMP fp16 on 8 A100-80GB
with and without FlashAttention; four LLMs-from-scratch READMEs printing max_memory_allocated for bf16 generation with
the book's own models (a GPT with MHA / GQA and a KV cache over 32,768 tokens, a dense-FFN and a 32-expert MoE GPT,
Llama 3.2 1B and Qwen3 0.6B without a KV cache); and DeepSpeed's Muon blog, Qwen2.5-3B full fine-tuning with AdamW under
ZeRO-2 bf16 on 8 A100-40GB; committed before it was first scored).

``--split held-out-30`` the thirtieth, ``calibration/public/heldout30.json`` (three pages, three publishers: the Qwen3
documentation's speed benchmark, bf16 generation of 2,048 tokens with transformers and FlashAttention-2 on one H20 96GB,
one row per model; torchao's gpt-fast generate.py lines, Llama-2-7B chat and Llama-3-8B in bf16 and fp32, eager and
compiled, 200 new tokens on an A100-80GB; LLMs-from-scratch's Gemma 3 270M page, bf16 greedy generation with and without
a KV cache, eager and compiled, on an A100; committed before it was first scored).

``--split held-out-31`` the thirty-first, ``calibration/public/heldout31.json`` (four publishers no earlier split read:
Benjamin Bossan's peft-experiments logs, Llama-3-8B-Instruct LoRA / QLoRA fine-tuning with PEFT and torchtune on one RTX
4090, LoRA with FSDP on two and Llama-2-7B QLoRA with FSDP and CPU offload on two, six training rows; faster-whisper's
README benchmark, Whisper large-v2 beam-5 transcription with openai/whisper and transformers, NVML device memory; two
PKU NLPDL 2024 homework repositories, GPT-2 and Llama-2-7B fp32 generation with and without a KV cache; committed before
it was first scored).

``--split held-out-32`` the thirty-second, ``calibration/public/heldout32.json`` (three publishers no earlier split
read: the ml-engineering book's GPU-upgrade benchmark, Llama-3.1-8B full training with DeepSpeed on 8 H200s, ZeRO-3
with a CPU-offloaded optimizer, checkpointing and Liger-Kernel from 8K to 256K tokens and ZeRO-2 at 8K,
max_memory_reserved; an EE 5453 KV-cache assignment, distilgpt2 fp16 decoding with and without the cache; a Columbia
HPML project, DistilBERT sequence-classification LoRA in fp32; 13 training rows; committed before it was first scored).

``--split held-out-33`` the thirty-third, ``calibration/public/heldout33.json`` (four publishers no earlier split
read: three Stanford CS336 students' assignment-2 memory answers, the course's BasicsTransformerLM small to xl trained
with the course AdamW in fp32 and bf16 autocast at batch 1-4 and context 128-2048, per-block checkpointing, no-grad
forward passes, max_memory_allocated / memory_viz peaks; a LoRA write-up, Llama-3.2-1B classification LoRA r16 in fp32
on an A10 and its full fine-tune out of memory; 16 training rows; committed before it was first scored).

``--split held-out-34`` the thirty-fourth, ``calibration/public/heldout34.json`` (four publishers no earlier split
read: three more Stanford CS336 students' assignment-2 memory answers, the 2.7B / xl course-shaped model as their own
or the course's code, no-grad forward passes and AdamW training steps in fp32 and bf16 autocast at context 128 to
2048 on two H100s and a B200, max_memory_allocated, four training steps out of memory; a framework author's
peak-memory experiment, a 1.6B ALiBi DeepNet decoder with Adafactor on an RTX 4090 in fp32 / bf16 weights with
per-layer checkpointing, the optimizer fused into the backward and torch.compile; 19 training rows; committed before
it was first scored).

``--split held-out-35`` the thirty-fifth, ``calibration/public/heldout35.json`` (three publishers no earlier split
cites: three more Stanford CS336 students' assignment-2 memory answers, all with the course's own BasicsTransformerLM:
the 2.7B model on an H100 (no-grad forward and course-AdamW training step at context 128 to 512), the xl model on a
96 GB RTX PRO 6000 the catalog lacks (no-grad forward at context 128 to 2048, torch.optim.AdamW training step at 128 /
512) and four widths with the script's default feed-forward on an A100 80GB PCIe (course-AdamW training steps, small
to xl at context 512, the xl also at 128 and in bf16, out of memory at 2048); fp32 and bf16 autocast,
max_memory_allocated GiB; 18 training rows; committed before it was first scored).

``--split held-out-36`` the thirty-sixth, ``calibration/public/heldout36.json`` (two publishers no estimator source
cites, by est36b's rule: two more Stanford CS336 students' assignment-2 memory answers with the course's own
BasicsTransformerLM: the xl model with vocab 32,000 at batch 1 on a 96 GB RTX PRO 6000 the catalog lacks (no-grad
forward and course-AdamW training step at context 128 / 2048, fp32 and bf16 autocast, max_memory_allocated MiB over
three steps, torch 2.11), and a 2560-wide 8-layer variant at batch 4 on an unnamed GPU (no-grad forward at 128 / 2048,
torch.optim.AdamW step on logits.float().mean() at 128); 14 peaks, 4 training rows, no verdicts; committed before it
was first scored).

``--split held-out-37`` the thirty-seventh, ``calibration/public/heldout37.json`` (two publishers no estimator source
cites, by est36b's rule, neither CS336: a chat-model project's LLaMA 7B / 13B / 30B LoRA fine-tunes on an 8-bit base,
micro batch 32 / 16 / 8 of 512 padded tokens, fp16 mixed precision, on an A100-80G (README GB, reading not stated),
and a post-training framework's automated benchmark of Qwen3-0.6B full SFT on one GPU under FSDP2 with activation
checkpointing and per-layer compile, 2 micro batches of 8192 / 16384 tokens on an H100 80GB or an RTX A6000
(max_memory_reserved GiB) and an out-of-memory run at 65536 on the H100; 6 peaks and one OOM, 7 training rows;
committed before it was first scored).

``--split held-out-38`` the thirty-eighth, ``calibration/public/heldout38.json`` (three publishers no estimator source
cites, by est36b's rule, and no decoder LM: an issue comment's bert-base-cased MRPC fine-tunes on 2 GPUs, 128 tokens,
per-device batch 8-64 in fp32 and fp16 AMP (nvidia-smi MB, the GPU not named), an FP8 library README's FP16 AMP
baselines of a 1.0B Swin at batch 16 and a 1.2B ViT at batch 128 under 8-GPU DDP (nvidia-smi MB, the GPU not named),
and a T5 v1.1 base pre-training README's 60 GB of 80 at batch 64 x 2 of 512 / 114 tokens in fp32 on an A100 80GB;
11 peaks, all training rows, 2 verdict-free GPUs; committed before it was first scored).

``--split held-out-39`` the thirty-ninth, ``calibration/public/heldout39.json`` (three issue authors no estimator
source cites, by est36b's rule: a RoBERTa-large sequence-classification fine-tune at batch 64 of 96 tokens, full and
LoRA r=8 ("around 17 GB" / "12 GB", the GPU not named), a Llama 2 13B chat 8-bit LoRA r=8 recipe run at batch 16 of
224 tokens on an RTX 3090 (22.7 GB) and a Llama-3-8B full bf16 fine-tune with Liger's kernels at batch 2 of at most
512 tokens that ran out of memory on an A100 40GB; 3 peaks and one OOM verdict, all training rows; committed before
it was first scored).

``--split held-out-40`` the fortieth, ``calibration/public/heldout40.json`` (four issue and pull-request authors no
estimator source cites, by est36b's rule: a DeepSpeed-Chat full fine-tune of BLOOM 560M and 1.1B at batch 1 of 512 /
1024 tokens in DeepSpeed fp16 on two 24 GB TITAN RTX under ZeRO stage 1, 2 and 3 (nine per-GPU nvidia-smi figures), a
torchtune single-device Llama 2 7B full fine-tune in bf16 with paged AdamW stepped in backward at batch 4 of 2048
tokens measured twice (peak allocated, once on an unnamed GPU, once on an A100), and the GPT-2 run_clm.py example with
its default batch 8 of 1024 tokens in fp32 that ran out of memory on a 32 GB V100; 11 peaks and one OOM verdict, all
training rows; committed before it was first scored).

``--split held-out-41`` the forty-first, ``calibration/public/heldout41.json`` (three publishers no estimator source
cites, by est36b's rule: two CS336 students' memory profiles of the course model (the 2.7B model's full training step
at batch 4 and context 128 / 256 / 512 in fp32 and bf16 autocast on an 80 GB H800, and the 'large' model's no-grad
forward pass and training step at batch 1 in fp32 on a 24 GB A10) and an FSDP LoRA fine-tune of Llama 2 7B in pure bf16
at batch 4 of 2048 tokens on four 40 GB A100 with FSDP's rate limiter off and on; 15 peaks, 12 of them training rows;
committed before it was first scored).

``--split held-out-42`` the forty-second, ``calibration/public/heldout42.json`` (three publishers no estimator source
cites, by est36b's rule, all CS336 students' memory measurements of the course model: the xl model's no-grad forward
pass and course-AdamW training step in fp32 and bf16 autocast on an H200 (max_memory_allocated bytes from a committed
runs.jsonl, and two out-of-memory training steps at batch 4 x 2048) and the 'medium' model's bf16-autocast training
step with and without per-block checkpointing at batch 1 x 1024 / 2048 on an RTX 4090; the 2.7B model's fp32 training
step at batch 4 x 128 / 256 / 512 on an H100; the 'large' model's no-grad forward at batch 4 x 128 / 256 / 512 in fp32
and bf16 on an 8 GB laptop RTX 4060; 21 peaks and 2 OOM verdicts; committed before it was first scored).

``--split held-out-43`` the forty-third, ``calibration/public/heldout43.json`` (four publishers no estimator source
cites, by est36b's rule, none a CS336 student: Qwen2-0.5B full / LoRA r=8 / LoRA r=64 / QLoRA fine-tunes under the HF
Trainer on a Colab T4 (max_memory_allocated GiB), SimMIM's ViT-B/16 ImageNet fine-tune under apex O1 on 8 A100s (the
log's max_memory_allocated MiB), a RoBERTa-base fp32 sequence-classification fine-tune on an RTX A4000, and six
deepseek-math-7b bf16 DeepSpeed ZeRO 0-3 / checkpointing / optimizer-offload runs on two RTX 4090 that ran out of
memory; 6 peaks and 6 OOM verdicts, below the ten-peak bar; committed before it was first scored).

``--split held-out-44`` the forty-fourth, ``calibration/public/heldout44.json`` (six publishers no estimator source
cites, by est36b's rule, none a CS336 student: the AUB HPC user guide's Llama-2-7B LoRA r=8 fine-tune on an LLM.int8
base under llama-recipes on a 32 GB V100 (the log's max_memory_allocated, an integer-GiB floor), a GPT-2-medium fp32
full fine-tune for CoLA classification (max_memory_allocated GB, its GPU not named), GPT-2 run_language_modeling on a
Colab T4, Qwen1.5-7B ZeRO-2 full SFT on eight 40 GB A100s, Qwen2.5-3B ZeRO-2 full SFT on four RTX 3090 and Llama-3-8B
OpenRLHF ZeRO-2 full SFT on one and four RTX 3090, all of which ran out of memory; 2 peaks and 5 OOM verdicts, far
below the ten-peak bar; committed before it was first scored).

``--split held-out-45`` the forty-fifth, ``calibration/public/heldout45.json`` (publishers no estimator source cites,
by est36b's rule, none a CS336 student: GPT-2 (124M) Alpaca fine-tunes under ColossalAI's TorchDDP plugin on a 16 GB
V100S vGPU (full, LoRA, and LoRA on an LLM.int8 base; the log's max_memory_allocated) and a GPT-2 LoRA spam classifier
on an RTX 4070 Ti SUPER (an nvidia-smi reading), a bloomz-7b1 fp32 LoRA with PEFT's accelerate example on a 40 GB
A100 (its max_memory_allocated MiB), a Llama-2-7B fp32 full fine-tune with llama-recipes' defaults on one 80 GB A100
and a Llama-3-8B OpenRLHF ZeRO-2 SFT on one 80 GB A100, both of which ran out of memory; 5 peaks and 2 OOM verdicts,
below the ten-peak bar; committed before it was first scored).
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEVSET = REPO / "calibration" / "public" / "devset.json"
HELDOUT2 = REPO / "calibration" / "public" / "heldout2.json"
HELDOUT3 = REPO / "calibration" / "public" / "heldout3.json"
HELDOUT4 = REPO / "calibration" / "public" / "heldout4.json"
HELDOUT5 = REPO / "calibration" / "public" / "heldout5.json"
HELDOUT6 = REPO / "calibration" / "public" / "heldout6.json"
HELDOUT7 = REPO / "calibration" / "public" / "heldout7.json"
HELDOUT8 = REPO / "calibration" / "public" / "heldout8.json"
HELDOUT9 = REPO / "calibration" / "public" / "heldout9.json"
HELDOUT10 = REPO / "calibration" / "public" / "heldout10.json"
HELDOUT11 = REPO / "calibration" / "public" / "heldout11.json"
HELDOUT12 = REPO / "calibration" / "public" / "heldout12.json"
HELDOUT13 = REPO / "calibration" / "public" / "heldout13.json"
HELDOUT14 = REPO / "calibration" / "public" / "heldout14.json"
HELDOUT15 = REPO / "calibration" / "public" / "heldout15.json"
HELDOUT16 = REPO / "calibration" / "public" / "heldout16.json"
HELDOUT17 = REPO / "calibration" / "public" / "heldout17.json"
HELDOUT18 = REPO / "calibration" / "public" / "heldout18.json"
HELDOUT19 = REPO / "calibration" / "public" / "heldout19.json"
HELDOUT20 = REPO / "calibration" / "public" / "heldout20.json"
HELDOUT21 = REPO / "calibration" / "public" / "heldout21.json"
HELDOUT22 = REPO / "calibration" / "public" / "heldout22.json"
HELDOUT23 = REPO / "calibration" / "public" / "heldout23.json"
HELDOUT24 = REPO / "calibration" / "public" / "heldout24.json"
HELDOUT25 = REPO / "calibration" / "public" / "heldout25.json"
HELDOUT26 = REPO / "calibration" / "public" / "heldout26.json"
HELDOUT27 = REPO / "calibration" / "public" / "heldout27.json"
HELDOUT28 = REPO / "calibration" / "public" / "heldout28.json"
HELDOUT29 = REPO / "calibration" / "public" / "heldout29.json"
HELDOUT30 = REPO / "calibration" / "public" / "heldout30.json"
HELDOUT31 = REPO / "calibration" / "public" / "heldout31.json"
HELDOUT32 = REPO / "calibration" / "public" / "heldout32.json"
HELDOUT33 = REPO / "calibration" / "public" / "heldout33.json"
HELDOUT34 = REPO / "calibration" / "public" / "heldout34.json"
HELDOUT35 = REPO / "calibration" / "public" / "heldout35.json"
HELDOUT36 = REPO / "calibration" / "public" / "heldout36.json"
HELDOUT37 = REPO / "calibration" / "public" / "heldout37.json"
HELDOUT38 = REPO / "calibration" / "public" / "heldout38.json"
HELDOUT39 = REPO / "calibration" / "public" / "heldout39.json"
HELDOUT40 = REPO / "calibration" / "public" / "heldout40.json"
HELDOUT41 = REPO / "calibration" / "public" / "heldout41.json"
HELDOUT42 = REPO / "calibration" / "public" / "heldout42.json"
HELDOUT43 = REPO / "calibration" / "public" / "heldout43.json"
HELDOUT44 = REPO / "calibration" / "public" / "heldout44.json"
HELDOUT45 = REPO / "calibration" / "public" / "heldout45.json"
SPLIT_FILES = {"held-out-2": HELDOUT2, "held-out-3": HELDOUT3, "held-out-4": HELDOUT4,
               "held-out-5": HELDOUT5, "held-out-6": HELDOUT6,
               "held-out-7": HELDOUT7, "held-out-8": HELDOUT8,
               "held-out-9": HELDOUT9, "held-out-10": HELDOUT10, "held-out-11": HELDOUT11,
               "held-out-12": HELDOUT12,
               "held-out-13": HELDOUT13, "held-out-14": HELDOUT14, "held-out-15": HELDOUT15,
               "held-out-16": HELDOUT16, "held-out-17": HELDOUT17, "held-out-18": HELDOUT18,
               "held-out-19": HELDOUT19, "held-out-20": HELDOUT20,
               "held-out-21": HELDOUT21, "held-out-22": HELDOUT22,
               "held-out-23": HELDOUT23, "held-out-24": HELDOUT24,
               "held-out-25": HELDOUT25, "held-out-26": HELDOUT26,
               "held-out-27": HELDOUT27, "held-out-28": HELDOUT28,
               "held-out-29": HELDOUT29, "held-out-30": HELDOUT30,
               "held-out-31": HELDOUT31, "held-out-32": HELDOUT32,
               "held-out-33": HELDOUT33, "held-out-34": HELDOUT34,
               "held-out-35": HELDOUT35, "held-out-36": HELDOUT36,
               "held-out-37": HELDOUT37,
               "held-out-38": HELDOUT38,
               "held-out-39": HELDOUT39,
               "held-out-40": HELDOUT40,
               "held-out-41": HELDOUT41,
               "held-out-42": HELDOUT42,
               "held-out-43": HELDOUT43,
               "held-out-44": HELDOUT44,
               "held-out-45": HELDOUT45}
