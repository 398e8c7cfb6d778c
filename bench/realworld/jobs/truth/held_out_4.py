"""The fourth held-out set of the jobs benchmark (run.py --set held-out-4): expert truth
written by hand, one J(...) per job."""
from .core import J, T

# --- held out, fourth set (issue 15, jobs4): eight jobs from eight repositories none of whose jobs
# were in the benchmark before, each labelled from the code at the pinned commit before preflight
# was run on it.
H4="fourth held-out set"
QW=("QwenLM/Qwen","2df8e8ac450fa185c421a08b0090ef81826caa6e")
J("qwen-7b-lora-single-gpu",*QW,["finetune.py","finetune"],".",["finetune/finetune_lora_single_gpu.sh"],{
 "model.ref":T("Qwen/Qwen-7B","finetune/finetune_lora_single_gpu.sh:4 MODEL -> :40"),
 "dist.world_size":T(1,"finetune_lora_single_gpu.sh:37-39 CUDA_VISIBLE_DEVICES=0, python: one process"),
 "batch.micro":T(2,"finetune_lora_single_gpu.sh:45"),
 "batch.grad_accum":T(8,"finetune_lora_single_gpu.sh:47"),
 "data.seq_len":T(512,"finetune_lora_single_gpu.sh:59 --model_max_length -> finetune.py:359"),
 "precision.mode":T("amp_bf16","finetune_lora_single_gpu.sh:42 --bf16 True, no DeepSpeed; finetune.py:307 loads without torch_dtype (fp32)"),
 "memory.gradient_checkpointing":T(True,"finetune_lora_single_gpu.sh:61"),
 "peft.method":T("lora","finetune_lora_single_gpu.sh:62 --use_lora -> finetune.py:330-349 LoraConfig/get_peft_model"),
 "peft.rank":T(64,"finetune.py:55 lora_r default 64, not given"),
 "task.mode":T("lora","finetune.py:316 q_lora False (:63): no GPTQ quantization"),
 "optimizer.name":T("adamw_torch","finetune.py:43 optim default adamw_torch"),
},held_out=True,note=H4)
LV=("haotian-liu/LLaVA","c121f0432da27facab705978f83c4ada465e46fd")
J("llava-v1.5-13b-task-lora",*LV,["llava","scripts"],".",["scripts/v1_5/finetune_task_lora.sh"],{
 "model.ref":T("liuhaotian/llava-v1.5-13b","scripts/v1_5/finetune_task_lora.sh:6"),
 "batch.micro":T(16,"finetune_task_lora.sh:20"),
 "batch.grad_accum":T(1,"finetune_task_lora.sh:22"),
 "data.seq_len":T(2048,"finetune_task_lora.sh:33 --model_max_length"),
 "dist.sharding":T("zero3","finetune_task_lora.sh:5 -> scripts/zero3.json:17 stage 3"),
 "precision.mode":T("bf16","finetune_task_lora.sh:17 --bf16 True with zero3.json:10-12 bf16 auto: DeepSpeed bf16 (llava/train/train.py:831 loads bf16)"),
 "memory.gradient_checkpointing":T(True,"finetune_task_lora.sh:34"),
 "peft.method":T("lora","finetune_task_lora.sh:4 --lora_enable True -> llava/train/train.py:860-876"),
 "peft.rank":T(128,"finetune_task_lora.sh:4 --lora_r 128"),
 "task.mode":T("lora","train.py:101-104 bits default 16: no quantization"),
 "data.num_workers":T(4,"finetune_task_lora.sh:35"),
 "dist.stage3_max_live_parameters":T(1000000000,"scripts/zero3.json:24 1e9"),
 "optimizer.name":T("adamw_torch","llava/train/train.py:82 optim default adamw_torch"),
},held_out=True,note=H4+"; deepspeed without --num_gpus uses every GPU of the node: world size left out")
LC=("meta-llama/llama-cookbook","0e0033518623d03ac5c1654bf04b7e480f7d5e5a")
lcd="getting-started/finetuning/multigpu_finetuning.md:34"
J("llama-cookbook-fsdp-lora-8b",*LC,["getting-started/finetuning","src/llama_cookbook"],"getting-started/finetuning",
 ["--","torchrun","--nnodes","1","--nproc_per_node","4","finetuning.py","--enable_fsdp","--model_name","meta-llama/Llama-3.1-8B",
  "--use_peft","--peft_method","lora","--output_dir","out"],{
 "model.ref":T("meta-llama/Llama-3.1-8B",lcd+" --model_name (placeholder path filled by the user)"),
 "dist.world_size":T(4,lcd+" --nnodes 1 --nproc_per_node 4"),
 "dist.sharding":T("fsdp_full","--enable_fsdp -> src/llama_cookbook/configs/fsdp.py:13 FULL_SHARD -> finetuning.py:281"),
 "batch.micro":T(4,"src/llama_cookbook/configs/training.py:14 batch_size_training default 4"),
 "batch.grad_accum":T(1,"configs/training.py:17"),
 "data.seq_len":T(4096,"configs/training.py:15-16 batching_strategy packing, context_length 4096"),
 "precision.mode":T("amp_bf16","fsdp.py:11 mixed_precision True, pure_bf16 False -> fsdp_utils.py:112-113 bfSixteen FSDP MixedPrecision over weights loaded torch_dtype auto (finetuning.py:185)",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(True,"fsdp.py:18 fsdp_activation_checkpointing True -> finetuning.py:310"),
 "peft.method":T("lora",lcd+" --use_peft --peft_method lora -> finetuning.py:228"),
 "peft.rank":T(8,"src/llama_cookbook/configs/peft.py:9 r default 8"),
 "task.mode":T("lora","training.py:39 quantization None"),
 "data.num_workers":T(1,"training.py:23 num_workers_dataloader 1 -> finetuning.py:362"),
 "optimizer.name":T("AdamW","finetuning.py:409 optim.AdamW (fsdp.py:21 optimizer AdamW)",any_of=["AdamW","adamw","adamw_torch"]),
},held_out=True,note=H4)
AF=("tatsu-lab/alpaca_farm","30717ddae735365de756ee2085191b491a71788d")
J("alpaca-farm-sft-fsdp",*AF,["examples","src/alpaca_farm"],".",["examples/scripts/sft.sh","--","out","sft10k","huggyllama/llama-7b"],{
 "model.ref":T("huggyllama/llama-7b","README.md:191-194 third positional argument -> sft.sh:5,8"),
 "dist.world_size":T(8,"examples/scripts/sft.sh:7 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full","sft.sh:33 --fsdp full_shard auto_wrap"),
 "batch.micro":T(1,"sft.sh:14"),
 "batch.grad_accum":T(16,"sft.sh:16"),
 "data.seq_len":T(512,"sft.sh:31 --model_max_length"),
 "precision.mode":T("amp_bf16","sft.sh:9-10 --fp16 False --bf16 True under FSDP; common.py:120 from_pretrained without torch_dtype (fp32)"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, not given"),
 "peft.method":T("none","no PEFT in examples/supervised.py"),
 "optimizer.name":T("adamw_torch","examples/supervised.py:73"),
},held_out=True,note=H4)
MC=("OpenBMB/MiniCPM","0fcc3d08330ee612d59d58e312a778ae78165d97")
J("minicpm-2b-lora-zero3-offload",*MC,["finetune"],"finetune",["lora_finetune.sh"],{
 "model.ref":T("openbmb/MiniCPM-2B-sft-bf16","finetune/lora_finetune.sh:6 (a local download of it; finetune.py:20 default openbmb/MiniCPM-2B-sft-bf16)",any_of=["openbmb/MiniCPM-2B-sft-bf16","MiniCPM-2B-sft-bf16"]),
 "dist.world_size":T(1,"lora_finetune.sh:5 deepspeed --include localhost:1 (one GPU)"),
 "batch.micro":T(32,"lora_finetune.sh:10"),
 "batch.grad_accum":T(1,"lora_finetune.sh:12"),
 "data.seq_len":T(384,"lora_finetune.sh:11 --model_max_length"),
 "dist.sharding":T("zero3","lora_finetune.sh:17 -> configs/ds_config_zero3_offload.json:14"),
 "dist.offload_optimizer":T("cpu","ds_config_zero3_offload.json:24-27"),
 "dist.offload_params":T("cpu","ds_config_zero3_offload.json:28-31"),
 "dist.allgather_bucket_size":T(500000000,"ds_config_zero3_offload.json:16 5e8"),
 "precision.mode":T("bf16","lora_finetune.sh:11 --bf16 with json bf16 auto: DeepSpeed bf16 (finetune.py:151-152 loads bf16)"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, not given"),
 "peft.method":T("lora","lora_finetune.sh:11 --use_lora -> finetune.py:183-196"),
 "peft.rank":T(64,"finetune.py:194 r=64"),
 "task.mode":T("lora","finetune.py:46 qlora default False"),
 "optimizer.name":T("adamw_torch","finetune.py:38"),
},held_out=True,note=H4)
FF=("yangjianxin1/Firefly","e22b406ee440fda0b18a073c6325853de17741cb")
ffj="train_args/sft/qlora/qwen1.5-7b-sft-qlora.json"
J("firefly-qwen1.5-7b-qlora",*FF,["train.py","component","train_args"],".",["train.py","--","--train_args_file",ffj],{
 "model.ref":T("Qwen/Qwen1.5-7B-Chat",ffj+":3"),
 "dist.world_size":T(1,"README.md:293 python: one process"),
 "batch.micro":T(1,ffj+":7"),
 "batch.grad_accum":T(16,ffj+":8"),
 "data.seq_len":T(1024,ffj+":10 max_seq_length"),
 "precision.mode":T("amp_fp16",ffj+":25 fp16 true (train.py:262 compute dtype float16)"),
 "precision.weights_bits":T(4,"component/argument.py:19 train_mode default qlora -> train.py:263-266 load_in_4bit"),
 "memory.gradient_checkpointing":T(True,ffj+":21"),
 "peft.method":T("lora","train.py:302-316 LoraConfig for train_mode qlora"),
 "peft.rank":T(64,ffj+":16 lora_rank"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "optimizer.name":T("paged_adamw_32bit",ffj+":23"),
 "data.num_workers":T(0,ffj+":27"),
},held_out=True,note=H4+"; README.md:293 with the Qwen1.5 args file")
SC=("bigcode-project/starcoder","d72c7fe3dda81d47ad9b851f9567393fb6b551b9")
J("starcoder-lora-8bit",*SC,["finetune"],".",["finetune/finetune.py","--","--model_path=bigcode/starcoder",
 "--dataset_name=ArmelR/stack-exchange-instruction","--subset=data/finetune","--split=train","--size_valid_set","10000",
 "--streaming","--seq_length","2048","--max_steps","1000","--batch_size","1","--input_column_name=question",
 "--output_column_name=response","--gradient_accumulation_steps","16","--learning_rate","1e-4",
 "--lr_scheduler_type=cosine","--num_warmup_steps","100","--weight_decay","0.05","--output_dir=./checkpoints"],{
 "model.ref":T("bigcode/starcoder","README.md:141 --model_path"),
 "dist.world_size":T(1,"README.md:140 python: one process"),
 "batch.micro":T(1,"README.md:149 --batch_size -> finetune/finetune.py:276"),
 "batch.grad_accum":T(16,"README.md:152"),
 "data.seq_len":T(2048,"README.md:147 --seq_length"),
 "precision.mode":T("amp_bf16","finetune.py:80-81,283-284: --no_fp16 store_false default True -> fp16=False; --bf16 default True"),
 "precision.weights_bits":T(8,"finetune.py:244 load_in_8bit=True"),
 "memory.gradient_checkpointing":T(True,"finetune.py:82,282 not no_gradient_checkpointing (False) -> True; :247 prepare_model_for_int8_training"),
 "peft.method":T("lora","finetune.py:249-258 LoraConfig"),
 "peft.rank":T(16,"finetune.py:70 --lora_r default 16"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
 "optimizer.name":T("adamw_torch","finetune.py:266-289 TrainingArguments without optim: default"),
},held_out=True,note=H4+"; README.md:140-157 (its trailing '\\ ' after response breaks the shell line: argv given as meant)")
DL=("databrickslabs/dolly","e2d664ddf06e0723d818dc56d6c522ead4bd881d")
J("dolly-pythia-2.8b-zero3",*DL,["training","config"],".",["--","deepspeed","--num_gpus=8","--module","training.trainer",
 "--input-model","EleutherAI/pythia-2.8b","--deepspeed","config/a100_config.json","--epochs","2","--local-output-dir","out",
 "--per-device-train-batch-size","6","--per-device-eval-batch-size","6","--logging-steps","10","--save-steps","200",
 "--save-total-limit","20","--eval-steps","50","--warmup-steps","50","--test-size","200","--lr","5e-6","--bf16","true"],{
 "model.ref":T("EleutherAI/pythia-2.8b","train_dolly.py:157 --input-model (training/consts.py:3 suggested model)"),
 "dist.world_size":T(8,"train_dolly.py:155 --num_gpus=8"),
 "batch.micro":T(6,"train_dolly.py:132,162 a100 batch 6 -> trainer.py:243"),
 "batch.grad_accum":T(1,"TrainingArguments default (trainer.py:241-265 none given); a100_config.json auto"),
 "dist.sharding":T("zero3","config/a100_config.json:26 stage 3"),
 "precision.mode":T("bf16","a100_config.json:5-7 bf16 enabled, --bf16 true: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"training/trainer.py:310-315 --gradient-checkpointing default True -> :250"),
 "dist.stage3_max_live_parameters":T(1000000000,"a100_config.json:33 stage3_max_live_parameters 1e9"),
 "optimizer.name":T("AdamW","a100_config.json:8-9 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("none","no PEFT in training/trainer.py"),
},held_out=True,note=H4+"; train_dolly.py:155-172 with gpu_family a100, num_gpus 8")
