"""The twenty-sixth held-out set of the jobs benchmark (run.py --set held-out-26): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H26="twenty-sixth held-out set"
MMA=("meta-math/MetaMath","fe667b14f9a4c51bde9809adafb82b6b5d255800")
mms="run_mistral.sh"
mmt="train_math.py"
J("metamath-mistral-7b-fsdp-distributed-launch-script-8gpu",*MMA,["."],".",[mms],{
 "model.ref":T("mistralai/Mistral-7B-v0.1",mms+":1 export MODEL_PATH -> :10 --model_name_or_path $MODEL_PATH -> "+mmt+":254-257 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(7240000000,"Mistral-7B-v0.1 (32 layers, hidden 4096, GQA 32/8, intermediate 14336, vocab 32000 untied): 7.24B",rel_tol=0.1),
 "dist.world_size":T(8,mms+":9 CUDA_VISIBLE_DEVICES=0,...,7 python3 -m torch.distributed.launch --nproc_per_node=8 --use_env"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes (default 1)"),
 "dist.devices_per_node":T(8,mms+":9 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",mms+":28 --fsdp \"full_shard auto_wrap\" (:29 MistralDecoderLayer wrapped)"),
 "batch.micro":T(2,mms+":16 --per_device_train_batch_size 2"),
 "batch.grad_accum":T(8,mms+":18 --gradient_accumulation_steps 8"),
 "batch.global":T(128,"2 x 8 x 8"),
 "data.seq_len":T(512,mmt+":74-77 model_max_length default 512 (not given) -> :262 tokenizer model_max_length -> :115-122 truncation to 512 (padding to the longest)"),
 "precision.mode":T("amp_bf16",mms+":13 --bf16 True under FSDP; "+mmt+":254-257 from_pretrained without torch_dtype (fp32 weights): FSDP mixed precision bf16 over fp32 parameters"),
 "optimizer.name":T("AdamW",mmt+":73 optim default adamw_torch (a TrainingArguments subclass field)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing in "+mms+" (TrainingArguments default False)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full fine-tuning: no adapter library in "+mmt),
},held_out=True,note=H26+"; bash run_mistral.sh (the repository's Mistral variant of README.MD:103 bash run.sh: exports of the model id, addresses and WANDB, then CUDA_VISIBLE_DEVICES=0,...,7 python3 -m torch.distributed.launch --nproc_per_node=8 --use_env train_math.py --model_name_or_path $MODEL_PATH ... --bf16 True --per_device_train_batch_size 2 --gradient_accumulation_steps 8 --fsdp 'full_shard auto_wrap' ..., followed by two evaluation python lines; HfArgumentParser over three dataclasses with parse_args_into_dataclasses(return_remaining_strings=True) taking --data_length as a leftover; full fine-tuning of Mistral-7B on MetaMathQA)")
CLM=("hao-ai-lab/Consistency_LLM","22775363f8563c63620e71f7a204e90a51d6a379")
cls_="scripts/train_cllm.sh"
clt="cllm/train_cllm_global.py"
J("cllm-abel-7b-jacobi-fsdp-torchrun-positional-script-4gpu",*CLM,["."],".",[cls_,"--","GAIR/Abel-7B-001","data/collected_jacobi_trajectory/gsm8k_jacobi.json","output/cllm-abel-7b-gsm8k","16"],{
 "model.ref":T("GAIR/Abel-7B-001",cls_+":4 model_path=$1 -> :13 --target_model_path -> "+clt+":260-267 AutoModelForCausalLM.from_pretrained (README.md:95 the GSM8K target model)"),
 "model.num_parameters":T(6740000000,"Abel-7B-001 is a Llama-2-7B fine-tune (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B (+ LoRA r 32 on q/v, 8.4M)",rel_tol=0.1),
 "dist.world_size":T(4,cls_+":10 torchrun --nnodes=1 --nproc_per_node=4 (:1 CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,cls_+":10 --nnodes=1"),
 "dist.devices_per_node":T(4,cls_+":10 --nproc_per_node=4"),
 "dist.sharding":T("fsdp_full",cls_+":34 --fsdp \"full_shard auto_wrap\""),
 "batch.micro":T(1,cls_+":21 --per_device_train_batch_size 1 (cllm/cllm_trainer_global.py:119-129 its own DataLoader with that batch size)"),
 "batch.grad_accum":T(1,cls_+":22 --gradient_accumulation_steps 1"),
 "batch.global":T(4,"1 x 1 x 4"),
 "precision.mode":T("amp_bf16",cls_+":17 --bf16 True; "+clt+":266 bf16 weights, but :277-279 prepare_model_for_kbit_training (the qlora branch, see peft.method) casts every bf16 parameter of a non-quantized model to fp32: bf16 autocast under FSDP over fp32 parameters"),
 "optimizer.name":T("AdamW",clt+":61 optim default adamw_torch",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,cls_+":23 --gradient_checkpointing True (and prepare_model_for_kbit_training's default use_gradient_checkpointing)"),
 "model.attn_implementation":T("flash_attention_2",clt+":264 attn_implementation='flash_attention_2'"),
 "data.num_workers":T(0,"no --dataloader_num_workers (default 0) -> cllm/cllm_trainer_global.py:125"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True -> cllm/cllm_trainer_global.py:126"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",cls_+":8 qlora=$5 is empty for the README's four arguments, so :36 ends the line with a bare --qlora -> "+clt+":49 Optional[bool] field: HfArgumentParser (transformers 4.36.2, requirements.txt) gives a bare bool flag const=True -> :277-287 LoraConfig + get_peft_model"),
 "peft.rank":T(32,clt+":282 r=32"),
 "task.mode":T("lora","LoRA on a bf16 (not quantized) base: no BitsAndBytesConfig or load_in_4bit anywhere",any_of=["lora","qlora"]),
},held_out=True,note=H26+"; README.md:134 bash scripts/train_cllm.sh {model_path} {trajectory_file} {output_path} {n_token_seq_size} with the GSM8K target model of README.md:95 (GAIR/Abel-7B-001), a trajectory file, an output folder and n-token sequence size 16 filled in (a launch script taking four positional arguments and a fifth, qlora, that the README leaves empty, then torchrun --nnodes=1 --nproc_per_node=4 cllm/train_cllm_global.py ... --fsdp 'full_shard auto_wrap' --qlora ${qlora}; HfArgumentParser over three dataclasses, a Trainer subclass with its own data loader and consistency loss; consistency distillation of a 7B LLM for Jacobi decoding). Not labelled: sequence length (trajectories of prompt + n-token chunks; model_max_length 2048 only sets RoPE scaling, "+clt+":253-256)")
MLL=("epfLLM/Megatron-LLM","806a83302cbf4f7d6e147fe34bad5885cf745709")
mlf="examples/finetune.sh"
J("megatron-llm-llama2-7b-tp8-case-parsing-script-torchrun-8gpu",*MLL,["."],".",[mlf,"--","llama2"],{
 "model.num_parameters":T(6740000000,mlf+":5 SIZE=7 -> :86 checkpoint .../llama2-7b-tp8-pp1 read with :176 --use_checkpoint_args (megatron/checkpointing.py:535-542 num_layers, hidden_size, ... from the checkpoint) -> finetune.py:36-37 LlamaModel version 2: Llama-2-7B, 6.74B",rel_tol=0.1),
 "dist.world_size":T(8,mlf+":8 GPUS_PER_NODE=8, :12 N_NODES=1 -> :104-105,236 torchrun --nproc_per_node 8 --nnodes 1"),
 "dist.nodes":T(1,mlf+":12 N_NODES=1"),
 "dist.devices_per_node":T(8,mlf+":8"),
 "batch.micro":T(1,mlf+":9 MICRO_BATCH=1 -> :247"),
 "batch.grad_accum":T(12,mlf+":6-7 TP 8 x PP 1 on 8 GPUs: data-parallel size 1 (megatron/arguments.py:76) -> global 12 / (micro 1 x 1) = 12 micro batches per step (megatron/microbatches.py:69)"),
 "batch.global":T(12,mlf+":10 GLOBAL_BATCH=12 -> :246"),
 "data.seq_len":T(4096,mlf+":138-141 llama2 -> SEQ_LEN=4096 -> :173 --seq_length (given, so not replaced from the checkpoint: megatron/checkpointing.py:523)"),
 "precision.mode":T("bf16",mlf+":245 --bf16 -> megatron/optimizer/__init__.py:99,127 Float16OptimizerWithFloat16Params: bf16 parameters with fp32 main copies"),
 "optimizer.name":T("adam","megatron/arguments.py:681 --optimizer default adam -> megatron/optimizer/__init__.py:3 apex FusedAdam (decoupled weight decay 0.1, "+mlf+":179)",any_of=["adam","Adam","AdamW","adamw","FusedAdam"]),
 "model.attn_implementation":T("flash_attention_2",mlf+":172 --use_flash_attn -> megatron/model/transformer.py:9,308,318 flash_attn.flash_attn_func (flash-attn 2 API)"),
 "data.num_workers":T(2,mlf+":248 --num_workers=2"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter continued pretraining"),
},held_out=True,note=H26+"; bash examples/finetune.sh llama2 from the repository root (docs/guide/getting_started.md:221 and docs/guide/faq.md:65,143 point to it; a launch script with defaults SIZE=7 TP=8 PP=1 GPUS_PER_NODE=8 MICRO_BATCH=1 GLOBAL_BATCH=12, a while/case loop over its options, if/elif blocks per model family setting SEQ_LEN and EXTRA_ARGS, strings of flags expanded unquoted, then torchrun $DISTRIBUTED_ARGS finetune.py ...; Megatron with tensor parallelism 8, sequence parallelism and selective recompute; continued pretraining of Llama-2-7B on PubMed). Not labelled: dist.sharding (tensor parallelism 8 and data-parallel size 1: no data-parallel sharding value describes it) and memory.gradient_checkpointing (:179 --recompute_granularity selective recomputes only the attention core, neither full checkpointing nor none)")
CDG=("thu-coai/CDial-GPT","81064865221d3503251d633f3d0b651004c938a6")
J("cdial-gpt-lccc-large-distributed-launch-apex-off-8gpu",*CDG,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","train.py","--pretrained","--model_checkpoint","thu-coai/CDial-GPT_LCCC-large",
 "--data_path","data/STC.json","--scheduler","linear"],{
 "model.ref":T("thu-coai/CDial-GPT_LCCC-large","README.md:338 --model_checkpoint -> train.py:100,105 OpenAIGPTLMHeadModel.from_pretrained (--pretrained)"),
 "model.num_parameters":T(95500000,"README.md:88 CDial-GPT LCCC-large 95.5M (config/cgpt/config.json: 12 layers, n_embd 768, vocab 13088, 513 positions, tied head)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:338 python -m torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:93 --local_rank set by the launcher -> :122-123 DistributedDataParallel"),
 "batch.micro":T(2,"train.py:65 --train_batch_size default 2 -> od/inputters/inputter.py:55"),
 "batch.grad_accum":T(64,"train.py:75 --gradient_accumulation_steps default 64 -> :130,138-140"),
 "batch.global":T(1024,"2 x 64 x 8"),
 "precision.mode":T("fp32","train.py:80 --fp16 default '' (no apex opt level) -> :119-121 amp.initialize skipped; from_pretrained without a dtype"),
 "optimizer.name":T("AdamW","train.py:21,112 transformers AdamW(correct_bias=True)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"train.py:63 --num_workers default 8 -> od/inputters/inputter.py:54"),
 "data.pin_memory":T(False,"od/inputters/inputter.py:51-56 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing (transformers 2.1.1, requirements.txt:3)"),
 "compile.enabled":T(False,"no torch.compile (torch 1.4.0, requirements.txt:1)"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H26+"; README.md:338 python -m torch.distributed.launch --nproc_per_node=8 train.py --pretrained --model_checkpoint thu-coai/CDial-GPT_LCCC-large --data_path data/STC.json --scheduler linear (the legacy launcher through python -m, argparse defaults carrying batch 2, accumulation 64, 8 workers and an empty apex opt level, a pytorch-ignite Engine loop, the model class chosen by a --gpt2 flag; fine-tuning a Chinese dialogue GPT on STC). Not labelled: sequence length (dialogue histories of up to 15 turns, truncated only by the model's 512 positions)")
PDL=("WeOpenML/PandaLM","3871806e72b4832f815ecafd24d3503c73403f48")
pds="pandalm/scripts/inst-tune.sh"
pdd="pandalm/assets/ds_config_zero2.json"
pdt="pandalm/inst-tune.py"
J("pandalm-llama-7b-deepspeed-zero2-cpu-offload-bare-launcher",*PDL,["pandalm","requirements.txt","README.md"],"pandalm",["--","deepspeed","--master_port=2023","inst-tune.py","--model_name_or_path","huggyllama/llama-7b",
 "--output_dir","./output/llama-7b-tuned","--data_path","./assets/alpaca_data.json","--bf16","True","--num_train_epochs","3","--per_device_train_batch_size","2",
 "--per_device_eval_batch_size","2","--gradient_accumulation_steps","8","--evaluation_strategy","no","--save_strategy","steps","--save_steps","2000",
 "--save_total_limit","1","--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","1",
 "--peft_model","none","--deepspeed","assets/ds_config_zero2.json","--model_max_length","1024","--report_to","wandb","--use_raw_data","False"],{
 "model.ref":T("huggyllama/llama-7b",pds+":8 --model_name_or_path -> pandalm/core/nets.py:22-25 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.sharding":T("zero2",pds+":8 --deepspeed assets/ds_config_zero2.json -> "+pdd+":25-26 stage 2"),
 "dist.offload_optimizer":T("cpu",pdd+":27-30 offload_optimizer device cpu"),
 "dist.offload_params":T("none","ZeRO-2: no parameter offload"),
 "dist.allgather_bucket_size":T(200000000,pdd+":32 allgather_bucket_size 2e8"),
 "dist.reduce_bucket_size":T(200000000,pdd+":35 reduce_bucket_size 2e8"),
 "dist.overlap_comm":T(True,pdd+":33"),
 "dist.contiguous_gradients":T(True,pdd+":36"),
 "batch.micro":T(2,pds+":8 --per_device_train_batch_size 2 ("+pdd+":43 'auto')"),
 "batch.grad_accum":T(8,pds+":8 --gradient_accumulation_steps 8 ("+pdd+":39 'auto')"),
 "data.seq_len":T(1024,pds+":8 --model_max_length 1024 -> pandalm/core/nets.py:29-34 tokenizer model_max_length -> pandalm/core/datasets.py:64-70 truncation to 1024 (padding to the longest)"),
 "precision.mode":T("bf16",pds+":8 --bf16 True fills "+pdd+":11-13 bf16 'auto' (:2-3 fp16 'auto' stays off): DeepSpeed bf16, 16-bit weights with fp32 master copies in the offloaded optimizer"),
 "optimizer.name":T("AdamW",pdd+":15-23 DeepSpeed optimizer AdamW (run on the CPU as DeepSpeedCPUAdam because of the optimizer offload)",any_of=["AdamW","adamw","DeepSpeedCPUAdam","cpu_adam","cpuadam"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing and no gradient_checkpointing_enable in pandalm/"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile (transformers 4.28.1, requirements.txt)"),
 "peft.method":T("none",pds+":8 --peft_model none -> pandalm/core/nets.py:87-89 full fine-tuning (the field's default is lora, "+pdt+":16)"),
},held_out=True,note=H26+"; "+pds+":8, the first of the script's five training lines, typed from pandalm/ (the bare deepspeed launcher with --master_port, HfArgumentParser over four dataclasses including a peft switch whose default is lora, a ZeRO-2 JSON with CPU optimizer offload and 'auto' values; full instruction tuning of LLaMA-7B on Alpaca, one of the five base models PandaLM's candidate responses come from). Not labelled: world size, nodes and global batch (deepspeed with no --num_gpus/--include/hostfile: every GPU of the machine)")
XTF=("lucidrains/x-transformers","9252ed7838021ee61e6c5be0930b3a9a88efdf06")
xte="train_enwik8.py"
J("x-transformers-enwik8-char-lm-fire-accelerate-1gpu",*XTF,["."],".",[xte],{
 "model.num_parameters":T(19150000,xte+":65-76 TransformerWrapper(num_tokens 256, Decoder dim 512, depth 6, heads 8, polar positional embedding so no absolute one, x_transformers/x_transformers.py:2774,3851): 6 x (attention q/k/v/out 4 x 512 x 512 without biases, x_transformers.py:1899-1901,2126 + feed-forward 512-2048-512 with biases, mult 4) = 18.9M + token embedding and logits 2 x 256 x 512 + norms: 19.15M",rel_tol=0.1),
 "dist.world_size":T(1,"python "+xte+" without a launcher: Accelerator() ("+xte+":58) in one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process: accelerator.prepare adds no wrapper"),
 "batch.micro":T(4,xte+":47 batch_size = 4 (fire.Fire(train) default, :161) -> :103"),
 "batch.grad_accum":T(4,xte+":48 gradient_accumulate_every = 4 -> :123-125 four backward passes per optimizer step"),
 "batch.global":T(16,"4 x 4 x 1"),
 "data.seq_len":T(1024,xte+":53 seq_len = 1024 -> :94-96 samples of 1025 bytes, the AutoregressiveWrapper shifting them to 1024-token inputs"),
 "precision.mode":T("fp32",xte+":58 Accelerator(cpu=cpu) without mixed_precision, launched by plain python: no autocast"),
 "optimizer.name":T("Adam",xte+":108 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,xte+":103 DataLoader without num_workers"),
 "data.pin_memory":T(False,xte+":103 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; python train_enwik8.py (a single-file script whose settings are the keyword defaults of a function run by fire.Fire, an Accelerator, a library model class built from keyword arguments, gradient accumulation in a hand-written inner loop; a 19M-parameter byte-level language model trained from scratch on enwik8)")
SWV=("facebookresearch/swav","06b1b7cbaf6ba2a792300d79c7299db98b93b7f9")
sws="scripts/swav_800ep_pretrain.sh"
J("swav-resnet50-800ep-sbatch-srun-apex-larc-64gpu",*SWV,["."],".",[sws],{
 "model.num_parameters":T(28350000,"main_swav.py:150-155 src/resnet50.py:340 resnet50 (23.5M without fc) + projection head 2048-2048 (BatchNorm) -128 (:205-210, 4.46M) + 3000 prototypes of 128 without bias (:217, 0.38M) = 28.35M",rel_tol=0.1),
 "dist.world_size":T(64,sws+":9,11 #SBATCH --nodes=8 --ntasks-per-node=8 -> :26 srun starts 64 python processes -> src/utils.py:48-52 world size SLURM_NNODES x SLURM_TASKS_PER_NODE"),
 "dist.nodes":T(8,sws+":9 #SBATCH --nodes=8"),
 "dist.devices_per_node":T(8,sws+":10-11 --gpus=64 over 8 nodes, 8 tasks per node"),
 "dist.sharding":T("ddp","main_swav.py:191-194 nn.parallel.DistributedDataParallel"),
 "batch.micro":T(64,sws+":40 --batch_size 64 (per process: main_swav.py:138-145 DistributedSampler)"),
 "batch.grad_accum":T(1,"main_swav.py train(): one optimizer step per batch"),
 "batch.global":T(4096,"64 x 64"),
 "data.image_size":T(224,sws+":28-29 --nmb_crops 2 6 --size_crops 224 96: two 224x224 global crops (and six 96x96 local ones)"),
 "precision.mode":T("amp_fp16",sws+":49 --use_fp16 true -> main_swav.py:185-187 apex amp.initialize(opt_level='O1'): fp16 autocasting over fp32 weights with dynamic loss scaling"),
 "optimizer.name":T("LARC","main_swav.py:171-177 torch.optim.SGD (momentum 0.9) wrapped in apex LARC (layer-wise adaptive rates)",any_of=["LARC","larc","LARS","lars","SGD","sgd"]),
 "data.num_workers":T(10,"main_swav.py:109 --workers default 10 (not given) -> :143"),
 "data.pin_memory":T(True,"main_swav.py:144"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised training from scratch"),
},held_out=True,note=H26+"; README.md:103 sbatch ./scripts/swav_800ep_pretrain.sh (a Slurm batch file: a copyright header, then #SBATCH --nodes=8 --gpus=64 --ntasks-per-node=8, a master address sliced out of $SLURM_NODELIST, srun --output ... --label python -u main_swav.py with a tcp:// dist_url; argparse with nargs='+' lists, the world size read from SLURM_* variables at run time, apex SyncBN, apex amp O1 and LARC; SwAV self-supervised pretraining of a ResNet-50 on ImageNet, vision)")
GTT=("jaywalnut310/glow-tts","13e997689d643410f5d9f1f9a73877ae85e19bc2")
J("glow-tts-ljspeech-json-config-ddi-script-spawn-apex",*GTT,["."],".",["train_ddi.sh","--","configs/base.json","base"],{
 "model.num_parameters":T(28600000,"configs/base.json:32-51 (hidden 192, filter 768, 6 encoder layers, 12 decoder flow blocks of 4 WaveNet layers, kernel 5, n_sqz 2) -> train.py:66 models.FlowGenerator: the Glow-TTS of the paper (arXiv 2005.11129), 28.6M parameters",rel_tol=0.1),
 "dist.sharding":T("ddp","train.py:13,73 apex DistributedDataParallel"),
 "batch.micro":T(32,"configs/base.json:12 batch_size 32 -> train.py:51-59 per process (DistributedSampler)"),
 "batch.grad_accum":T(1,"train.py:95-121 one optimizer step per batch"),
 "precision.mode":T("amp_fp16","configs/base.json:14 fp16_run true -> train.py:71-72 apex amp.initialize(opt_level='O1'): fp16 autocasting over fp32 weights, :114-117 scaled loss"),
 "optimizer.name":T("Adam","train.py:70 commons.Adam -> commons.py:117,130 a Noam-schedule wrapper around torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(8,"train.py:57 num_workers=8"),
 "data.pin_memory":T(True,"train.py:58"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; README.md:59 sh train_ddi.sh configs/base.json base (a two-line launch script taking the config and model folder positionally: python init.py -c $config -m $modeldir, a data-dependent initialisation pass, then python train.py -c $config -m $modeldir; a JSON config read into an attribute dict, torch.multiprocessing.spawn over every visible GPU, apex DDP and apex amp; Glow-TTS text-to-speech on LJSpeech, speech). Not labelled: world size, nodes and global batch (train.py:29,34 n_gpus = torch.cuda.device_count(), spawned at run time), sequence length (mel frames and phoneme counts vary)")
DTF=("kzl/decision-transformer","e2d82e68f330c00f763507b3b01d774740bee53f")
dte="gym/experiment.py"
J("decision-transformer-hopper-medium-gym-python-1gpu",*DTF,["gym"],"gym",["experiment.py","--","--env","hopper","--dataset","medium","--model_type","dt"],{
 "model.num_parameters":T(728000,dte+":209-222 DecisionTransformer(embed_dim 128, n_layer 3, n_head 1, n_inner 512; :38 Hopper-v3: 11 state and 3 action dimensions, max_ep_len 1000): GPT-2 blocks 3 x 198,272 (gym/decision_transformer/models/trajectory_gpt2.py:521 no position table) + timestep embedding 1000 x 128 + state/action/return embeddings and heads: 0.73M",rel_tol=0.1),
 "dist.world_size":T(1,"one process, no launcher, no DDP"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel in the repository"),
 "batch.micro":T(64,dte+":290 --batch_size default 64 -> :99,251 get_batch(batch_size)"),
 "batch.grad_accum":T(1,"gym/decision_transformer/training/seq_trainer.py:26-29 one optimizer step per batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32",dte+":156-162 float32 tensors, no autocast"),
 "optimizer.name":T("AdamW",dte+":237-241 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; gym/readme-gym.md:29 python experiment.py --env hopper --dataset medium --model_type dt from gym/ (argparse into a variant dict, the environment's dimensions from gym.make, batches sampled from pickled D4RL trajectories by a hand-written get_batch rather than a DataLoader, a GPT-2 copy without position embeddings; offline reinforcement learning on D4RL Hopper, RL). Not labelled: sequence length (K = 20 timesteps, "+dte+":288, interleaved as 60 tokens: which one is meant is ambiguous), data loader workers and pin memory (no DataLoader)")
BGN=("graphdeeplearning/benchmarking-gnns","b6c407712fa576e9699555e1e035d1e327ccae6c")
bgc="configs/molecules_graph_regression_GatedGCN_ZINC_100k.json"
bgm="main_molecules_graph_regression.py"
J("benchmarking-gnns-gatedgcn-zinc-json-config-1gpu",*BGN,["."],".",[bgm,"--","--dataset","ZINC","--gpu_id","0","--config",bgc],{
 "model.num_parameters":T(105735,bgc+":26-27 L 4, hidden_dim 70 -> nets/molecules_graph_regression/gated_gcn_net.py:35-46 embedding 28 x 70 + linear edge embedding 1 -> 70 + 4 GatedGCN layers (layers/gated_gcn_layer.py:27-33 five 70 x 70 linears with biases and two BatchNorms: 25,130 each) + MLPReadout 70-35-17-1: 105,735",rel_tol=0.1),
 "dist.world_size":T(1,"one process on --gpu_id 0"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel in the repository"),
 "batch.micro":T(128,bgc+":15 batch_size 128 -> "+bgm+":160"),
 "batch.grad_accum":T(1,"train/train_molecules_graph_regression.py: one optimizer step per batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",bgm+":135 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,bgm+":160 DataLoader without num_workers"),
 "data.pin_memory":T(False,bgm+":160 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; docs/03_run_codes.md:16 python main_molecules_graph_regression.py --dataset ZINC --gpu_id 0 --config 'configs/molecules_graph_regression_GatedGCN_ZINC_100k.json' (argparse whose values override a JSON config's gpu/params/net_params sections, the network chosen from a name table, DGL graphs batched by a collate function; GatedGCN molecular property regression on ZINC, graph)")
NCF=("guoyang9/NCF","89ff06ffcd2bca6bb773b54925265c208a28d318")
J("ncf-neumf-movielens-argparse-config-module-1gpu",*NCF,["."],".",["main.py","--","--batch_size=256","--lr=0.001","--factor_num=16"],{
 "dist.world_size":T(1,"main.py:65 CUDA_VISIBLE_DEVICES=--gpu '0', :94 model.cuda(): one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel in the repository"),
 "batch.micro":T(256,"README.md:37 --batch_size=256 -> main.py:77-78"),
 "batch.grad_accum":T(1,"main.py:116-120 one optimizer step per batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","config.py:6 model 'NeuMF-end' -> main.py:97-100 optim.Adam (SGD only for NeuMF-pre)",any_of=["Adam","adam"]),
 "data.num_workers":T(4,"main.py:78 num_workers=4"),
 "data.pin_memory":T(False,"main.py:77-78 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; README.md:37 python main.py --batch_size=256 --lr=0.001 --factor_num=16 (argparse flags given with '=', the model variant and data paths in a config.py module of constants, the optimizer chosen by that constant; NeuMF neural collaborative filtering on MovieLens-1M, recommendation). Not labelled: model size (user and item embedding tables sized by the counts read from the rating files, data_utils.py)")
DDM=("ermongroup/ddim","e8df66cf02e457719930748b5c26e37e3126dfdd")
J("ddim-cifar10-unet-yaml-config-dataparallel",*DDM,["."],".",["main.py","--","--config","cifar10.yml","--exp","exp","--doc","cifar10","--ni"],{
 "model.num_parameters":T(35700000,"configs/cifar10.yml:13-19 the DDPM CIFAR-10 UNet (ch 128, ch_mult 1-2-2-2, 2 res blocks, attention at 16x16) -> runners/diffusion.py:108 Model(config): 35.7M parameters (the DDPM paper's CIFAR-10 model)",rel_tol=0.1),
 "batch.grad_accum":T(1,"runners/diffusion.py train(): one optimizer step per batch"),
 "batch.global":T(128,"configs/cifar10.yml:33 training.batch_size 128 -> runners/diffusion.py:102-104 (one DataLoader; nn.DataParallel splits each batch over the visible GPUs)"),
 "data.image_size":T(32,"configs/cifar10.yml:3"),
 "precision.mode":T("fp32","no autocast or half() in runners/diffusion.py"),
 "optimizer.name":T("Adam","configs/cifar10.yml:45 optimizer Adam -> functions/__init__.py:4-8 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(4,"configs/cifar10.yml:10 num_workers 4 -> runners/diffusion.py:106"),
 "data.pin_memory":T(False,"runners/diffusion.py:102-107 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H26+"; README.md:68 python main.py --config {DATASET}.yml --exp {PROJECT_PATH} --doc {MODEL_NAME} --ni with cifar10.yml, exp and cifar10 filled in (argparse naming a YAML file found under configs/ by main.py:94, read into a nested namespace, a runner class, nn.DataParallel over every visible GPU in one process, an EMA copy of the weights; DDPM/DDIM training of a CIFAR-10 UNet, diffusion). Not labelled: world size, sharding and micro batch (runners/diffusion.py:111 torch.nn.DataParallel in one process over however many GPUs are visible)")
