"""The thirty-first held-out set of the jobs benchmark (run.py --set held-out-31): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H31="thirty-first held-out set"
CV=("Facico/Chinese-Vicuna","bd1658d70f66113eeb41e05e91f0754fa9dc845a")
cvs="scripts/finetune.sh"
cvf="finetune.py"
J("chinese-vicuna-llama-7b-int8-lora-shell-torchrun-2gpu",*CV,["."],".",[cvs],{
 "model.ref":T("decapoda-research/llama-7b-hf",cvs+":8 MODEL_PATH -> :15 --model_path -> "+cvf+":71-75 LlamaForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(2,cvs+":1-3 TOT_CUDA='2,3' -> CUDA_NUM=${#CUDAs[@]} = 2 -> :12 torchrun --nproc_per_node=$CUDA_NUM"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(2,cvs+":12 --nproc_per_node=2 over CUDA_VISIBLE_DEVICES=2,3"),
 "dist.sharding":T("ddp",cvf+":65-69 WORLD_SIZE 2 -> ddp, device_map one device per rank; the Trainer wraps the model in DistributedDataParallel (:263 ddp_find_unused_parameters=False)"),
 "batch.micro":T(4,cvf+":41 MICRO_BATCH_SIZE = 4 -> :248 per_device_train_batch_size"),
 "batch.grad_accum":T(16,cvf+":42,44 128 // 4 = 32, :69 // world size 2 = 16 -> :249"),
 "batch.global":T(128,"4 x 16 x 2"),
 "data.seq_len":T(256,cvf+":47 CUTOFF_LEN 256 -> :219-224 tokenized to 257 with padding='max_length', then [:-1]: 256"),
 "data.padding":T("max_length",cvf+":223 padding='max_length' (every sample 256 tokens)"),
 "precision.mode":T("amp_fp16",cvf+":254 TrainingArguments fp16=True over an 8-bit base (autocast + GradScaler over the LoRA weights)",any_of=["amp_fp16","fp16"]),
 "precision.weights_bits":T(8,cvf+":52 USE_8bit = True -> :73 load_in_8bit"),
 "precision.quant_type":T("int8",cvf+":73 bitsandbytes LLM.int8"),
 "optimizer.name":T("AdamW","TrainingArguments without optim: the default of the pinned transformers (requirements.txt:24 git commit 0dcb46e, 4.28.dev: adamw_hf)",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,cvf+":80-81 prepare_model_for_int8_training(model) (peft pinned at 13e53fc, requirements.txt:18): use_gradient_checkpointing defaults to True -> gradient_checkpointing_enable()"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,cvf+":276-277 torch.compile only when the string torch.__version__ >= '2'; requirements.txt:10 torch==1.13.1 (and the Trainer took the uncompiled module at :243)"),
 "peft.method":T("lora",cvf+":83-91 LoraConfig -> get_peft_model"),
 "peft.rank":T(8,cvf+":48 LORA_R = 8 -> :84"),
 "peft.target_modules":T(["q_proj","v_proj"],cvf+":57-60 TARGET_MODULES -> :86"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H31+"; bash scripts/finetune.sh (README.md:539; shell variables, TOT_CUDA='2,3' split into a bash array whose length is the process count, then CUDA_VISIBLE_DEVICES=${TOT_CUDA} torchrun --nproc_per_node=$CUDA_NUM --master_port=$PORT finetune.py --data_path ... --model_path decapoda-research/llama-7b-hf ...; argparse for paths only, every hyperparameter a module constant, accumulation divided by WORLD_SIZE, an 8-bit LLaMA with LoRA on q_proj/v_proj through transformers.Trainer; Chinese instruction tuning of LLaMA-7B, Chinese-Vicuna)")
CG=("mymusise/ChatGLM-Tuning","3af1bfd899943688acfe3850c8f1613445dc690a")
cgf="finetune.py"
J("chatglm-tuning-int8-lora-hfargparser-device-map-1proc",*CG,["."],".",[cgf,"--","--dataset_path","data/alpaca","--lora_rank","8","--per_device_train_batch_size","6","--gradient_accumulation_steps","1",
 "--max_steps","52000","--save_steps","1000","--save_total_limit","2","--learning_rate","1e-4","--fp16","--remove_unused_columns","false","--logging_steps","50","--output_dir","output"],{
 "dist.world_size":T(1,"README.md:66 python finetune.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(6,"README.md:69 --per_device_train_batch_size 6 -> "+cgf+":79-81 TrainingArguments"),
 "batch.grad_accum":T(1,"README.md:70 --gradient_accumulation_steps 1"),
 "batch.global":T(6,"6 x 1 x 1"),
 "data.padding":T("dynamic",cgf+":32-46 DataCollator pads each batch to its longest sample"),
 "precision.mode":T("amp_fp16","README.md:75 --fp16 over an 8-bit base ("+cgf+":87): autocast + GradScaler over the LoRA weights",any_of=["amp_fp16","fp16"]),
 "precision.weights_bits":T(8,cgf+":87 load_in_8bit=True"),
 "precision.quant_type":T("int8",cgf+":87 bitsandbytes LLM.int8"),
 "optimizer.name":T("AdamW","TrainingArguments without --optim: the default of transformers 4.27.1 (requirements.txt:7), adamw_hf",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,cgf+":94 model.gradient_checkpointing_enable()"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch.compile, no --torch_compile"),
 "peft.method":T("lora",cgf+":104-111 LoraConfig -> get_peft_model"),
 "peft.rank":T(8,"README.md:68 --lora_rank 8 -> "+cgf+":107 r"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H31+"; README.md:66-79 python finetune.py --dataset_path data/alpaca --lora_rank 8 --per_device_train_batch_size 6 --gradient_accumulation_steps 1 --max_steps 52000 ... --fp16 --remove_unused_columns false --logging_steps 50 --output_dir output (HfArgumentParser over a custom dataclass and TrainingArguments, AutoModel.from_pretrained with trust_remote_code and load_in_8bit, device_map='auto' and model_parallel=True, a Trainer subclass with its own compute_loss and collator; LoRA instruction tuning of ChatGLM on alpaca, pre-tokenized by a separate script). Not labelled: model.ref and model.num_parameters (--chatglm_path is never given: the default 'model_path/chatglm' is a local folder the user fills with ChatGLM-6B or ChatGLM2-6B, README.md:58), dist.sharding (device_map='auto' spreads one process's layers over every visible GPU: a property of the machine), data.seq_len (tokenize_dataset_rows.py truncates prompt and target separately to --max_seq_length, README.md:49 200, so samples reach about 400 tokens), peft.target_modules (peft's per-architecture default, the peft installed unpinned from git)")
SC=("sthalles/SimCLR","1848fc934ad844ae630e6c452300433fe99acfd9")
J("simclr-resnet18-stl10-amp-argparse-1gpu",*SC,["."],".",["run.py","--","-data","./datasets","--log-every-n-steps","100","--epochs","100","--fp16-precision"],{
 "model.num_parameters":T(11504832,"run.py:18 --arch default resnet18 -> models/resnet_simclr.py:11,18 torchvision resnet18 without its fc (11,176,512) + projection head Linear(512,512) + Linear(512,128) (:44 out_dim 128): 11,504,832 (the resnet_dict is a plain dict: only the chosen backbone is registered)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:25 python run.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (run.py:83 one device)"),
 "batch.micro":T(256,"run.py:27 -b default 256 -> :71-73 DataLoader (two views each, simclr.py:70 512 images a forward)"),
 "batch.grad_accum":T(1,"simclr.py:79-84 one optimizer step per batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.image_size":T(96,"run.py:16 -dataset-name default stl10 -> data_aug/contrastive_learning_dataset.py:31-33 RandomResizedCrop(96)"),
 "precision.mode":T("amp_fp16","--fp16-precision -> simclr.py:59 GradScaler(enabled) + :74 autocast(enabled)"),
 "optimizer.name":T("Adam","run.py:77 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(12,"run.py:23 -j default 12 -> :73"),
 "data.pin_memory":T(True,"run.py:73 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (pytorch 1.4.0, requirements.txt)"),
 "peft.method":T("none","training from scratch (run.py:75 pretrained=False)"),
},held_out=True,note=H31+"; README.md:25,31 python run.py -data ./datasets --log-every-n-steps 100 --epochs 100 with the --fp16-precision flag README.md:31 describes (its --dataset-name is left off: argparse defines the single-dash -dataset-name and rejects it; stl10 is the default); argparse with single-dash long flags, a ResNet backbone picked from a dict of two constructed torchvision models, InfoNCE loss over two augmented views, torch.cuda.amp; self-supervised contrastive pre-training on STL10)")
CA=("sahil280114/codealpaca","2f78ddc5c682ed6738ad092bbbfa59ba915afcb0")
cat_="train.py"
J("codealpaca-llama-7b-zero3-offload-hfargparser-torchrun-8gpu",*CA,["."],".",["--","torchrun","--nproc_per_node=8","--master_port=29500",cat_,"--model_name_or_path","<your_path_to_hf_converted_llama_ckpt_and_tokenizer>",
 "--data_path","./data/code_alpaca_20k.json","--fp16","True","--output_dir","output","--num_train_epochs","3","--per_device_train_batch_size","8","--per_device_eval_batch_size","8","--gradient_accumulation_steps","4",
 "--evaluation_strategy","no","--save_strategy","steps","--save_steps","500","--save_total_limit","1","--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","1",
 "--deepspeed","ds_config.json","--tf32","False"],{
 "model.num_parameters":T(6740000000,"README.md:96 'fine-tunes LLaMA-7B': 32 layers, hidden 4096, intermediate 11008, vocab 32000 (+1 pad token, "+cat_+":198-203): 6.74B",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:102 torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("zero3","README.md:120 --deepspeed ds_config.json -> ds_config.json:3 stage 3"),
 "dist.offload_optimizer":T("cpu","ds_config.json:11-14"),
 "dist.offload_params":T("cpu","ds_config.json:15-18"),
 "dist.contiguous_gradients":T(True,"ds_config.json:4"),
 "dist.reduce_bucket_size":T(100,"ds_config.json:9"),
 "dist.stage3_max_live_parameters":T(0,"ds_config.json:5"),
 "dist.stage3_prefetch_bucket_size":T(0,"ds_config.json:7"),
 "dist.save_16bit_weights":T(True,"ds_config.json:19 stage3_gather_16bit_weights_on_model_save"),
 "batch.micro":T(8,"README.md:108 --per_device_train_batch_size 8"),
 "batch.grad_accum":T(4,"README.md:110 --gradient_accumulation_steps 4"),
 "batch.global":T(256,"8 x 4 x 8"),
 "data.seq_len":T(512,cat_+":59-62 model_max_length default 512 -> :194 tokenizer -> :90-96 truncation"),
 "data.padding":T("dynamic",cat_+":157-167 DataCollatorForSupervisedDataset pad_sequence to the longest of the batch"),
 "precision.mode":T("fp16","README.md:105 --fp16 True -> ds_config.json:33-34 fp16.enabled 'auto' filled True by the Trainer: DeepSpeed fp16, 16-bit weights with fp32 master copies",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("Adam","ds_config.json:21-22 optimizer type Adam (DeepSpeed's CPU Adam under offload, AdamW mode) overrides "+cat_+":58 optim adamw_torch",any_of=["Adam","AdamW","adam","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing (TrainingArguments default False)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full fine-tuning ("+cat_+":186-189 the model goes to the Trainer as loaded)"),
},held_out=True,note=H31+"; README.md:101-122 torchrun --nproc_per_node=8 --master_port=<your_random_port> train.py --model_name_or_path <your_path_to_hf_converted_llama_ckpt_and_tokenizer> --data_path ./data/code_alpaca_20k.json --fp16 True ... --deepspeed ds_config.json --tf32 False (the port filled with 29500, the output dir with 'output', the two continuation backslashes the README drops restored; the Stanford Alpaca train.py: HfArgumentParser over three dataclasses with a TrainingArguments subclass, a ZeRO-3 DeepSpeed config with CPU offload of parameters and optimizer and 'auto' fp16; full fine-tuning of LLaMA-7B on 20k code instructions). Not labelled: model.ref (a placeholder path)")
DS=("SeanNaren/deepspeech.pytorch","b88a631ef6b96553e16bbaa5bd6a621435bed278")
dsc="configs/an4.yaml"
dst="deepspeech_pytorch/configs/train_config.py"
J("deepspeech-pytorch-an4-hydra-configstore-lightning-amp-1gpu",*DS,["."],".",["train.py","--","+configs=an4"],{
 "model.num_parameters":T(86618400,dst+":10-11 defaults optim adam, model bidirectional (:47-50 5 LSTM layers, hidden 1024) -> deepspeech_pytorch/model.py:157-201: two convolutions with BatchNorm (251,168) + a bidirectional LSTM over 1,312 inputs (19,152,896) + four BatchNorm + bidirectional LSTM 1024 layers (67,182,592) + BatchNorm and Linear(1024, 29 labels, labels.json) (31,744) = 86,618,400",rel_tol=0.1),
 "dist.world_size":T(1,dsc+":10 trainer.devices 1"),
 "dist.nodes":T(1,"deepspeech_pytorch/configs/lightning_config.py:35 num_nodes default 1"),
 "dist.sharding":T("ddp",dsc+":13 strategy ddp (with one device: one process, DDP-wrapped)",any_of=["ddp","none"]),
 "batch.micro":T(8,dsc+":5 data.batch_size 8 -> deepspeech_pytorch/loader/data_module.py:31-43 batch sampler of 8"),
 "batch.grad_accum":T(1,"deepspeech_pytorch/configs/lightning_config.py:44 accumulate_grad_batches default 1"),
 "batch.global":T(8,"8 x 1 x 1"),
 "precision.mode":T("amp_fp16",dsc+":11 trainer.precision 16 -> Lightning native AMP"),
 "optimizer.name":T("AdamW",dst+":10 optim adam -> deepspeech_pytorch/model.py:282-289 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,dsc+":6 data.num_workers 8 -> deepspeech_pytorch/loader/data_module.py:42"),
 "data.pin_memory":T(False,"deepspeech_pytorch/loader/data_module.py:40-44 AudioDataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:57 python train.py +configs=an4 (a @hydra.main app with config_path '.' whose schema is dataclasses stored in a ConfigStore (train.py:9-15), a defaults list in "+dst+", an experiment YAML under configs/ added with +configs=, the Lightning Trainer built by hydra.utils.instantiate(cfg.trainer); Deep Speech 2 speech recognition on AN4 with CTC loss)")
WG=("NVIDIA/waveglow","8afb643df59265016af6bd255c7516309d675168")
J("waveglow-ljspeech-json-config-apex-amp-1gpu",*WG,["."],".",["train.py","--","-c","config.json"],{
 "model.num_parameters":T(87879272,"config.json:29-40 12 flows, n_group 8, early outputs every 4 flows, WN 8 layers x 256 channels -> glow.py:183-205 ConvTranspose1d upsampler (6,553,680) + 12 invertible 1x1 convs + 12 weight-normed WN coupling nets: 87,879,272 (the paper's 87.88M)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:61 python train.py -c config.json: train.py:176-181 one GPU without a distributed group ('Use distributed.py for multiple GPUs')"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","train.py:76-77 gradient all-reduce only when num_gpus > 1"),
 "batch.micro":T(12,"config.json:9 batch_size 12 -> train.py:97-101 DataLoader"),
 "batch.grad_accum":T(1,"train.py:119-139 one optimizer step per batch"),
 "batch.global":T(12,"12 x 1 x 1"),
 "precision.mode":T("amp_fp16","config.json:3 fp16_run true -> train.py:82-84 apex amp.initialize(opt_level='O1'): mixed precision with loss scaling"),
 "optimizer.name":T("Adam","train.py:80 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(1,"train.py:97 num_workers=1"),
 "data.pin_memory":T(False,"train.py:100 pin_memory=False"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (torch==1.0, requirements.txt:1)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:61 python train.py -c config.json (argparse for the config path, rank and group only; one JSON with train/data/dist/model sections made module globals, the model built with WaveGlow(**waveglow_config), NVIDIA apex O1 mixed precision, a separate distributed.py spawner for multi-GPU; flow-based neural vocoder on LJ Speech, speech synthesis). Not labelled: data.seq_len (16,000 raw audio samples a clip, config.json:16)")
SA=("denisyarats/pytorch_sac","81c5b536d3a1c5616b2531e446450df412a064fb")
sac="config/agent/sac.yaml"
J("pytorch-sac-cheetah-run-hydra-0-11-1gpu",*SA,["."],".",["train.py","--","env=cheetah_run"],{
 "dist.world_size":T(1,"README.md:27 python train.py env=cheetah_run: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(1024,sac+":22 batch_size 1024 -> agent/sac.py:131-132 replay_buffer.sample(1024)"),
 "batch.grad_accum":T(1,"agent/sac.py:95-128 one step of each optimizer per update"),
 "batch.global":T(1024,"1024 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","agent/sac.py:44-54 torch.optim.Adam for actor, critic and temperature",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:27 python train.py env=cheetah_run (a Hydra 0.11 app, conda_env.yml:17 hydra@0.11_branch: @hydra.main(config_path='config/train.yaml', strict=True) names the primary YAML file, a defaults list with the agent group, class/params entries built by hydra.utils.instantiate with ??? fields filled at run time; soft actor-critic on the DeepMind Control cheetah run task, RL with a replay buffer). Not labelled: model.num_parameters (an actor, a double-Q critic and a frozen target critic with no single model; obs and action sizes come from the environment at run time), data loader workers and pin memory (no DataLoader: the batch is drawn from a replay buffer with numpy)")
MO=("OpenLMLab/MOSS","c810e0b428bb209522dcde12f58daa318cf83027")
mof="finetune_moss.py"
moc="configs/sft.yaml"
J("moss-moon-003-sft-accelerate-deepspeed-zero3-4node-32gpu",*MO,["."],".",["--","accelerate","launch","--config_file","./configs/sft.yaml","--num_processes","32","--num_machines","4","--machine_rank","0",
 "--deepspeed_multinode_launcher","standard",mof,"--model_name_or_path","fnlp/moss-moon-003-base","--data_dir","./sft_data","--output_dir","./ckpts/moss-moon-003-sft","--log_dir","./train_logs/moss-moon-003-sft",
 "--n_epochs","2","--train_bsz_per_gpu","4","--eval_bsz_per_gpu","4","--learning_rate","0.000015","--eval_step","200","--save_step","2000"],{
 "model.ref":T("fnlp/moss-moon-003-base","README.md:482 --model_name_or_path fnlp/moss-moon-003-base -> "+mof+":180 AutoModelForCausalLM.from_pretrained(trust_remote_code=True)"),
 "model.num_parameters":T(16700000000,"README.md:63 the moss-moon models have 16 billion parameters (CodeGen-16B shape: 34 layers, hidden 6144, vocab 107008, untied output layer: about 16.7B)",rel_tol=0.1),
 "dist.world_size":T(32,"README.md:472-478 num_processes=$((num_machines * 8)) = 32 -> --num_processes 32"),
 "dist.nodes":T(4,"README.md:472 num_machines=4 -> --num_machines 4"),
 "dist.devices_per_node":T(8,"32 processes over 4 machines"),
 "dist.sharding":T("zero3",moc+":11-12 distributed_type DEEPSPEED, zero_stage 3"),
 "dist.offload_optimizer":T("none",moc+":7 offload_optimizer_device none"),
 "dist.offload_params":T("none",moc+":8 offload_param_device none"),
 "dist.save_16bit_weights":T(True,moc+":10 zero3_save_16bit_model true"),
 "batch.micro":T(4,"README.md:487 --train_bsz_per_gpu 4 -> "+mof+":202 DataLoader and :175 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,moc+":5 gradient_accumulation_steps 1; "+mof+":216-230 one optimizer step per batch"),
 "batch.global":T(128,"4 x 1 x 32"),
 "data.padding":T("dynamic",mof+":113-122 collate_fn pad_sequence to the longest of the batch"),
 "precision.mode":T("fp16",mof+":169 Accelerator(mixed_precision='fp16') and "+moc+":22 mixed_precision fp16 under DeepSpeed: fp16 weights with fp32 master copies",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW",mof+":199 torch.optim.AdamW (passed to DeepSpeed as the client optimizer)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,mof+":182-183 model.transformer.gradient_checkpointing = True (set on the attribute, asserted)"),
 "data.num_workers":T(0,mof+":202 DataLoader without num_workers"),
 "data.pin_memory":T(False,mof+":202 DataLoader without pin_memory"),
 "compile.enabled":T(False,moc+":14 dynamo_backend 'NO'"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H31+"; README.md:465-496 the run.sh the README has the user write: num_machines=4, num_processes=$((num_machines * 8)), machine_rank=0, then accelerate launch --config_file ./configs/sft.yaml --num_processes $num_processes --num_machines $num_machines --machine_rank $machine_rank --deepspeed_multinode_launcher standard finetune_moss.py --model_name_or_path fnlp/moss-moon-003-base ... --train_bsz_per_gpu 4 (the shell arithmetic done: 32 processes, 4 machines; an accelerate YAML whose num_processes 8 and num_machines 1 the flags override, a hand-written accelerate loop, remote-code MOSS model; supervised fine-tuning of the 16B MOSS base model on multi-turn conversations). Not labelled: data.seq_len (--max_seq_len 2048 is parsed, "+mof+":285, but never used: SFTDataset does not truncate)")
SG=("rosinality/stylegan2-pytorch","bef283a1c24087da704d16c30abc8e36e63efa0e")
J("stylegan2-pytorch-ffhq-256-ddp-distributed-launch-8gpu",*SG,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--master_port=29500","train.py","--batch","4","/data/ffhq_lmdb"],{
 "dist.world_size":T(8,"README.md:26 python -m torch.distributed.launch --nproc_per_node=N_GPU (filled with 8) -> train.py:433-434 WORLD_SIZE"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:497-510 generator and discriminator in DistributedDataParallel"),
 "batch.micro":T(4,"--batch 4 (README.md:26 BATCH_SIZE; train.py:343 'batch sizes for each gpus') -> :521-526 DataLoader"),
 "batch.grad_accum":T(1,"train.py:126-260 one step of each optimizer per batch"),
 "batch.global":T(32,"4 x 1 x 8"),
 "data.image_size":T(256,"train.py:352 --size default 256 -> :520 MultiResolutionDataset(resolution 256) and the 256-pixel Generator/Discriminator (:452-457)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:467-476 optim.Adam for generator and discriminator",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"train.py:521-526 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:521-526 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:26 python -m torch.distributed.launch --nproc_per_node=N_GPU --master_port=PORT train.py --batch BATCH_SIZE LMDB_PATH (placeholders filled: 8 GPUs, port 29500, batch 4, /data/ffhq_lmdb; argparse with a positional dataset path and --local_rank, the legacy launcher, two DDP-wrapped networks and an EMA copy, lazy R1 and path-length regularisation; StyleGAN2 image generation, GAN). Not labelled: model.num_parameters (a generator, a discriminator and an EMA generator: no single model)")
TT=("CompVis/taming-transformers","3ba01b241669f5ade541ce990f7650a3b8f65318")
ttc="configs/custom_vqgan.yaml"
J("taming-transformers-vqgan-custom-lightning-omegaconf-2gpu",*TT,["."],".",["main.py","--","--base",ttc,"-t","True","--gpus","0,1"],{
 "dist.world_size":T(2,"README.md:225 --gpus 0,1: two GPUs"),
 "dist.nodes":T(1,"no --num_nodes (Trainer default 1)"),
 "dist.devices_per_node":T(2,"--gpus 0,1"),
 "dist.sharding":T("ddp","main.py:422 trainer distributed_backend 'ddp' (kept because --gpus is given, :425-430)"),
 "batch.micro":T(5,ttc+":31 data.params.batch_size 5 -> main.py:135-166 DataModuleFromConfig DataLoader"),
 "batch.grad_accum":T(1,"main.py:539 accumulate_grad_batches unset -> 1"),
 "batch.global":T(10,"5 x 1 x 2"),
 "data.image_size":T(256,ttc+":37 train size 256 (taming/data/custom.py crops to size)"),
 "precision.mode":T("fp32","no trainer precision in "+ttc+" or on the command line (pytorch-lightning 1.0.8 default 32)"),
 "optimizer.name":T("Adam","taming/models/vqgan.py:121-131 torch.optim.Adam for the autoencoder and the discriminator",any_of=["Adam","adam"]),
 "data.num_workers":T(8,ttc+":32 num_workers 8 -> main.py:140,165-166"),
 "data.pin_memory":T(False,"main.py:165-166 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (pytorch 1.7.0, environment.yaml:9)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:225 python main.py --base configs/custom_vqgan.yaml -t True --gpus 0,1 (the latent-diffusion style main.py: argparse plus Trainer.add_argparse_args, OmegaConf configs merged with dotlist overrides, model and data built from target/params entries, ddp forced whenever --gpus is given, the learning rate scaled by GPUs x batch; a VQGAN (two optimizers, autoencoder and patch discriminator with an LPIPS loss) on a custom image folder, PyTorch Lightning 1.0.8). Not labelled: model.num_parameters (the VQModel holds the loss's discriminator and a frozen LPIPS VGG: which of them count is not settled)")
CR=("vwxyzjn/cleanrl","fe8d8a03c41a7ef5b523e2e354bd01c363e786bb")
crp="cleanrl/ppo_atari.py"
J("cleanrl-ppo-atari-breakout-tyro-1gpu",*CR,["."],".",[crp,"--","--env-id","BreakoutNoFrameskip-v4"],{
 "model.num_parameters":T(1686693,crp+":117-132 Nature-CNN Agent: conv 4-32 8x8 (8,224) + conv 32-64 4x4 (32,832) + conv 64-64 3x3 (36,928) + Linear(3136, 512) (1,606,144) + actor Linear(512, 4 Breakout actions) (2,052) + critic Linear(512, 1) (513) = 1,686,693",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:108 python cleanrl/ppo_atari.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,crp+":51,53 8 envs x 128 steps = 1,024 a rollout (:148), :61 4 minibatches -> :149 minibatch 256 -> :263-267 one optimizer step per 256 samples"),
 "batch.grad_accum":T(1,crp+":263-310 one optimizer step per minibatch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.image_size":T(84,crp+":103 ResizeObservation (84, 84)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",crp+":185 optim.Adam(eps=1e-5)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:108 python cleanrl/ppo_atari.py --env-id BreakoutNoFrameskip-v4 (a single-file script: a dataclass of arguments parsed by tyro.cli, with batch and minibatch sizes computed after parsing, gymnasium vector envs with Atari wrappers, a hand-written PPO update over shuffled minibatch indices; reinforcement learning on Atari Breakout). Not labelled: data loader workers and pin memory (no DataLoader: rollouts are collected into tensors)")
PG=("tkipf/pygcn","1600b5b748b3976413d1e307540ccc62605b4d6d")
J("pygcn-gcn-cora-argparse-full-batch-1gpu",*PG,["."],"pygcn",["train.py"],{
 "model.num_parameters":T(23063,"train.py:28 --hidden default 16 -> :45-48 GCN(nfeat=1433 Cora word features, nhid=16, nclass=7) -> models.py:10-11 two GraphConvolution layers with bias (layers.py:18-20): 1433 x 16 + 16 + 16 x 7 + 7 = 23,063 (data/cora/README:3,14)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:27 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (train.py:52-53 model.cuda())"),
 "batch.grad_accum":T(1,"train.py:62-70 one optimizer step per epoch over the whole graph"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:49-50 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H31+"; README.md:18,27 python setup.py install, then python train.py from pygcn/ (utils.py:15 load_data reads ../data/cora/; argparse with every default: 200 epochs of full-batch training on Cora, a sparse normalised adjacency and torch.spmm; semi-supervised node classification with a two-layer Graph Convolutional Network). Not labelled: batch sizes (full-batch: all 2,708 nodes every step, the loss on 140 training nodes), data loader workers and pin memory (no DataLoader)")
