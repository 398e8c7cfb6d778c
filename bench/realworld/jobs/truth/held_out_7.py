"""The seventh held-out set of the jobs benchmark (run.py --set held-out-7): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H7="seventh held-out set"
MG=("shibing624/MedicalGPT","2f1008cfa49cbba69ff6f138c3b5e2fb0646bdc7")
mgs="scripts/run_sft.sh"
mgp="training/supervised_finetuning.py"
J("medicalgpt-qwen-sft-lora-ddp",*MG,["scripts","training","requirements.txt"],".",[mgs],{
 "model.ref":T("Qwen/Qwen3.5-0.8B",mgs+":2"),
 "dist.world_size":T(2,mgs+":1 torchrun --nproc_per_node 2"),
 "dist.sharding":T("ddp",mgs+":1 two processes, no --deepspeed/--fsdp: Trainer DDP ("+mgp+":656-659)"),
 "batch.micro":T(2,mgs+":5"),
 "batch.grad_accum":T(8,mgs+":24"),
 "data.seq_len":T(512,mgs+":12 --model_max_length -> "+mgp+":440"),
 "precision.mode":T("amp_bf16",mgs+":33-34 --torch_dtype bfloat16 --bf16: Trainer bf16 autocast; trainable LoRA params cast to fp32 ("+mgp+":911-912)",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(True,mgs+":37 -> "+mgp+":917-918"),
 "peft.method":T("lora",mgs+":9 --use_peft True -> "+mgp+":899-907 LoraConfig + get_peft_model"),
 "peft.rank":T(8,mgs+":30"),
 "task.mode":T("lora",mgp+":76-77 load_in_4bit/8bit default False, not given: LoRA without quantization"),
},held_out=True,note=H7+"; bash scripts/run_sft.sh from the repository root")
DSC=("deepseek-ai/DeepSeek-Coder","2f9fd85927c669dae3c0fbb2d607274023af243e")
dsj="configs/ds_config_zero3.json"
J("deepseek-coder-6.7b-zero3-offload",*DSC,["finetune"],"finetune",
 ["--","deepspeed","finetune_deepseekcoder.py","--model_name_or_path","deepseek-ai/deepseek-coder-6.7b-instruct",
  "--data_path","data.json","--output_dir","out","--num_train_epochs","3","--model_max_length","1024",
  "--per_device_train_batch_size","16","--per_device_eval_batch_size","1","--gradient_accumulation_steps","4",
  "--evaluation_strategy","no","--save_strategy","steps","--save_steps","100","--save_total_limit","100",
  "--learning_rate","2e-5","--warmup_steps","10","--logging_steps","1","--lr_scheduler_type","cosine",
  "--gradient_checkpointing","True","--report_to","tensorboard","--deepspeed",dsj,"--bf16","True"],{
 "model.ref":T("deepseek-ai/deepseek-coder-6.7b-instruct","finetune/README.md:22,25"),
 "batch.micro":T(16,"README.md:30"),
 "batch.grad_accum":T(4,"README.md:32"),
 "data.seq_len":T(1024,"README.md:29 --model_max_length -> finetune_deepseekcoder.py:131 tokenizer model_max_length"),
 "dist.sharding":T("zero3",dsj+":25 stage 3"),
 "precision.mode":T("bf16",dsj+":2-3 bf16 auto + README.md:44 --bf16 True: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"README.md:41"),
 "dist.offload_optimizer":T("cpu",dsj+":26-28"),
 "dist.offload_params":T("cpu",dsj+":30-32"),
 "dist.stage3_max_live_parameters":T(1000000000,dsj+":40 1e9"),
 "optimizer.name":T("AdamW",dsj+":5-6 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("none","finetune_deepseekcoder.py: no PEFT, full fine-tuning (:144-147 from_pretrained, :185 Trainer)"),
},held_out=True,note=H7+"; finetune/README.md:21-45 with a data path and an output dir")
HL=("ContextualAI/HALOs","4831988636b4cbc1c30c0bce78df568cf0f8103b")
hls="scripts/launch_llama_dpo.sh"
hbm="config/model/base_model.yaml"
J("halos-llama3-8b-dpo-fsdp-sbatch",*HL,["scripts","config","accelerate_config","launch.py","train"],".",[hls,"--","0.1","5e-7"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B",hls+":59 MODEL_PATH -> :68 ++model.name_or_path=$MODEL_PATH"),
 "dist.world_size":T(4,"accelerate_config/fsdp_4gpu.yaml:18 num_processes 4 (#SBATCH --gres=gpu:4, :6)"),
 "dist.nodes":T(1,hls+":3 --nodes=1; fsdp_4gpu.yaml:17 num_machines 1"),
 "dist.sharding":T("fsdp_full","accelerate_config/fsdp_4gpu.yaml:3,11 FSDP FULL_SHARD"),
 "dist.offload_params":T("none","accelerate_config/fsdp_4gpu.yaml:10 fsdp_offload_params false"),
 "batch.global":T(32,hls+":72 ++model.batch_size=32"),
 "batch.micro":T(8,"launch.py:65-66 32 / (4 processes * 1 accumulation step)"),
 "batch.grad_accum":T(1,hls+":72"),
 "data.seq_len":T(1250,hbm+":31 max_length"),
 "precision.mode":T("bf16",hbm+":19 policy_dtype bfloat16 -> launch.py:213 from_pretrained(torch_dtype=bfloat16), optimizer on those weights (:264); no mixed_precision in fsdp_4gpu.yaml: pure bf16"),
 "memory.gradient_checkpointing":T(True,hbm+":37 activation_checkpointing true -> launch.py:259-260"),
 "optimizer.name":T("AdamW","config/config.yaml:71 optimizer AdamW -> launch.py:264 getattr(torch.optim, ...)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2","config/model/llama.yaml:6 (overrides base_model.yaml:51 eager) -> launch.py:214"),
 "peft.method":T("none",hbm+":54 use_peft false -> launch.py:224"),
},held_out=True,note=H7+"; sbatch scripts/launch_llama_dpo.sh 0.1 5e-7 (BETA, LR)")
DPO=("eric-mitchell/direct-preference-optimization","f8b8c0f49dc92a430bae41585f9d467d3618fe2f")
J("dpo-pythia-2.8b-sft-fsdp",*DPO,["."],".",
 ["--","python","-u","train.py","model=pythia28","datasets=[hh]","loss=sft","exp_name=anthropic_dpo_pythia28",
  "gradient_accumulation_steps=2","batch_size=64","eval_batch_size=32","trainer=FSDPTrainer","sample_during_eval=false",
  "model.fsdp_policy_mp=bfloat16"],{
 "model.ref":T("EleutherAI/pythia-2.8b","model=pythia28 -> config/model/pythia28.yaml:1"),
 "dist.sharding":T("fsdp_full","trainer=FSDPTrainer -> trainers.py:446 ShardingStrategy.FULL_SHARD"),
 "precision.mode":T("amp_bf16","config/model/pythia28.yaml:6 policy_dtype float32 + model.fsdp_policy_mp=bfloat16 -> trainers.py:457-459 FSDP MixedPrecision bf16 over fp32 params"),
 "batch.global":T(64,"README.md:75 batch_size=64 (config.yaml:7 the batch across GPUs and accumulation steps)"),
 "batch.grad_accum":T(2,"README.md:75 gradient_accumulation_steps=2"),
 "data.seq_len":T(512,"config/config.yaml:62 max_length"),
 "optimizer.name":T("RMSprop","config/config.yaml:80 -> trainers.py:276 getattr(torch.optim, 'RMSprop')",any_of=["RMSprop","rmsprop"]),
 "memory.gradient_checkpointing":T(False,"config/config.yaml:86 activation_checkpointing false"),
 "peft.method":T("none","no PEFT in train.py/trainers.py"),
},held_out=True,note=H7+"; README.md:75 (world size = torch.cuda.device_count(), train.py:106: not knowable)")
LL=("Lightning-AI/lit-llama","2a464de2a1d2f266614d15091d3d7f30330c3ede")
llf="finetune/lora.py"
J("lit-llama-7b-lora",*LL,["finetune","lit_llama","generate.py","generate","scripts","setup.py","pyproject.toml","howto"],".",
 ["--","python",llf],{
 "model.num_parameters":T(6740000000,llf+":71 LLaMAConfig.from_name('7B') -> lit_llama/model.py:44 32 layers, 32 heads, 4096 (LLaMA 7B, 6.74B)",rel_tol=0.1),
 "dist.world_size":T(1,llf+":62 Fabric(devices=1)"),
 "precision.mode":T("bf16",llf+":62 precision='bf16-true'"),
 "batch.micro":T(4,llf+":41 micro_batch_size -> :197"),
 "batch.grad_accum":T(32,llf+":40-42 128 // 4"),
 "data.seq_len":T(256,llf+":46 max_seq_length -> :72 block_size"),
 "peft.method":T("lora",llf+":76 lit_llama.lora.lora(r=8, ...)"),
 "peft.rank":T(8,llf+":47 lora_r"),
 "task.mode":T("lora",llf+":81 mark_only_lora_as_trainable"),
 "optimizer.name":T("AdamW",llf+":83 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in finetune/lora.py or lit_llama/model.py"),
 "data.pin_memory":T(True,llf+":250"),
 "data.num_workers":T(0,llf+":244-251 DataLoader default"),
},held_out=True,note=H7+"; howto/finetune_lora.md:23")
MLR=("microsoft/LoRA","c4593f060e6a368d7bb5af5273b8e42810cdef90")
mlf="src/gpt2_ft.py"
J("ms-lora-gpt2-medium-e2e",*MLR,["examples/NLG/src","examples/NLG/README.md","examples/NLG/requirement.txt","loralib"],"examples/NLG",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=1",mlf,"--train_data","./data/e2e/train.jsonl",
  "--valid_data","./data/e2e/valid.jsonl","--train_batch_size","8","--grad_acc","1","--valid_batch_size","4",
  "--seq_len","512","--model_card","gpt2.md","--init_checkpoint","./pretrained_checkpoints/gpt2-medium-pytorch_model.bin",
  "--platform","local","--clip","0.0","--lr","0.0002","--weight_decay","0.01","--correct_bias","--adam_beta2","0.999",
  "--scheduler","linear","--warmup_step","500","--max_epoch","5","--save_interval","1000","--lora_dim","4",
  "--lora_alpha","32","--lora_dropout","0.1","--label_smooth","0.1","--work_dir","./trained_models/GPT2_M/e2e",
  "--random_seed","110"],{
 "model.num_parameters":T(355000000,"--model_card gpt2.md -> "+mlf+":306-311 GPT2Config(n_embd=1024, n_layer=24, n_head=16): GPT-2 medium 355M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:52 --nproc_per_node=1"),
 "dist.sharding":T("ddp","--platform local -> src/gpu.py:34-36 DistributedDataParallel (one process)",any_of=["ddp","none"]),
 "batch.micro":T(8,"README.md:55 --train_batch_size"),
 "batch.grad_accum":T(1,"README.md:56"),
 "data.seq_len":T(512,"README.md:58"),
 "precision.mode":T("fp32",mlf+":62 --fp16 store_true, not given: no apex amp (:335-336)"),
 "peft.method":T("lora","README.md:71 --lora_dim 4 -> "+mlf+":302-310 lora_attn_dim, :327-328 loralib mark_only_lora_as_trainable"),
 "peft.rank":T(4,"README.md:71"),
 "task.mode":T("lora",mlf+":327-328 only LoRA trainable"),
 "optimizer.name":T("AdamW","src/optimizer.py:316-320 the project's AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,mlf+":288"),
 "data.pin_memory":T(False,mlf+":289"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/model.py"),
},held_out=True,note=H7+"; examples/NLG/README.md:52-76")
SP=("uclaml/SPIN","a12ba808a51c23bb98c7cc892d261e9c2f71ff8e")
spc="configs/config.yaml"
spz="configs/deepspeed_zero3.yaml"
J("spin-zephyr-7b-iter0-zero3",*SP,["scripts","configs","spin","setup.py"],".",["scripts/finetune.sh"],{
 "model.ref":T("alignment-handbook/zephyr-7b-sft-full",spc+":2"),
 "dist.world_size":T(8,"scripts/finetune.sh:22 --num_processes=8 ("+spz+":16)"),
 "dist.sharding":T("zero3",spz+":9-10 zero_stage 3 under DEEPSPEED"),
 "batch.micro":T(8,spc+":32"),
 "batch.grad_accum":T(1,spc+":20"),
 "data.seq_len":T(1024,spc+":27 max_length"),
 "precision.mode":T("bf16",spz+":14 mixed_precision bf16 under DeepSpeed + "+spc+":15 bf16 true: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,spc+":21"),
 "optimizer.name":T("rmsprop",spc+":30 optim rmsprop (spin/alignment/configs.py:270 default too)"),
 "peft.method":T("none","spin/alignment/configs.py:151-152 use_peft default False, not set"),
 "dist.offload_optimizer":T("none",spz+":5"),
 "dist.offload_params":T("none",spz+":6"),
},held_out=True,note=H7+"; bash scripts/finetune.sh from the repository root")
YI=("01-ai/Yi","f73194cc16e82df438bc01240b8e4b622209f3eb")
yis="run_sft_lora_Yi_6b.sh"
J("yi-6b-sft-lora-zero2-offload",*YI,["finetune"],"finetune/scripts",[yis],{
 "batch.micro":T(4,yis+":8 -> sft/main.py:240"),
 "batch.grad_accum":T(1,yis+":15"),
 "data.seq_len":T(4096,yis+":10"),
 "dist.sharding":T("zero2",yis+":20 --zero_stage 2 -> sft/main.py:233-235 -> utils/ds_utils.py:24"),
 "precision.mode":T("fp16","utils/ds_utils.py:41 fp16 enabled (DeepSpeed fp16, fp32 master)"),
 "memory.gradient_checkpointing":T(True,yis+":19 -> sft/main.py:354"),
 "dist.offload_optimizer":T("cpu",yis+":22 --offload -> utils/ds_utils.py:22,26"),
 "peft.method":T("lora",yis+":23 --lora_dim 128 -> sft/main.py:261-263 convert_linear_layer_to_lora"),
 "peft.rank":T(128,yis+":23"),
},held_out=True,note=H7+"; the model path is a placeholder (run_sft_lora_Yi_6b.sh:7): model not knowable")
