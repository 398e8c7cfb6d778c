"""The fifth held-out set of the jobs benchmark (run.py --set held-out-5): expert truth
written by hand, one J(...) per job."""
from .core import J, T

# --- held out, fifth set (issue 15, jobs5): eight jobs from eight repositories none of whose jobs
# were in the benchmark before, each labelled from the code at the pinned commit before preflight
# was run on it.
H5="fifth held-out set"
CG=("THUDM/ChatGLM-6B","401bf3a8a7dd8a26fba189551dccfc61a7079b4e")
J("chatglm-6b-ds-finetune",*CG,["ptuning","requirements.txt"],"ptuning",["ds_train_finetune.sh"],{
 "model.ref":T("THUDM/chatglm-6b","ptuning/ds_train_finetune.sh:14"),
 "dist.world_size":T(4,"ds_train_finetune.sh:6 deepspeed --num_gpus=4"),
 "batch.micro":T(4,"ds_train_finetune.sh:19"),
 "batch.grad_accum":T(1,"ds_train_finetune.sh:21"),
 "data.seq_len":T(128,"ds_train_finetune.sh:17-18 max_source_length 64 + max_target_length 64 -> ptuning/main.py:188 max_seq_length"),
 "dist.sharding":T("zero2","ds_train_finetune.sh:7 -> ptuning/deepspeed.json:13 stage 2"),
 "precision.mode":T("fp16","ds_train_finetune.sh:27 --fp16 with deepspeed.json:4-5 fp16 auto: DeepSpeed fp16 (main.py:135 model.float() before)"),
 "memory.gradient_checkpointing":T(True,"ptuning/main.py:367 model.gradient_checkpointing_enable() under do_train (ds_train_finetune.sh:8)"),
 "peft.method":T("none","no --pre_seq_len: main.py:133-135 full fine-tuning (model.float())"),
 "dist.allgather_bucket_size":T(500000000,"deepspeed.json:15 5e8"),
 "dist.reduce_bucket_size":T(500000000,"deepspeed.json:18 5e8"),
 "optimizer.name":T("adamw_hf","requirements.txt:2 transformers==4.27.1: Seq2SeqTrainingArguments optim default adamw_hf; ptuning/trainer.py:1066 uses args.optim"),
},held_out=True,note=H5)
QVL=("QwenLM/Qwen-VL","aa00ed04091eea5fcdd32985e7915f1c53e7d599")
J("qwen-vl-chat-lora-zero2",*QVL,["finetune.py","finetune"],".",["finetune/finetune_lora_ds.sh"],{
 "model.ref":T("Qwen/Qwen-VL-Chat","finetune/finetune_lora_ds.sh:11 MODEL -> :25"),
 "dist.world_size":T(8,"finetune_lora_ds.sh:5-6 GPUS_PER_NODE=8 NNODES=1 -> :17-18"),
 "batch.micro":T(2,"finetune_lora_ds.sh:31"),
 "batch.grad_accum":T(8,"finetune_lora_ds.sh:33"),
 "data.seq_len":T(2048,"finetune_lora_ds.sh:45 --model_max_length -> finetune.py:352"),
 "dist.sharding":T("zero2","finetune_lora_ds.sh:49 -> finetune/ds_config_zero2.json:33 stage 2"),
 "precision.mode":T("bf16","finetune_lora_ds.sh:27 --bf16 True with ds_config_zero2.json:10-11 bf16 auto: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"finetune_lora_ds.sh:48"),
 "peft.method":T("lora","finetune_lora_ds.sh:47 --use_lora -> finetune.py:326-345"),
 "peft.rank":T(64,"finetune.py:55 lora_r default 64"),
 "task.mode":T("lora","finetune.py:63 q_lora default False: no GPTQ (finetune.py:304-308)"),
 "dist.offload_optimizer":T("none","ds_config_zero2.json:34-36 device none"),
 "dist.allgather_bucket_size":T(200000000,"ds_config_zero2.json:39 2e8"),
 "optimizer.name":T("AdamW","ds_config_zero2.json:13-14 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
MV=("OpenBMB/MiniCPM-V","0dbb566de090067266abb76e702fb289f09934c5")
J("minicpm-o-2.6-lora-zero2",*MV,["finetune"],"finetune",["finetune_lora.sh"],{
 "model.ref":T("openbmb/MiniCPM-o-2_6","finetune/finetune_lora.sh:9 MODEL -> :29"),
 "dist.world_size":T(8,"finetune_lora.sh:3-4 GPUS_PER_NODE=8 NNODES=1 -> :21-22"),
 "batch.micro":T(1,"finetune_lora.sh:53"),
 "batch.grad_accum":T(1,"finetune_lora.sh:55"),
 "data.seq_len":T(2048,"finetune_lora.sh:18 MODEL_MAX_Length -> :46 --model_max_length"),
 "dist.sharding":T("zero2","finetune_lora.sh:67 -> finetune/ds_config_zero2.json:35 stage 2"),
 "precision.mode":T("fp16","finetune_lora.sh:36,38 --bf16 false --fp16 true with ds_config_zero2.json:2-3 fp16 auto: DeepSpeed fp16 (finetune.py:183-203 loads float16)"),
 "memory.gradient_checkpointing":T(True,"finetune_lora.sh:66"),
 "peft.method":T("lora","finetune_lora.sh:44 --use_lora true -> finetune.py:229"),
 "peft.rank":T(64,"finetune.py:60 lora_r default 64"),
 "task.mode":T("lora","finetune.py:66 q_lora default False"),
 "dist.offload_optimizer":T("none","ds_config_zero2.json:36-38 device none"),
 "dist.allgather_bucket_size":T(200000000,"ds_config_zero2.json:41 2e8"),
 "optimizer.name":T("AdamW","ds_config_zero2.json:15-16 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
MG=("karpathy/minGPT","37baab71b9abea1b76ab957409a1cc2fbfba8a26")
J("mingpt-chargpt",*MG,["mingpt","projects/chargpt"],"projects/chargpt",["chargpt.py","--","--trainer.batch_size=32"],{
 "dist.world_size":T(1,"python chargpt.py: one process"),
 "batch.micro":T(32,"mingpt/utils.py:70 --trainer.batch_size=32 -> chargpt.py:90 merge_from_args (default mingpt/trainer.py:24 64)"),
 "data.seq_len":T(128,"projects/chargpt/chargpt.py:50 block_size 128"),
 "precision.mode":T("fp32","no autocast, no half anywhere (mingpt/trainer.py:61-100)"),
 "memory.gradient_checkpointing":T(False,"none in mingpt/model.py"),
 "model.num_parameters":T(2700000,"chargpt.py:32 gpt-mini -> mingpt/model.py:139 n_layer 6 n_embd 192; ~2.7M with a tiny-shakespeare vocabulary of 65 (readme.md:7)",rel_tol=0.1),
 "optimizer.name":T("AdamW","mingpt/model.py:257 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"mingpt/trainer.py:21 -> :74"),
 "peft.method":T("none","no PEFT anywhere in minGPT"),
},held_out=True,note=H5)
CG3=("THUDM/ChatGLM3","732294f42e2625509000daa87a9c3748d0bbb957")
J("chatglm3-6b-lora-ddp",*CG3,["finetune_demo"],"finetune_demo",["--","torchrun","--standalone","--nnodes=1","--nproc_per_node=8",
 "finetune_hf.py","data/AdvertiseGen/","THUDM/chatglm3-6b","configs/lora.yaml"],{
 "model.ref":T("THUDM/chatglm3-6b","finetune_demo/README.md:194 second positional -> finetune_hf.py:445,459"),
 "dist.world_size":T(8,"README.md:194 --nnodes=1 --nproc_per_node=8"),
 "dist.sharding":T("ddp","torchrun, configs/lora.yaml:38 deepspeed commented out"),
 "batch.micro":T(4,"configs/lora.yaml:15"),
 "batch.grad_accum":T(1,"Seq2SeqTrainingArguments default, not in lora.yaml:8-40"),
 "data.seq_len":T(769,"lora.yaml:6-7 256 + 512 -> finetune_hf.py:323 max_length = in + out + 1",any_of=[768,769]),
 "memory.gradient_checkpointing":T(True,"finetune_hf.py:514 model.gradient_checkpointing_enable()"),
 "peft.method":T("lora","lora.yaml:42 peft_type LORA -> finetune_hf.py:399-406"),
 "peft.rank":T(8,"lora.yaml:44"),
 "task.mode":T("lora","no quantization in finetune_hf.py"),
 "data.num_workers":T(16,"lora.yaml:16 dataloader_num_workers"),
},held_out=True,note=H5+"; README.md:194 without its OMP_NUM_THREADS=1 prefix")
SM=("huggingface/smollm","a041759883ec7152d18fb985ea49be641a0bceef")
smr="text/finetuning/README.md"
J("smollm2-1.7b-lora",*SM,["text/finetuning"],"text/finetuning",["--","accelerate","launch","train.py","--model_id","HuggingFaceTB/SmolLM2-1.7B",
 "--dataset_name","bigcode/the-stack-smol","--subset","data/python","--dataset_text_field","content","--split","train",
 "--max_seq_length","2048","--max_steps","5000","--micro_batch_size","1","--gradient_accumulation_steps","8",
 "--learning_rate","3e-4","--warmup_steps","100","--num_proc","16"],{
 "model.ref":T("HuggingFaceTB/SmolLM2-1.7B",smr+":43 --model_id"),
 "batch.micro":T(1,smr+":50 --micro_batch_size -> train.py:99"),
 "batch.grad_accum":T(8,smr+":51 -> train.py:100"),
 "data.seq_len":T(2048,smr+":48 --max_seq_length -> train.py:98"),
 "precision.mode":T("amp_bf16","train.py:39 --bf16 default True -> :106; :73-78 from_pretrained without torch_dtype, LoRA"),
 "peft.method":T("lora","train.py:56-63,117 LoraConfig passed to SFTTrainer"),
 "peft.rank":T(16,"train.py:57"),
 "task.mode":T("lora","train.py:41 --use_bnb default False: bnb_config None (:64-70)"),
 "optimizer.name":T("paged_adamw_8bit","train.py:110"),
},held_out=True,note=H5+"; README.md:42-54 with $(nproc) as 16; accelerate launch with the user's own accelerate config: world size left out")
LF=("mosaicml/llm-foundry","8c8dd48f72168c5d51e2f7b151595892a8fba43d")
lfy="yamls/finetune/mpt-7b_dolly_sft.yaml"
J("llmfoundry-mpt-7b-dolly-sft",*LF,["scripts/train","llmfoundry"],"scripts/train",["--","composer","train.py",lfy],{
 "model.ref":T("mosaicml/mpt-7b",lfy+":15 pretrained_model_name_or_path"),
 "batch.micro":T(8,lfy+":102 device_train_microbatch_size"),
 "batch.global":T(48,lfy+":97 global_train_batch_size"),
 "data.seq_len":T(2048,lfy+":4,9 max_seq_len"),
 "dist.sharding":T("fsdp_full",lfy+":108 FULL_SHARD"),
 "precision.mode":T("amp_bf16",lfy+":104 precision amp_bf16 (:109 FSDP mixed_precision PURE: bf16 compute over fp32 sharded params)"),
 "memory.gradient_checkpointing":T(True,lfy+":110 activation_checkpointing true"),
 "optimizer.name":T("decoupled_adamw",lfy+":80",any_of=["decoupled_adamw","DecoupledAdamW"]),
 "data.num_workers":T(8,lfy+":49"),
 "data.pin_memory":T(False,lfy+":50"),
 "peft.method":T("none","no peft_config in "+lfy),
},held_out=True,note=H5+"; scripts/train/README.md:110 with the README's finetune YAML (:202); composer uses every GPU of the node: world size left out")
IV=("OpenGVLab/InternVL","2410d1dbf208f0e799459aff9376e5747dbf41a2")
ivs="shell/internvl2.5/2nd_finetune/internvl2_5_8b_dynamic_res_2nd_finetune_lora.sh"
J("internvl2.5-8b-lora-zero1",*IV,["internvl_chat/shell/internvl2.5/2nd_finetune","internvl_chat/internvl","internvl_chat/zero_stage1_config.json"],
 "internvl_chat",[ivs],{
 "model.ref":T("OpenGVLab/InternVL2_5-8B",ivs+":32"),
 "dist.world_size":T(2,ivs+":3 GPUS default 2 -> :26,29"),
 "batch.micro":T(4,ivs+":5 PER_DEVICE_BATCH_SIZE default 4 -> :50"),
 "batch.grad_accum":T(2,ivs+":6 16 / 4 / 2 -> :51"),
 "data.seq_len":T(8192,ivs+":61 --max_seq_length"),
 "data.image_size":T(448,ivs+":38 --force_image_size"),
 "dist.sharding":T("zero1",ivs+":68 -> zero_stage1_config.json:3 stage 1"),
 "precision.mode":T("bf16",ivs+":48 --bf16 True with zero_stage1_config.json:20-21 bf16 auto: DeepSpeed bf16 (internvl_chat_finetune.py:909-910 loads bf16)"),
 "memory.gradient_checkpointing":T(True,ivs+":63 --grad_checkpoint True -> internvl/train/internvl_chat_finetune.py:978"),
 "peft.method":T("lora",ivs+":45 --use_llm_lora 16 -> internvl_chat_finetune.py:1007-1008 wrap_llm_lora"),
 "peft.rank":T(16,ivs+":45 -> internvl_chat_finetune.py:1008 r=use_llm_lora"),
 "task.mode":T("lora","no quantization in internvl_chat_finetune.py"),
 "data.num_workers":T(4,ivs+":47"),
 "dist.allgather_bucket_size":T(1000000000,"zero_stage1_config.json:5 1e9"),
 "optimizer.name":T("AdamW","zero_stage1_config.json:23-24 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
