"""The thirtieth held-out set of the jobs benchmark (run.py --set held-out-30): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H30="thirtieth held-out set"
LA=("AGI-Edgerunners/LLM-Adapters","816657208af4db747803f87ba40a4c71383fed7a")
laf="finetune.py"
J("llm-adapters-llama-7b-lora-math10k-fire-torchrun-2gpu",*LA,["."],".",["--","torchrun","--nproc_per_node=2","--master_port=3192","finetune.py","--base_model","yahma/llama-7b-hf",
 "--data_path","math_10k.json","--output_dir","./trained_models/llama-lora","--batch_size","16","--micro_batch_size","4","--num_epochs","3","--learning_rate","3e-4","--cutoff_len","256","--val_set_size","120","--adapter_name","lora"],{
 "model.ref":T("yahma/llama-7b-hf","README.md:79 --base_model 'yahma/llama-7b-hf' -> "+laf+":136-142 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(2,"README.md:78 torchrun --nproc_per_node=2"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(2,"--nproc_per_node=2"),
 "dist.sharding":T("ddp",laf+":109-113 WORLD_SIZE 2 -> ddp, one device per rank; the Trainer wraps the model in DistributedDataParallel (:293 ddp_find_unused_parameters=False)"),
 "batch.micro":T(4,"--micro_batch_size 4 -> "+laf+":278 per_device_train_batch_size"),
 "batch.grad_accum":T(2,"--batch_size 16 -> "+laf+":106 16 // 4 = 4, :113 // world size 2 = 2 -> :279"),
 "batch.global":T(16,"4 x 2 x 2"),
 "data.seq_len":T(256,"--cutoff_len 256 -> "+laf+":158-162 truncation to 256"),
 "data.padding":T("dynamic",laf+":298-300 DataCollatorForSeq2Seq(padding=True, pad_to_multiple_of=8)"),
 "precision.mode":T("amp_fp16",laf+":136-142 frozen base loaded in float16 + :283 TrainingArguments fp16=True (autocast + GradScaler over the LoRA weights)",any_of=["amp_fp16","fp16"]),
 "precision.weights_bits":T(16,laf+":35 load_8bit default False -> :136-142 torch_dtype float16"),
 "optimizer.name":T("AdamW",laf+":285 optim='adamw_torch'",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,laf+":43 use_gradient_checkpointing default False; peft/src/peft/utils/other.py:56-67 prepare_model_for_int8_training enables it only for an 8-bit model"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "peft.method":T("lora","--adapter_name lora -> "+laf+":197-205 LoraConfig -> :223 get_peft_model"),
 "peft.rank":T(8,laf+":47 lora_r default 8"),
 "task.mode":T("lora","16-bit base + LoRA"),
},held_out=True,note=H30+"; README.md:78-89 torchrun --nproc_per_node=2 --master_port=3192 finetune.py --base_model 'yahma/llama-7b-hf' --data_path 'math_10k.json' ... --batch_size 16 --micro_batch_size 4 --cutoff_len 256 --adapter_name lora (its WORLD_SIZE=2 CUDA_VISIBLE_DEVICES=0,1 prefix left off; fire.Fire(train) over keyword defaults, accumulation computed from the batch size and the world size, the repository's own vendored peft with LoRA, bottleneck and prefix adapters chosen by a string; LoRA tuning of LLaMA-7B on math word problems). Not labelled: compile.enabled ("+laf+":311-312 torch.compile when the string torch.__version__ >= '2', torch unpinned), peft.target_modules ("+laf+":201 passes target_modules=None, so --lora_target_modules is ignored and peft's per-architecture default applies)")
OF=("rui-ye/OpenFedLLM","14c6af2dd5c830e8b22a48b263ae33afdd285fc8")
ofs="training_scripts/run_sft.sh"
J("openfedllm-llama-2-7b-fedavg-int8-lora-trl-sft-shell-1gpu",*OF,["."],".",[ofs],{
 "model.ref":T("meta-llama/Llama-2-7b-hf",ofs+":15 model_name_or_path -> :23 --model_name_or_path -> main_sft.py:31-37 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"Llama-2-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(1,ofs+":21 CUDA_VISIBLE_DEVICES=$gpu python main_sft.py: one process on one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","config.py:111 device_map {'': local_process_index}: the 8-bit model on one device, no data parallelism"),
 "batch.micro":T(16,ofs+":3 batch_size=16 -> :31 --batch_size -> config.py:87 per_device_train_batch_size"),
 "batch.grad_accum":T(1,ofs+":4 gradient_accumulation_steps=1 -> :32 -> config.py:88"),
 "batch.global":T(16,"16 x 1 x 1 (per client step)"),
 "data.seq_len":T(512,ofs+":5 seq_length=512 -> :33 --seq_length -> federated_learning/fed_local_sft.py:40 SFTTrainer(max_seq_length=512)"),
 "data.padding":T("dynamic","main_sft.py:66 trl DataCollatorForCompletionOnlyLM (a DataCollatorForLanguageModeling: pads to the longest sample of the batch); no packing"),
 "precision.weights_bits":T(8,ofs+":37 --load_in_8bit -> config.py:106-112 BitsAndBytesConfig(load_in_8bit=True)"),
 "precision.quant_type":T("int8","config.py:107-109 bitsandbytes LLM.int8"),
 "optimizer.name":T("AdamW","config.py:85-100 TrainingArguments without optim: the default (adamw_hf in transformers 4.31.0, requirements.txt:83)",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"config.py:58 gradient_checkpointing default True (not given) -> :98 TrainingArguments and main_sft.py:40-41 prepare_model_for_kbit_training"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile, no torch.compile"),
 "peft.method":T("lora",ofs+":36 --use_peft -> config.py:69-76 LoraConfig -> main_sft.py:44 get_peft_model"),
 "peft.rank":T(32,ofs+":8 lora_r=32 -> :34 --peft_lora_r"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H30+"; bash training_scripts/run_sft.sh (README.md:32-37 'training scripts under training_scripts/ ... from the top-level directory': shell variables, then CUDA_VISIBLE_DEVICES=$gpu python main_sft.py --model_name_or_path $model_name_or_path ... --use_peft --load_in_8bit; HfArgumentParser over two custom dataclasses parsed in config.py at import time, TrainingArguments built by a function once per client and round, TRL's SFTTrainer with a completion-only collator; federated (FedAvg over 20 simulated clients, 2 a round) LoRA instruction tuning of Llama-2-7B on alpaca-gpt4). Not labelled: precision.mode (an int8 base whose other weights are loaded in bfloat16, config.py:112, with no bf16/fp16 flag to the Trainer: no autocast, fp32 LoRA weights)")
PA=("dandelionsllm/pandallm","4a47ecd4a033a8df86a88b7e71132cbfdc7f0823")
pac="conf/llama/zh/llama_7b_zh_instruct_v1_0_ds.yaml"
pat="trainer_base_ds_mul.py"
J("pandallm-llama-7b-zh-pretrain-hydra-zero1-deepspeed-8gpu",*PA,["."],".",["--","deepspeed","--include","localhost:0,1,2,3,4,5,6,7",pat,"-cp","conf/llama/zh","-cn","llama_7b_zh_instruct_v1_0_ds"],{
 "model.ref":T("/tmp/llama-7b",pac+":56 model_name_or_path (a local copy of LLaMA-7B) -> "+pat+":336 hydra.utils.call(cfg.model, path) -> :15 models.llama.LlamaForConditionalGeneration.from_pretrained",any_of=["/tmp/llama-7b","huggyllama/llama-7b","decapoda-research/llama-7b-hf"]),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000 grown to 32001 by "+pac+":16): 6.74B",rel_tol=0.1),
 "dist.world_size":T(8,"Readme.md:128 deepspeed --include localhost:0,1,2,3,4,5,6,7: eight processes"),
 "dist.nodes":T(1,"--include localhost only: one node"),
 "dist.devices_per_node":T(8,"eight GPUs of localhost"),
 "dist.sharding":T("zero1",pac+":169-170 ds_cfg.zero_optimization.stage 1 -> "+pat+":162-173 deepspeed.initialize(config=ds_cfg)"),
 "dist.offload_optimizer":T("none",pac+":176-178 offload_optimizer commented out"),
 "dist.overlap_comm":T(True,pac+":172"),
 "dist.contiguous_gradients":T(True,pac+":171"),
 "dist.reduce_bucket_size":T(500000000,pac+":174 5e8"),
 "dist.allgather_bucket_size":T(500000000,pac+":175 5e8"),
 "batch.micro":T(4,pac+":72 per_gpu_train_batch_size 4 -> :141 train_micro_batch_size_per_gpu, "+pat+":108,128-134 DataLoader"),
 "batch.grad_accum":T(128,pac+":75 gradient_accumulation_steps 128 -> :142"),
 "batch.global":T(4096,"4 x 128 x 8"),
 "data.seq_len":T(2048,pac+":45 collator.max_seq_length 2048 -> data/collators/flan.py:107 FlanCollatorOverCollator (the experiment name's seq1024 is stale)"),
 "data.padding":T("max_length","data/collators/flan.py:107 padding default 'max_length' (not overridden in "+pac+":42-47)"),
 "precision.mode":T("bf16",pac+":161-162 ds_cfg.bf16.enabled ${fp16} = True (:102): DeepSpeed bf16, 16-bit weights with fp32 master copies"),
 "optimizer.name":T("AdamW",pac+":143-144 ds_cfg.optimizer.type AdamW (DeepSpeed's optimizer)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,pac+":19 model.gradient_checkpointing True -> models/llama.py:706-713 gradient_checkpointing_enable()"),
 "data.num_workers":T(8,pac+":50 num_workers 8 -> "+pat+":132"),
 "data.pin_memory":T(True,pat+":133 pin_memory=True"),
 "compile.enabled":T(False,pat+":169 torch.compile only with cfg.compile or TORCH_COMPILE (neither set)"),
 "peft.method":T("none",pac+":18 use_peft False"),
},held_out=True,note=H30+"; deepspeed --include localhost:0,1,2,3,4,5,6,7 trainer_base_ds_mul.py -cp conf/llama/zh -cn llama_7b_zh_instruct_v1_0_ds (Readme.md:116-128: the training command with the config named for 'LLaMA-7b pretrain on general Chinese Corpus', its HYDRA_FULL_ERROR=1 prefix left off; a @hydra.main script whose model, dataset and collator are _target_ entries, a hand-written DeepSpeed loop over a ds_cfg block with ${} interpolations; continued pre-training of LLaMA-7B on Chinese text, Panda LLM)")
PC=("michael-wzhu/PromptCBLUE","b0753a61a7c1f4e1ae171109f8a59037ff0a5543")
pcs="src/ft_chatglm_lora/train.sh"
pcm="src/ft_chatglm_lora/main.py"
J("promptcblue-chatglm-6b-lora-seq2seq-trainer-shell-1gpu",*PC,["."],".",[pcs],{
 "model.ref":T("THUDM/chatglm-6b",pcs+":6 model_name_or_path ./models--THUDM--chatglm-6b/snapshots/... (a Hub cache snapshot of THUDM/chatglm-6b) -> "+pcm+":129-132 ChatGLMForConditionalGeneration.from_pretrained",any_of=["THUDM/chatglm-6b","./models--THUDM--chatglm-6b/snapshots/a8ede826cf1b62bd3c78bdfb3625c7c5d2048fbd"]),
 "model.num_parameters":T(6173000000,"ChatGLM-6B (28 layers, hidden 4096, FFN 16384, vocab 130528): 6.17B",rel_tol=0.1),
 "dist.world_size":T(1,pcs+":12 CUDA_VISIBLE_DEVICES=1 python: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, .cuda() on one device ("+pcm+":132)"),
 "batch.micro":T(8,pcs+":25 --per_device_train_batch_size 8"),
 "batch.grad_accum":T(2,pcs+":27 --gradient_accumulation_steps 2"),
 "batch.global":T(16,"8 x 2 x 1"),
 "data.seq_len":T(1024,pcs+":23-24 --max_source_length 828 --max_target_length 196 -> "+pcm+":221 max_seq_length 828 + 196 = 1024"),
 "data.padding":T("max_length",pcm+":256-258 every sample padded to max_seq_length 1024"),
 "precision.weights_bits":T(16,pcm+":132 .half(): float16 weights"),
 "optimizer.name":T("AdamW","Seq2SeqTrainingArguments default optim (adamw_hf in transformers 4.28.1, requirements.txt:10)",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,pcm+":409 model.gradient_checkpointing_enable() before trainer.train"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile (torch 1.12, requirements.txt:8)"),
 "peft.method":T("lora",pcm+":137-157 peft_path None (train.sh:10 sets a shell variable it never passes) -> LoraConfig -> get_peft_model"),
 "peft.rank":T(8,pcs+":1 lora_rank=8 -> :32 --lora_rank"),
 "task.mode":T("lora","16-bit base + LoRA"),
},held_out=True,note=H30+"; bash src/ft_chatglm_lora/train.sh (README.md:52 the ChatGLM + LoRA baseline, src/ft_chatglm_lora: shell variables, then CUDA_VISIBLE_DEVICES=1 python src/ft_chatglm_lora/main.py --do_train ... --max_source_length 828 --max_target_length 196 --per_device_train_batch_size 8 --gradient_accumulation_steps 2 --lora_rank 8 --trainable query_key_value,dense,...; HfArgumentParser over two custom dataclasses and Seq2SeqTrainingArguments, the ChatGLM model code vendored in src/ft_chatglm_ptuning, samples padded by hand to source + target length, a vendored Seq2SeqTrainer; LoRA tuning of ChatGLM-6B on the Chinese medical PromptCBLUE benchmark). Not labelled: precision.mode (the model .half()-ed with no --fp16 flag: fp16 base weights, no autocast, peft LoRA weights created in fp32)")
CD=("Kent0n-Li/ChatDoctor","e77bd7ebafbffb6d82be3410cd0d4ebebe75a516")
J("chatdoctor-llama-healthcaremagic-fsdp-hfargparser-torchrun-4gpu",*CD,["."],".",["--","torchrun","--nproc_per_node=4","--master_port=29500","train.py","--model_name_or_path","<your_path_to_hf_converted_llama_ckpt_and_tokenizer>",
 "--data_path","./HealthCareMagic-100k.json","--bf16","True","--output_dir","pretrained","--num_train_epochs","1","--per_device_train_batch_size","4","--per_device_eval_batch_size","4",
 "--gradient_accumulation_steps","8","--evaluation_strategy","no","--save_strategy","steps","--save_steps","2000","--save_total_limit","1","--learning_rate","2e-6","--weight_decay","0.",
 "--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","1","--fsdp","full_shard auto_wrap","--fsdp_transformer_layer_cls_to_wrap","LLaMADecoderLayer","--tf32","True"],{
 "dist.world_size":T(4,"README.md:69 torchrun --nproc_per_node=4"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("fsdp_full","README.md:87 --fsdp 'full_shard auto_wrap'"),
 "batch.micro":T(4,"README.md:75 --per_device_train_batch_size 4"),
 "batch.grad_accum":T(8,"README.md:77 --gradient_accumulation_steps 8"),
 "batch.global":T(128,"4 x 8 x 4"),
 "data.seq_len":T(512,"train.py:60-61 model_max_length default 512 (not given) -> :204 tokenizer, :102-106 truncation to 512"),
 "data.padding":T("dynamic","train.py:167-177 DataCollatorForSupervisedDataset pad_sequence to the longest sample of the batch"),
 "precision.mode":T("amp_bf16","README.md:72 --bf16 True over a model loaded in fp32 (train.py:196-199 no torch_dtype): the Trainer's FSDP mixed precision, bf16 compute over fp32 params"),
 "optimizer.name":T("AdamW","train.py:59 optim default 'adamw_torch'",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","train.py:196-224 the model goes to the Trainer as loaded: full fine-tuning"),
},held_out=True,note=H30+"; README.md:69-90 torchrun --nproc_per_node=4 --master_port=<your_random_port> train.py --model_name_or_path <your_path_to_hf_converted_llama_ckpt_and_tokenizer> --data_path ./HealthCareMagic-100k.json --bf16 True ... --per_device_train_batch_size 4 --gradient_accumulation_steps 8 ... --fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap 'LLaMADecoderLayer' --tf32 True (the port placeholder filled with 29500; the Stanford Alpaca train.py: HfArgumentParser over three dataclasses with a TrainingArguments subclass, a supervised dataset and a padding collator; full fine-tuning of LLaMA on 100k patient-doctor dialogues, medical). Not labelled: model.ref and model.num_parameters (the model path is a placeholder; the README does not state the size)")
IU=("BeyonderXX/InstructUIE","339ade6e0c490c5231bd3a883868177bcb382be6")
ius="scripts/train_flan-t5.sh"
iur="src/run_uie.py"
J("instructuie-flan-t5-large-multitask-ie-deepspeed-stage0-8gpu",*IU,["src","scripts","configs/ds_configs","README.md","requirements.txt"],".",[ius],{
 "model.ref":T("/root/MODELS/flan-t5-700M",ius+":20 --model_name_or_path (a local copy of FLAN-T5 large, '700M') -> "+iur+":346 AutoModelForSeq2SeqLM.from_pretrained",any_of=["/root/MODELS/flan-t5-700M","google/flan-t5-large"]),
 "model.num_parameters":T(783000000,ius+":15,20 'flan-t5-700M', FLAN-T5 large (24 + 24 layers, d_model 1024, d_ff 2816, vocab 32128): 783M",rel_tol=0.15),
 "dist.world_size":T(8,ius+":16 CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 deepspeed: one process per visible GPU"),
 "dist.nodes":T(1,"deepspeed without a hostfile: one node"),
 "dist.devices_per_node":T(8,"eight visible GPUs"),
 "dist.sharding":T("ddp",ius+":32 --deepspeed configs/ds_configs/stage0.config -> :30-32 zero_optimization stage 0 (data parallel)"),
 "batch.micro":T(8,ius+":27 --per_device_train_batch_size 8"),
 "batch.grad_accum":T(8,ius+":29 --gradient_accumulation_steps 8"),
 "batch.global":T(512,"8 x 8 x 8"),
 "data.seq_len":T(512,ius+":34 --max_source_length 512 -> src/uie_collator.py:105 encoder inputs truncated to 512 (targets to 50, :35)"),
 "data.padding":T("dynamic",iur+":404-411 DataCollatorForUIE(padding='longest')"),
 "precision.mode":T("fp32","no --bf16/--fp16: configs/ds_configs/stage0.config:2-12 'auto' resolves to disabled"),
 "optimizer.name":T("AdamW","configs/ds_configs/stage0.config:13-14 optimizer type AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,iur+":232-234 gradient_checkpointing default False (not given)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full fine-tuning ("+iur+":346 the model goes to the trainer as loaded)"),
},held_out=True,note=H30+"; bash ./scripts/train_flan-t5.sh (README.md:31-34: set -x, exports, a random port from shuf, then CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 deepspeed --master_port $port src/run_uie.py --do_train --do_predict ... --per_device_train_batch_size 8 --gradient_accumulation_steps 8 --deepspeed configs/ds_configs/stage0.config --max_source_length 512 --max_target_length 50; HfArgumentParser over three dataclasses with a Seq2SeqTrainingArguments subclass, a DeepSpeed config with a .config suffix full of 'auto'; multi-task instruction tuning of FLAN-T5 for information extraction, NER/RE/EE)")
PC1=("weiaicunzai/pytorch-cifar100","11d8418f415b261e4ae3cb1ffe20d06ec95b98e4")
J("pytorch-cifar100-vgg16-bn-sgd-argparse-1gpu",*PC1,["."],".",["train.py","--","-net","vgg16","-gpu"],{
 "model.num_parameters":T(34015396,"-net vgg16 -> utils.py:23-25 vgg16_bn() -> models/vgg.py:17,44-61 13 conv layers (cfg D) with BatchNorm + classifier 512-4096-4096-100 (:27-35): 34,015,396",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:39 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (train.py:35-37 .cuda() on one device)"),
 "batch.micro":T(128,"train.py:124 -b default 128 -> :133-139 get_training_dataloader(batch_size=128) -> utils.py:188-189 DataLoader"),
 "batch.grad_accum":T(1,"train.py:33-43 one optimizer step per batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.image_size":T(32,"utils.py:180 RandomCrop(32, padding=4) on CIFAR-100 32 x 32 images"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("SGD","train.py:150 optim.SGD(momentum=0.9)",any_of=["SGD","sgd"]),
 "data.num_workers":T(4,"train.py:136 num_workers=4"),
 "data.pin_memory":T(False,"utils.py:188-189 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H30+"; README.md:39 python train.py -net vgg16 -gpu (argparse with single-dash flags, the network picked by an if chain in utils.get_network, settings in a conf/global_settings.py module, a warm-up scheduler then MultiStepLR; image classification of CIFAR-100 with VGG16-BN)")
NP=("kwea123/nerf_pl","52aeb387da64a9ad9a0f914ea9b049ffc598b20c")
J("nerf-pl-blender-coarse-fine-lightning-argparse-1gpu",*NP,["."],".",["train.py","--","--dataset_name","blender","--root_dir","data/nerf_synthetic/lego","--N_importance","64","--img_wh","400","400","--noise_std","0",
 "--num_epochs","16","--batch_size","1024","--optimizer","adam","--lr","5e-4","--lr_scheduler","steplr","--decay_step","2","4","8","--decay_gamma","0.5","--exp_name","exp"],{
 "model.num_parameters":T(1191688,"train.py:38-42 NeRF() coarse + NeRF() fine (--N_importance 64 > 0), each models/nerf.py D=8, W=256, xyz 63 and dir 27 inputs, skip at layer 4: 493,056 + final 65,792 + direction 36,352 + sigma 257 + rgb 387 = 595,844; x 2 = 1,191,688 (the positional Embeddings have no parameters)",rel_tol=0.1),
 "dist.world_size":T(1,"opt.py:38 --num_gpus default 1 -> train.py:174 Trainer(gpus=1)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","train.py:175 distributed_backend None when num_gpus is 1"),
 "batch.micro":T(1024,"--batch_size 1024 -> train.py:90-94 DataLoader (1,024 rays a batch)"),
 "batch.grad_accum":T(1,"train.py:167-178 Trainer without accumulate_grad_batches"),
 "batch.global":T(1024,"1024 x 1 x 1"),
 "precision.mode":T("fp32","train.py:167-178 Trainer without precision (default 32)"),
 "optimizer.name":T("Adam","--optimizer adam -> utils/__init__.py:18-19 Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(4,"train.py:92 num_workers=4"),
 "data.pin_memory":T(True,"train.py:94 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (torch 1.4.0, requirements.txt:1)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H30+"; README.md:75-82 python train.py --dataset_name blender --root_dir $BLENDER_DIR --N_importance 64 --img_wh 400 400 --noise_std 0 --num_epochs 16 --batch_size 1024 --optimizer adam --lr 5e-4 --lr_scheduler steplr --decay_step 2 4 8 --decay_gamma 0.5 --exp_name exp ($BLENDER_DIR filled with a lego scene path; argparse in opt.py, a PyTorch Lightning 0.7.5 LightningModule holding a coarse and a fine NeRF MLP, the Trainer's old gpus/distributed_backend arguments, the optimizer chosen by a string; neural radiance fields, novel-view synthesis, 3D). Not labelled: data.image_size and data.seq_len (a batch is 1,024 rays drawn from 400 x 400 images, 64 coarse + 64 fine samples a ray)")
RB=("RUCAIBox/RecBole","7b02be5ec80a88310f2d04a27a82adfcbb5dc211")
rbo="recbole/properties/overall.yaml"
J("recbole-bpr-ml-100k-library-yaml-defaults-1gpu",*RB,["."],".",["run_recbole.py"],{
 "model.num_parameters":T(168128,"run_recbole.py:16 --model default BPR -> recbole/model/general_recommender/bpr.py:39-40 user and item embeddings of recbole/properties/model/BPR.yaml:1 embedding_size 64 over ml-100k's 944 users and 1,683 items (with padding ids): 168,128, the figure README.md:175 prints",rel_tol=0.1),
 "dist.world_size":T(1,"run_recbole.py:20-22 --nproc default 1 -> recbole/quick_start/quick_start.py:51 a single process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","nproc 1: no DistributedDataParallel"),
 "batch.micro":T(2048,rbo+":21 train_batch_size 2048 -> recbole/data/dataloader/general_dataloader.py:47-53 (one negative per pair, :26 sample_num 1) -> abstract_dataloader.py:65-72 DataLoader of 2,048 interactions"),
 "batch.grad_accum":T(1,"recbole/trainer/trainer.py one optimizer step per batch"),
 "batch.global":T(2048,"2048 x 1 x 1"),
 "precision.mode":T("fp32",rbo+":36 enable_amp False"),
 "optimizer.name":T("Adam",rbo+":22 learner adam -> recbole/trainer/trainer.py:176-177 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,rbo+":3 worker 0 -> recbole/data/dataloader/abstract_dataloader.py:69"),
 "data.pin_memory":T(False,"recbole/data/dataloader/abstract_dataloader.py:65-72 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H30+"; README.md:151 python run_recbole.py (the quick start: argparse with parse_known_args defaulting to BPR on ml-100k, everything else from the library's layered YAML defaults, recbole/properties/overall.yaml then the model's and dataset's YAML, merged by recbole.config.Config; the dataset downloaded on first use; BPR matrix factorisation, implicit-feedback recommendation)")
PG=("weihua916/powerful-gnns","9a2ce8ac3e99278307093a464a95caf0fb04b602")
J("powerful-gnns-gin-mutag-argparse-defaults-1gpu",*PG,["."],".",["main.py"],{
 "model.num_parameters":T(31196,"main.py:102-106 5 layers, 2-layer MLPs, hidden 64 -> :134 GraphCNN on MUTAG (7 node tags, 2 classes): eps 4 + first MLP 7-64-64 with a BatchNorm (4,800) + three MLPs 64-64-64 (8,448 each) + four outer BatchNorms (512) + five prediction heads (7-2 and four 64-2: 536) = 31,196 (models/graphcnn.py, models/mlp.py)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:38 python main.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (main.py:125 one device)"),
 "batch.micro":T(32,"main.py:90 --batch_size default 32 -> :23 32 graphs drawn by permutation per iteration"),
 "batch.grad_accum":T(1,"main.py:15-45 one optimizer step per batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","main.py:136 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H30+"; README.md:38 python main.py (argparse with every default: MUTAG, fold 0 of 10, GIN with sum pooling; batches drawn by hand from a list of S2VGraph objects with numpy, no DataLoader, a sparse adjacency built per batch; graph classification with the Graph Isomorphism Network). Not labelled: data loader workers and pin memory (no DataLoader)")
RS=("michuanhaohao/reid-strong-baseline","3da7e6f03164a92e696cb6da059b1cd771b0346d")
rss="Experiment-all_tricks-tri_center-market.sh"
rsc="configs/softmax_triplet_with_center.yml"
J("reid-strong-baseline-resnet50-bnneck-market1501-yacs-shell-1gpu",*RS,["."],".",[rss],{
 "model.num_parameters":T(25050176,"config/defaults.py:25 MODEL.NAME resnet50 with :27 last stride 1 (no fc: 23,508,032) + :34 BNNeck BatchNorm1d(2048) (4,096) + modeling/baseline.py:148 classifier Linear(2048, 751, bias=False) over Market-1501's 751 training identities (1,538,048) = 25,050,176 (the center loss's 751 x 2048 centres live in the loss, not the model)",rel_tol=0.1),
 "dist.world_size":T(1,rss+":11 MODEL.DEVICE_ID \"('2')\" -> tools/train.py:152 CUDA_VISIBLE_DEVICES=2: one GPU, one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","engine/trainer.py:36-37 DataParallel only when more than one GPU is visible (one is)"),
 "batch.micro":T(64,rsc+":45 SOLVER.IMS_PER_BATCH 64 (16 identities x :23 NUM_INSTANCE 4) -> data/build.py:33-37 DataLoader"),
 "batch.grad_accum":T(1,"engine/trainer.py one optimizer step per batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",rsc+":27 OPTIMIZER_NAME 'Adam' -> solver/build.py:42 getattr(torch.optim, 'Adam') (the centres use a separate SGD, :43)",any_of=["Adam","adam"]),
 "data.num_workers":T(8,rsc+":24 DATALOADER.NUM_WORKERS 8 -> data/build.py:33-37"),
 "data.pin_memory":T(False,"data/build.py:33-37 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",rsc+":2 ImageNet-pretrained ResNet-50, every parameter trained"),
},held_out=True,note=H30+"; bash Experiment-all_tricks-tri_center-market.sh (a comment header then python3 tools/train.py --config_file='configs/softmax_triplet_with_center.yml' MODEL.DEVICE_ID \"('2')\" DATASETS.NAMES \"('market1501')\" DATASETS.ROOT_DIR ... OUTPUT_DIR ...; a yacs config: defaults in config/defaults.py, merged with the YAML and with KEY VALUE overrides whose values are quoted Python literals; a pytorch-ignite engine; person re-identification with the bag-of-tricks baseline, ResNet-50 + BNNeck, triplet and center losses). Not labelled: data.image_size (256 x 128 crops, "+rsc+":12, not square)")
KS=("sooftware/kospeech","984b5890dd53379486b2abc0165c3396eb52ad37")
kst="configs/train/ds2_train.yaml"
J("kospeech-deepspeech2-ksponspeech-hydra-groups-dataparallel",*KS,["."],".",["bin/main.py","--","model=ds2","train=ds2_train","train.dataset_path=/data/KsponSpeech"],{
 "dist.nodes":T(1,"python ./bin/main.py: one process on one machine"),
 "batch.global":T(32,kst+":9 batch_size 32 -> bin/main.py:122-126 trainer.train(batch_size=32): 32 utterances a step (split across GPUs by nn.DataParallel, kospeech/model_builder.py:238)"),
 "batch.grad_accum":T(1,"kospeech/trainer/supervised_trainer.py:270 one optimizer step per batch"),
 "precision.mode":T("fp32","no autocast or half() in kospeech/trainer"),
 "optimizer.name":T("Adam",kst+":24 optimizer 'adam' -> kospeech/utils.py:70,82 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H30+"; README.md:147 python ./bin/main.py model=ds2 train=ds2_train train.dataset_path=$DATASET_PATH ($DATASET_PATH filled with /data/KsponSpeech; a @hydra.main script with config_path '../configs', a defaults list of three groups (audio fbank, model, train) overridden from the command line, a model builder that always wraps in nn.DataParallel, a threaded audio loader; Korean speech recognition with Deep Speech 2 on KsponSpeech). Not labelled: world size, sharding and the per-device batch (nn.DataParallel over every visible GPU in one process: a property of the machine), model.num_parameters (the output layer is sized by the character vocabulary read from the transcripts file), data loader workers and pin memory (kospeech/data/data_loader.py:115 threads, not a torch DataLoader)")
