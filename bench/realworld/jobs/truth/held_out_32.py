"""The thirty-second held-out set of the jobs benchmark (run.py --set held-out-32): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/ and calibration/ and found nowhere before it was taken."""
from .core import J, T

H32="thirty-second held-out set"
DC=("voidism/DiffCSE","f724b2cc921efdfb4e4bd85cd7ca13a8f0d1f0cf")
dcs="run_diffcse.sh"
dct="transformers-4.2.1/src/transformers/trainer.py"
J("diffcse-bert-base-hf-trainer-vendored-transformers-4-2-1-1proc",*DC,["."],".",[dcs],{
 "model.ref":T("bert-base-uncased",dcs+":8 --model_name_or_path bert-base-uncased -> train.py:375-384 BertForCL.from_pretrained"),
 "dist.world_size":T(1,dcs+":7 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(64,dcs+":13 --per_device_train_batch_size 64"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps (TrainingArguments default 1)"),
 "data.seq_len":T(32,dcs+":15 --max_seq_length 32 -> train.py:443-448 tokenizer(max_length=32, truncation=True)"),
 "data.padding":T("dynamic","train.py:446-447 padding False unless --pad_to_max_length -> :546 OurDataCollatorWithPadding (:474 padding=True: each batch padded to its longest)"),
 "precision.mode":T("amp_fp16",dcs+":30 --fp16 with torch 1.7.1 (setup.py:26): native autocast + GradScaler (diffcse/trainers.py:69-70) over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","no --adafactor: "+dct+":564-569 transformers.optimization.AdamW (the vendored transformers 4.2.1, README.md:42-47)",any_of=["AdamW","adamw","adamw_hf"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing flag or call"),
 "data.num_workers":T(0,dct+":479 num_workers=args.dataloader_num_workers (default 0)"),
 "data.pin_memory":T(False,dct+":473-480 DataLoader without pin_memory (transformers 4.2.1 has no dataloader_pin_memory)"),
 "compile.enabled":T(False,"no torch.compile (torch 1.7.1)"),
 "peft.method":T("none","every parameter of BertForCL trained"),
},held_out=True,note=H32+"; README.md:71-95 and run_diffcse.sh: bash run_diffcse.sh (python train.py --model_name_or_path bert-base-uncased --generator_name distilbert-base-uncased ... --per_device_train_batch_size 64 --max_seq_length 32 ... --fp16 --masking_ratio $MASK with shell variables for the learning rate, mask ratio and lambda; HfArgumentParser over three dataclasses, a Trainer subclass (diffcse/trainers.py) that overrides train(), a transformers 4.2.1 source tree vendored in the repository and installed from it, a hand collator that masks tokens for an ELECTRA-style generator; unsupervised sentence embeddings, NLP). Not labelled: dist.sharding and batch.global (one process: the 4.2.1 Trainer wraps the model in nn.DataParallel when several GPUs are visible, and the count is not given), model.num_parameters (BertForCL holds two BERT-base encoders, bert and discriminator, train.py:376-388, plus a DistilBERT generator, diffcse/models.py:122: no single figure of the hub model)")
RR=("GanjinZero/RRHF","e1a2b61f7d91fbee4cfaa3923327fcc5c5c733de")
rrs="train.sh"
J("rrhf-alpaca-7b-fsdp-full-shard-distributed-launch-8gpu",*RR,["."],".",[rrs,"--","/models/alpaca-7b","/output/rrhf","/data/hh_scored.json"],{
 "model.num_parameters":T(6738415616,"README.md:103,107 bash ./train.sh <path_to_alpaca_directory> (Alpaca-7B, a LLaMA-7B fine-tune; "+rrs+":28 LlamaDecoderLayer): 6.74B",rel_tol=0.1),
 "dist.world_size":T(8,rrs+":9 torch.distributed.launch --nproc_per_node=8 (one node)"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,rrs+":9 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",rrs+":27 --fsdp 'full_shard auto_wrap'"),
 "dist.offload_params":T("none",rrs+":27 no 'offload' in --fsdp (README.md:110-113 adds it only for one GPU)"),
 "batch.micro":T(1,rrs+":15 --per_device_train_batch_size 1 (one query; its responses are the rows, train.py:201-208)"),
 "batch.grad_accum":T(8,rrs+":17 --gradient_accumulation_steps 8"),
 "batch.global":T(64,"1 x 8 x 8"),
 "data.seq_len":T(192,rrs+":29 --model_max_length 192 -> train.py:292 tokenizer model_max_length -> :206 each response truncated to 192 minus the query"),
 "data.padding":T("dynamic","train.py:210-215 pad_sequence to the longest query+response of the batch"),
 "precision.mode":T("amp_bf16",rrs+":12 --bf16 True under FSDP; train.py:284-287 from_pretrained without torch_dtype (fp32 weights): FSDP mixed precision bf16",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("adamw_torch","train.py:73 optim default 'adamw_torch' (a TrainingArguments subclass field)",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full fine-tuning (README.md:104 'we will try efficient training methods such as LoRA' later)"),
},held_out=True,note=H32+"; README.md:106-108 bash ./train.sh <path_to_alpaca_directory> <save_path_directory> <path_to_data_json> (filled with /models/alpaca-7b /output/rrhf /data/hh_scored.json; export MODEL_PATH=$1 and the other positional parameters, wandb offline, python3 -m torch.distributed.launch --master_addr ${MASTER_ADDR} --nproc_per_node=8 --use_env train.py with HfArgumentParser flags, FSDP full_shard with LlamaDecoderLayer wrapping, a Trainer subclass whose compute_loss ranks several responses per query; RRHF alignment of Alpaca-7B on Anthropic HH, LLM). Not labelled: model.ref (a local directory the user passes)")
TB=("TigerResearch/TigerBot","a80a3fbbdf8536fa81378635ff0baf3bdd3f5b37")
tbs="train_sft.py"
tbd="ds_config/ds_config_zero3.json"
J("tigerbot-7b-sft-deepspeed-include-zero3-cpu-offload-4gpu",*TB,["train","requirements.txt","README.md"],"train",["--","deepspeed","--include=localhost:0,1,2,3","./train_sft.py","--deepspeed","./ds_config/ds_config_zero3.json",
 "--model_name_or_path","TigerResearch/tigerbot-7b-base","--dataset_name","TigerResearch/dev_sft","--do_train","--output_dir","./ckpt-sft","--overwrite_output_dir","--preprocess_num_workers","8",
 "--num_train_epochs","5","--learning_rate","1e-5","--evaluation_strategy","steps","--eval_steps","10","--bf16","True","--save_strategy","steps","--save_steps","10","--save_total_limit","2",
 "--logging_steps","10","--tf32","True","--per_device_train_batch_size","2","--per_device_eval_batch_size","2"],{
 "model.ref":T("TigerResearch/tigerbot-7b-base","README.md:433 --model_name_or_path -> train/"+tbs+":65 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6980000000,"tigerbot-7b-base: a Llama-2-7B shape (32 layers, hidden 4096, FFN 11008) with a 60,928-token vocabulary, untied head: about 6.98B (the earlier BLOOM-7B1-based release is 7.07B, within the tolerance)",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:430 --include=localhost:0,1,2,3: four GPUs of one node"),
 "dist.nodes":T(1,"--include names localhost only"),
 "dist.devices_per_node":T(4,"README.md:430 four GPU ids"),
 "dist.sharding":T("zero3","train/"+tbd+":30-31 zero_optimization stage 3"),
 "dist.offload_optimizer":T("cpu","train/"+tbd+":32-35 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu","train/"+tbd+":36-39 offload_param device cpu"),
 "dist.overlap_comm":T(True,"train/"+tbd+":40"),
 "dist.contiguous_gradients":T(True,"train/"+tbd+":41"),
 "batch.micro":T(2,"README.md:449 --per_device_train_batch_size 2 (train_micro_batch_size_per_gpu 'auto', "+tbd+":54)"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps (default 1; "+tbd+":50 'auto')"),
 "batch.global":T(8,"2 x 1 x 4"),
 "data.seq_len":T(1024,"train/"+tbs+":19 SFTConfig max_length default 1024 -> :91-93 each record truncated to 1024 tokens"),
 "data.padding":T("dynamic","train/"+tbs+":114-116 DataCollatorForTokenClassification(padding='longest')"),
 "precision.mode":T("bf16","README.md:443 --bf16 True -> "+tbd+":10-12 bf16 enabled 'auto' (true): DeepSpeed bf16 weights with fp32 master copies",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",tbd+":13-21 DeepSpeed optimizer AdamW (replaces TrainingArguments optim; with CPU offload DeepSpeed runs DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing, no call"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0 (--preprocess_num_workers 8 is the datasets.map pool, "+tbs+":103)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full fine-tuning (train_with_qlora.py is a different script)"),
},held_out=True,note=H32+"; README.md:429-450 deepspeed --include=\"localhost:0,1,2,3\" ./train_sft.py --deepspeed ./ds_config/ds_config_zero3.json --model_name_or_path TigerResearch/tigerbot-7b-base ... --bf16 True --tf32 True --per_device_train_batch_size 2 (run from train/, where ./train_sft.py and ./ds_config live; the DeepSpeed launcher with an --include host filter, HfArgumentParser over a dataclass and TrainingArguments, a ZeRO-3 JSON with CPU offload of parameters and optimizer and 'auto' values; supervised fine-tuning of a 7B Chinese-English LLM)")
AA=("MooreThreads/Moore-AnimateAnyone","a914ef38aae3733c2f02f29853dd0593372e0cc9")
aac="configs/train/stage1.yaml"
aat="train_stage_1.py"
J("moore-animateanyone-stage1-accelerate-omegaconf-yaml",*AA,["."],".",["--","accelerate","launch",aat,"--config",aac],{
 "batch.micro":T(4,aac+":2 data.train_bs 4 -> "+aat+":399-400 DataLoader(batch_size=cfg.data.train_bs)"),
 "batch.grad_accum":T(1,aac+":11 solver.gradient_accumulation_steps 1 -> "+aat+":212-213 Accelerator"),
 "data.image_size":T(768,aac+":3-4 train_width and train_height 768 -> "+aat+":393-394 HumanDanceDataset(img_size=(768, 768))"),
 "precision.mode":T("amp_fp16",aac+":12 solver.mixed_precision 'fp16' -> "+aat+":212-214 Accelerator(mixed_precision=...): autocast over the two trained UNets loaded in fp32 (:266-278); the frozen VAE and image encoder are cast to fp16 (:47 weight_dtype, :262-263, :280-282)"),
 "optimizer.name":T("AdamW",aac+":24 use_8bit_adam False -> "+aat+":372 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,aac+":14 solver.gradient_checkpointing False -> "+aat+":347-349 not enabled"),
 "data.num_workers":T(4,aat+":400 num_workers=4"),
 "data.pin_memory":T(False,aat+":399-401 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",aat+":303-315 the denoising UNet, the reference UNet (except up_blocks.3) and the pose guider trained in full; VAE and CLIP image encoder frozen"),
},held_out=True,note=H32+"; README.md:219-223 accelerate launch train_stage_1.py --config configs/train/stage1.yaml (Accelerate with no config file or --num_processes, an argparse --config whose YAML is loaded with OmegaConf (:720-721) and read as cfg.solver.* / cfg.data.*, two UNets, a pose guider initialised from a ControlNet checkpoint, reference attention hooks, xformers; stage 1 of pose-guided human image animation, diffusion). Not labelled: world size, sharding and global batch (the user's default accelerate config), model.ref and model.num_parameters (a reference UNet2D, a denoising UNet3D and a pose guider trained together from a local sd-image-variations-diffusers copy, stage1.yaml:42: no single model), model.attn_implementation (xformers, stage1.yaml:13, not a value of the plan's enum)")
UB=("rll-research/url_benchmark","bb98f0c6d78b3c467fb5a9fa5bbba3b7c0250397")
J("url-benchmark-icm-walker-pretrain-hydra-replay-loader-1gpu",*UB,["."],".",["pretrain.py","--","agent=icm","domain=walker"],{
 "dist.world_size":T(1,"README.md:51 python pretrain.py agent=icm domain=walker: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(1024,"agent=icm -> agent/icm.yaml:21 batch_size 1024 -> pretrain.yaml:25 batch_size ${agent.batch_size} -> pretrain.py:84-88 make_replay_loader -> replay_buffer.py:190-191 DataLoader(batch_size=1024)"),
 "batch.grad_accum":T(1,"agent/ddpg.py and agent/icm.py: one step of each optimizer per update"),
 "batch.global":T(1024,"1024 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","agent/icm.py:55 and agent/ddpg.py:186-187 torch.optim.Adam (ICM module, actor, critic)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"pretrain.yaml:24 replay_buffer_num_workers 4 -> pretrain.py:87 -> replay_buffer.py:192"),
 "data.pin_memory":T(True,"replay_buffer.py:193 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H32+"; README.md:51 python pretrain.py agent=icm domain=walker (Hydra 1.1, @hydra.main(config_path='.', config_name='pretrain') with the primary YAML beside the script, an agent config group selected by override whose batch_size is interpolated into the primary config, a _target_ agent built by hydra.utils.instantiate with ??? fields filled at run time, a submitit launcher override in the defaults list, replay episodes read by an IterableDataset through a DataLoader; unsupervised RL pre-training on DeepMind Control walker from states). Not labelled: model.num_parameters (actor, critic, target critic and ICM networks; observation and action sizes come from the environment)")
NW=("mindslab-ai/nuwave","88aba8683dfa7503ffbe7f0501123248e8f88c2a")
nwh="hparameter.yaml"
J("nuwave-audio-super-resolution-lightning-1-1-ddp-2gpu",*NW,["."],".",["trainer.py"],{
 "model.num_parameters":T(3049985,nwh+":23-33 (30 residual layers, 64 channels, 512-wide noise embedding from 128 channels) -> model.py:75-93: input and low projections 256 + diffusion embedding 328,704 + 30 blocks x 90,560 + skip 4,160 + output 65 = 3,049,985",rel_tol=0.1),
 "dist.world_size":T(2,nwh+":6 train.gpus 2 -> trainer.py:104-107 Trainer(gpus=2, accelerator='ddp')"),
 "dist.nodes":T(1,"no num_nodes (Lightning default 1)"),
 "dist.devices_per_node":T(2,nwh+":6 gpus 2"),
 "dist.sharding":T("ddp","trainer.py:107 accelerator='ddp' when gpus > 1"),
 "batch.micro":T(18,nwh+":2 train.batch_size 18 -> lightning_model.py:275-276 -> dataloader.py:36-37 DataLoader per process"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches (Lightning default 1)"),
 "batch.global":T(36,"18 x 1 x 2"),
 "precision.mode":T("fp32","trainer.py:104-121 no precision argument (pytorch_lightning 1.1.6, requirements.txt: default 32); amp_backend='apex' and amp_level='O2' (:109-110) take effect only with precision=16"),
 "optimizer.name":T("Adam","lightning_model.py:266-273 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(64,nwh+":5 train.num_workers 64 -> dataloader.py:39"),
 "data.pin_memory":T(True,"dataloader.py:41 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H32+"; README.md:60-63 python trainer.py (no arguments: OmegaConf.load('hparameter.yaml') by a fixed name inside train(), hparams.train.* passed to a Lightning 1.1 Trainer(gpus=..., accelerator='ddp' if gpus > 1, amp_backend='apex', amp_level='O2') without precision, a LightningModule wrapping the network class imported under another name, a DataLoader subclass with a prefetch generator; diffusion-based audio super-resolution on VCTK, speech). Not labelled: data.seq_len (32,768 audio samples a segment, hparameter.yaml:21)")
GM=("THUDM/GraphMAE","b14f080c919257b495e3cb6474286d5252d6a635")
gms="scripts/run_graph.sh"
J("graphmae-reddit-binary-graph-classification-use-cfg-yaml-1gpu",*GM,["."],".",[gms,"--","REDDIT-BINARY","0"],{
 "dist.world_size":T(1,gms+":7 python main_graph.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel (main_graph.py:111 one device)"),
 "batch.micro":T(8,gms+":28 --use_cfg -> main_graph.py:201-202 load_best_configs(args, 'configs.yml') -> configs.yml:237,250 REDDIT-BINARY batch_size 8 (graphmae/utils.py:198-201 setattr over the argparse default 32, utils.py:98) -> main_graph.py:136,144 GraphDataLoader(batch_size=8) (graphs a batch)"),
 "batch.grad_accum":T(1,"main_graph.py:86-88 zero_grad, backward, step every batch"),
 "batch.global":T(8,"8 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",gms+":23 --optimizer adam -> main_graph.py:168 create_optimizer -> graphmae/utils.py:137-138 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"main_graph.py:144 GraphDataLoader without num_workers"),
 "data.pin_memory":T(True,"main_graph.py:144 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H32+"; README.md:67-68 sh scripts/run_graph.sh <dataset_name> <gpu_id> (filled with REDDIT-BINARY 0; positional parameters with [ -z ] defaults, python main_graph.py with every hyperparameter on the line and --use_cfg, which replaces them after parsing with the dataset's section of configs.yml (REDDIT-BINARY: batch_size 8, max_epoch 100, mask_rate 0.75, scheduler True), DGL GraphDataLoader over a SubsetRandomSampler; masked graph autoencoder pre-training for graph classification, GNN). Not labelled: model.num_parameters (GIN encoder and decoder whose input width is the node-degree feature size of the data set, deg4feat)")
SR=("Janspiry/Image-Super-Resolution-via-Iterative-Refinement","01d27a7cbfa8502be1d8dbd4ee02fcbd5e44389d")
src="config/sr_sr3_16_128.json"
J("sr3-ffhq-16-to-128-json-with-comments-1gpu",*SR,["."],".",["sr.py","--","-p","train","-c",src],{
 "dist.world_size":T(1,"README.md:164 python sr.py -p train -c ...: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",src+":4-6 gpu_ids [0] -> core/logger.py:48-59 distributed False (one id) -> model/networks.py:113-115 no DataParallel"),
 "batch.micro":T(4,src+":23 datasets.train.batch_size 4 -> data/__init__.py:10-12 DataLoader"),
 "batch.grad_accum":T(1,"model/model.py:48 optimize_parameters: one step per batch"),
 "batch.global":T(4,"4 x 1 x 1"),
 "data.image_size":T(128,src+":22 r_resolution 128 (and :73 diffusion image_size 128): 16 -> 128 super-resolution"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",src+":83-86 optimizer type adam -> model/model.py:39-40 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(8,src+":24 num_workers 8 -> data/__init__.py:14"),
 "data.pin_memory":T(True,"data/__init__.py:15 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H32+"; README.md:161-165 python sr.py -p train -c config/sr_sr3.json (that file does not exist at the pinned commit: the repository's SR3 16->128 config, config/sr_sr3_16_128.json, which is also sr.py:15's default, is named instead; a JSON file with // comments stripped line by line by core/logger.py:26-30 before json.loads, options read as opt['datasets']['train'][...], CUDA_VISIBLE_DEVICES exported from gpu_ids; SR3 image super-resolution by iterative refinement on FFHQ, diffusion). Not labelled: model.num_parameters (a UNet built from nested JSON options through several factory layers; not counted by hand here)")
MS=("bowang-lab/MedSAM","d71e8a1a99ad751840a22a7fa3ecfb4166fb1488")
mss="train_multi_gpus.sh"
msp="train_multi_gpus.py"
J("medsam-vit-b-sbatch-5-nodes-srun-loop-mp-spawn-20gpu",*MS,["."],".",[mss],{
 "model.num_parameters":T(93735472,msp+":148 -model_type default vit_b -> :283 sam_model_registry['vit_b'] -> :284-288 MedSAM(image encoder, mask decoder, prompt encoder); :331 the script's own count 93,735,472",rel_tol=0.1),
 "dist.world_size":T(20,mss+":2,7 --nodes=5 x --gres=gpu:4 -> :26,43,45 WORLD_SIZE=$(($GPUS_PER_NODE*$NNODES)) -> :73 --world_size; "+msp+":261-263 mp.spawn one process per visible GPU"),
 "dist.nodes":T(5,mss+":2 #SBATCH --nodes=5 (:65-67 one srun per node)"),
 "dist.devices_per_node":T(4,mss+":7 --gres=gpu:4 -> "+msp+":261 torch.cuda.device_count()"),
 "dist.sharding":T("ddp",msp+":303-310 DistributedDataParallel"),
 "batch.micro":T(8,mss+":71 -batch_size 8 -> "+msp+":363-370 DataLoader per process"),
 "batch.grad_accum":T(1,mss+":75 --grad_acc_steps 1 -> "+msp+":434-437 step every batch"),
 "batch.global":T(160,"8 x 1 x 20"),
 "data.image_size":T(1024,msp+":71-75 npy images of 1024 x 1024 (SAM's input size, segment_anything/build_sam.py:70 image_size 1024)"),
 "precision.mode":T("fp32",msp+":172 -use_amp store_true, not given -> :415-419 no autocast"),
 "optimizer.name":T("AdamW",msp+":343-345 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,mss+":72 -num_workers 8 -> "+msp+":367"),
 "data.pin_memory":T(True,msp+":368 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",msp+":227-229,340-345 image encoder and mask decoder fine-tuned in full; the prompt encoder frozen"),
},held_out=True,note=H32+"; README.md:93-95 sbatch train_multi_gpus.sh (#SBATCH --nodes=5 --ntasks=5 --gres=gpu:4, WORLD_SIZE from $SLURM_GPUS_ON_NODE and $SLURM_NNODES in shell arithmetic, a for loop that starts one `srun -lN1 ... bash -c \"python train_multi_gpus.py ... --world_size ${WORLD_SIZE} --node_rank ${i} --init_method tcp://...\"` per node in the background, and inside each an mp.spawn over the node's GPUs; single-dash argparse flags; fine-tuning Segment Anything ViT-B for medical image segmentation, vision). Not labelled: model.ref (SAM ViT-B loaded from a local checkpoint by a registry key, no hub id)")
SC=("HobbitLong/SupContrast","66a8fe53880d6a1084b2e4e0db0a019024d6d41a")
scm="main_supcon.py"
J("supcontrast-supcon-resnet50-cifar10-dataparallel-1proc",*SC,["."],".",[scm,"--","--batch_size","1024","--learning_rate","0.5","--temp","0.1","--cosine"],{
 "model.ref":T("resnet50",scm+":54 --model default resnet50 -> :180 SupConResNet(name='resnet50') -> networks/resnet_big.py:143-146 model_dict"),
 "model.num_parameters":T(27958976,"networks/resnet_big.py:75-86 a CIFAR ResNet-50 (3x3 stem, no max-pool, no fc): 23,500,352 + :173-178 MLP head Linear(2048, 2048) + Linear(2048, 128): 4,458,624 = 27,958,976",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:73 python main_supcon.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(1024,"README.md:73 --batch_size 1024 -> "+scm+":172-174 DataLoader (the one process's batch; each sample is two crops, :159 TwoCropTransform)"),
 "batch.grad_accum":T(1,scm+" train(): one optimizer step per batch"),
 "batch.global":T(1024,"1024 x 1 x 1 (one process)"),
 "data.image_size":T(32,scm+":60 --size default 32 -> :147 RandomResizedCrop(size=32) (dataset default cifar10, :55)"),
 "precision.mode":T("fp32","no autocast or half() (apex is imported for syncBN only, :22)"),
 "optimizer.name":T("SGD","util.py:78-83 set_optimizer: optim.SGD(momentum=0.9)",any_of=["SGD","sgd"]),
 "data.num_workers":T(16,scm+":36 --num_workers default 16 -> :174"),
 "data.pin_memory":T(True,scm+":174 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H32+"; README.md:72-77 python main_supcon.py --batch_size 1024 --learning_rate 0.5 --temp 0.1 --cosine (argparse with derived options set after parsing (warm-up switched on for batches over 256, :106-108), nn.DataParallel over the encoder only when several GPUs are visible (:188-189), a custom ResNet from a name-to-builder dict, two augmented crops per sample; supervised contrastive learning on CIFAR-10, vision). Not labelled: dist.sharding (nn.DataParallel over however many GPUs are visible, not given)")
VR=("facebookresearch/vicreg","4e12602fd495af83efd1631fbe82523e6db092e0")
vrm="main_vicreg.py"
J("vicreg-resnet50-imagenet-distributed-launch-lars-8gpu",*VR,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8",vrm,"--data-dir","/path/to/imagenet/","--exp-dir","/path/to/experiment/","--arch","resnet50","--epochs","100","--batch-size","512","--base-lr","0.3"],{
 "model.ref":T("resnet50","README.md:72 --arch resnet50 -> "+vrm+":189-191 resnet.__dict__[args.arch]"),
 "model.num_parameters":T(174552128,"resnet.py:304-305 ResNet-50 backbone without fc (23,508,032) + "+vrm+":44,223-232 projector 2048-8192-8192-8192 (Linear+BN, Linear+BN, Linear without bias: 151,044,096) = 174,552,128",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:72 torch.distributed.launch --nproc_per_node=8 (one node)"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp",vrm+":108 DistributedDataParallel"),
 "batch.micro":T(64,"README.md:72 --batch-size 512 is the global batch: "+vrm+":96-100 per_device_batch_size = 512 // world_size 8 = 64 -> DataLoader"),
 "batch.grad_accum":T(1,vrm+": one optimizer step per batch"),
 "batch.global":T(512,"64 x 1 x 8"),
 "data.image_size":T(224,"augmentations.py:41-43 RandomResizedCrop(224)"),
 "precision.mode":T("amp_fp16",vrm+":128 GradScaler and :138 autocast over fp32 weights"),
 "optimizer.name":T("LARS",vrm+":109-115 LARS (the script's own class, :245)",any_of=["LARS","lars"]),
 "data.num_workers":T(10,vrm+":66 --num-workers default 10 -> :101"),
 "data.pin_memory":T(True,vrm+":102 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H32+"; README.md:72 python -m torch.distributed.launch --nproc_per_node=8 main_vicreg.py --data-dir /path/to/imagenet/ --exp-dir /path/to/experiment/ --arch resnet50 --epochs 100 --batch-size 512 --base-lr 0.3 (dashed argparse flags, --batch-size the global batch divided by the world size in code, SyncBatchNorm, a LARS optimizer class written in the script, a projector MLP six times the backbone's size; VICReg self-supervised pre-training on ImageNet, vision)")
RB=("Kaixhin/Rainbow","1745b184c3dfc03d4ffa3ce2342ced9996b39a60")
J("rainbow-data-efficient-atari-argparse-replay-memory-1gpu",*RB,["."],".",["main.py","--","--target-update","2000","--T-max","100000","--learn-start","1600","--memory-capacity","100000","--replay-frequency","1","--multi-step","20","--architecture","data-efficient","--hidden-size","256","--learning-rate","0.0001","--evaluation-interval","10000"],{
 "dist.world_size":T(1,"README.md:26 python main.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(32,"main.py:46 --batch-size default 32 -> agent.py:20,63 mem.sample(32)"),
 "batch.grad_accum":T(1,"agent.py:63-98 one optimizer step per learn() call"),
 "batch.global":T(32,"32 x 1 x 1"),
 "data.image_size":T(84,"env.py:28 cv2.resize(..., (84, 84))"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","agent.py:46 optim.Adam(eps=args.adam_eps)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H32+"; README.md:26-36 python main.py --target-update 2000 --T-max 100000 --learn-start 1600 --memory-capacity 100000 --replay-frequency 1 --multi-step 20 --architecture data-efficient --hidden-size 256 --learning-rate 0.0001 --evaluation-interval 10000 (data-efficient Rainbow; argparse with metavar names, a prioritised replay memory sampled by the agent, noisy linear layers, an online and a target network; distributional DQN on Atari, RL). Not labelled: model.num_parameters (the head's width is the game's action count, known only from the environment), data loader workers and pin memory (no DataLoader)")
