"""The thirty-ninth held-out set of the jobs benchmark (run.py --set held-out-39): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set
(bench/realworld/jobs/manifest.json); each owner/name and bare name was grepped in bench/, docs/,
tests/, calibration/, preflight/ and adapters/ before it was taken, and where a name appears there
(other corpora: the configs benchmark, the bug corpora, calibration) the set's docs section says so.
Parameter counts are labelled only where the repository or its model card states them or they
follow from a published checkpoint's size."""
from .core import J, T

H39="thirty-ninth held-out set"
LT=("cure-lab/LTSF-Linear","0c113668a3b88c4c4ee586b8c5ec3e539c4de5a6")
lte="exp/exp_main.py"
J("ltsf-dlinear-etth1-336-argparse-1gpu",*LT,["."],".",["run_longExp.py","--","--is_training","1","--root_path","./dataset/","--data_path","ETTh1.csv","--model_id","ETTh1_336_96","--model","DLinear","--data","ETTh1","--features","M","--seq_len","336","--pred_len","96","--enc_in","7","--des","Exp","--itr","1","--batch_size","32","--learning_rate","0.005"],{
 "dist.world_size":T(1,"run_longExp.py:78 --use_multi_gpu default False -> "+lte+":37-38 no DataParallel, one process on --gpu 0"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process, one GPU"),
 "dist.sharding":T("none",lte+":37-38 DataParallel only under --use_multi_gpu"),
 "batch.micro":T(32,"--batch_size 32 -> data_provider/data_factory.py:30-32,47-52 DataLoader(batch_size=32) for the train flag"),
 "batch.grad_accum":T(1,lte+":128-185 zero_grad, backward and model_optim.step every batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","run_longExp.py:73 --use_amp default False: "+lte+":140-185 no autocast, no GradScaler; :35 model .float()"),
 "optimizer.name":T("Adam",lte+":46 optim.Adam(lr=0.005)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"run_longExp.py:64 --num_workers default 10 -> data_provider/data_factory.py:51"),
 "data.pin_memory":T(False,"data_provider/data_factory.py:47-52 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H39+"; scripts/EXP-LongForecasting/Linear/etth1.sh:12-24 the first of its four python -u run_longExp.py calls (README.md:105 sh scripts/EXP-LongForecasting/Linear/...sh), taken with seq_len=336 and model_name=DLinear filled in and the log redirect dropped (argparse with required flags, a dict of model classes, an Exp class wrapping train/vali/test, an --itr loop of repeated runs; DLinear long-horizon forecasting on ETTh1, time series). Not labelled: model.num_parameters (not stated; a few linear layers), data.seq_len (336 time steps of 7 variables, not tokens)")
SS=("facebookresearch/simsiam","a7bc1772896d0dad0806c51f0bb6f3b16d290468")
ssm="main_simsiam.py"
J("simsiam-resnet50-imagenet-mp-spawn-ddp-8gpu",*SS,["."],".",[ssm,"--","-a","resnet50","--dist-url","tcp://localhost:10001","--multiprocessing-distributed","--world-size","1","--rank","0","--fix-pred-lr","/data/imagenet"],{
 "dist.world_size":T(8,"README.md:27 'in an 8-gpu machine' -> "+ssm+":115-122 ngpus_per_node = device_count() 8, world_size = 8 x --world-size 1, mp.spawn(nprocs=8)"),
 "dist.nodes":T(1,"--world-size 1: one node"),
 "dist.devices_per_node":T(8,"README.md:27 an 8-gpu machine, one process per GPU ("+ssm+":122)"),
 "dist.sharding":T("ddp",ssm+":173 torch.nn.parallel.DistributedDataParallel(model, device_ids=[gpu])"),
 "batch.micro":T(64,ssm+":51 --batch-size default 512 is the total: :171 batch_size = int(512 / 8) = 64 -> :250-252 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(1,ssm+":300-302 zero_grad, backward and optimizer.step every batch"),
 "batch.global":T(512,"64 x 1 x 8 ("+ssm+":51 'total batch size of all GPUs')"),
 "data.image_size":T(224,ssm+":230 RandomResizedCrop(224, scale=(0.2, 1.))"),
 "precision.mode":T("fp32","no autocast or half() in "+ssm),
 "optimizer.name":T("SGD",ssm+":199 torch.optim.SGD(momentum 0.9, weight_decay 1e-4)",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,ssm+":45 --workers default 32 -> :172 int((32 + 8 - 1) / 8) = 4 per process -> :252"),
 "data.pin_memory":T(True,ssm+":252 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch ("+ssm+":152-154 SimSiam(models.__dict__['resnet50'], ...) without pretrained weights)"),
},held_out=True,note=H39+"; README.md:27-34 'To do unsupervised pre-training of a ResNet-50 model on ImageNet in an 8-gpu machine, run: python main_simsiam.py -a resnet50 --dist-url tcp://localhost:10001 --multiprocessing-distributed --world-size 1 --rank 0 --fix-pred-lr [your imagenet-folder with train and val folders]', the folder filled in (the pytorch/examples ImageNet pattern: argparse, mp.spawn over torch.cuda.device_count(), the total batch and workers divided per process inside main_worker, two augmented views per image; SimSiam self-supervised learning on ImageNet, vision). Not labelled: model.ref / model.num_parameters (a torchvision ResNet-50 from scratch with SimSiam's projector and predictor, not stated)")
EQ=("atomicarchitects/equiformer","64cb7866f48b9aa156e74a9d6a2ef2663b367437")
eqs="scripts/train/qm9/equiformer/target@7_dist.sh"
J("equiformer-qm9-target7-torch-distributed-launch-ddp-2gpu",*EQ,["."],".",[eqs],{
 "dist.world_size":T(2,eqs+":10 python -m torch.distributed.launch --nproc_per_node=2 --use_env -> utils.py:47-50 WORLD_SIZE 2"),
 "dist.nodes":T(1,"torch.distributed.launch with no --nnodes: one node"),
 "dist.devices_per_node":T(2,"--nproc_per_node=2"),
 "dist.sharding":T("ddp","main_qm9.py:178-179 DistributedDataParallel(model, device_ids=[local_rank])"),
 "batch.micro":T(32,eqs+":17 --batch-size 32 -> main_qm9.py:208-210 torch_geometric DataLoader(batch_size=32) per process with a DistributedSampler"),
 "batch.grad_accum":T(1,"engine.py:62-77 backward (or the NativeScaler) and step every batch"),
 "batch.global":T(64,"32 x 1 x 2 (the script's output dir names bs@64)"),
 "precision.mode":T("fp32",eqs+":26 --no-amp -> main_qm9.py:117-119 amp False: :197-198 amp_autocast = suppress, no loss scaler"),
 "optimizer.name":T("AdamW","main_qm9.py:58 --opt default 'adamw' -> :185 create_optimizer -> optim_factory.py:126-127 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"main_qm9.py:110 --workers default 4 -> :209"),
 "data.pin_memory":T(True,"main_qm9.py:111-115 pin_mem default True -> :209 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H39+"; README.md:68-73 'sh scripts/train/qm9/equiformer/target@1.sh' and its two-GPU sibling scripts/train/qm9/equiformer/target@7_dist.sh:1-26 (source /etc/profile, module load anaconda, source activate, then python -m torch.distributed.launch --nproc_per_node=2 --use_env main_qm9.py --model-name graph_attention_transformer_nonlinear_bessel_l2_drop00 ... --batch-size 32 ... --no-model-ema --no-amp --no-standardize; timm-style argparse with store_false/set_defaults pairs, a timm optimizer factory, PyTorch Geometric loaders; Equiformer SE(3)-equivariant graph attention for QM9 property regression, science). Not labelled: model.num_parameters (not stated; logged at main_qm9.py:181)")
CH=("amazon-science/chronos-forecasting","95185d1336e5bfdf50374d44c06ad9e10b303144")
cht="training/train.py"
chy="training/configs/chronos-t5-small.yaml"
J("chronos-t5-small-pretrain-typer-yaml-hf-trainer-torchrun-8gpu",*CH,["."],"scripts",["--","torchrun","--nproc-per-node=8",cht,"--config",chy],{
 "model.ref":T("google/t5-efficient-small",chy+":19 model_id google/t5-efficient-small with :21 random_init true -> "+cht+":177-184 AutoConfig.from_pretrained + AutoModelForSeq2SeqLM.from_config (the architecture, not the weights)",any_of=["google/t5-efficient-small","amazon/chronos-t5-small"]),
 "model.num_parameters":T(46000000,"Chronos-T5 (Small) 46M (README.md:48 model table; the t5-efficient-small architecture with a 4,096-token vocabulary, "+cht+":189 resize_token_embeddings)",rel_tol=0.1),
 "dist.world_size":T(8,"scripts/README.md:90 torchrun --nproc-per-node=8"),
 "dist.nodes":T(1,"torchrun with no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc-per-node=8"),
 "dist.sharding":T("ddp",cht+":661-680 TrainingArguments without fsdp/deepspeed under torchrun: DDP (ddp_find_unused_parameters=False)"),
 "batch.micro":T(32,chy+":13 per_device_train_batch_size 32 -> "+cht+":663"),
 "batch.grad_accum":T(1,chy+":18 gradient_accumulation_steps 1 -> "+cht+":674 (the function default 2 at :519 is overridden by the YAML)"),
 "batch.global":T(256,"32 x 1 x 8"),
 "precision.mode":T("fp32",chy+":24 tf32 true and no bf16/fp16 -> "+cht+":661-680 TrainingArguments(tf32=True) only: fp32 weights and math with TF32 matmuls",any_of=["fp32","tf32"]),
 "optimizer.name":T("adamw_torch_fused",chy+":15 optim adamw_torch_fused -> "+cht+":667",any_of=["adamw_torch_fused","AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing in "+cht+":661-680"),
 "data.num_workers":T(1,chy+":33 dataloader_num_workers 1 -> "+cht+":675"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(True,chy+":25 torch_compile true -> "+cht+":677 TrainingArguments(torch_compile=True)"),
 "peft.method":T("none","pre-training from a random initialisation ("+chy+":21 random_init true)"),
},held_out=True,note=H39+"; scripts/README.md:86-91 'On multiple GPUs (example with 8 GPUs)': torchrun --nproc-per-node=8 training/train.py --config /path/to/modified/config.yaml, run from scripts/ with the shipped training/configs/chronos-t5-small.yaml (a typer command whose every parameter is filled from a YAML by typer_config's @use_yaml_config, a GluonTS iterable dataset of mixed arrow files tokenised by mean scaling and uniform binning, the HF Trainer; Chronos pre-training of a T5 on tokenised time series, time series). Not labelled: data.seq_len (context_length 512 time steps of the encoder, 64 + EOS of the decoder)")
VX=("jxmorris12/vec2text","e5022f169fa971a16d6d5f4788b024c53997debe")
vxa="vec2text/run_args.py"
J("vec2text-gtr-inversion-t5-base-msmarco-hf-trainer-bf16-1gpu",*VX,["."],".",["vec2text/run.py","--","--per_device_train_batch_size","128","--per_device_eval_batch_size","128","--max_seq_length","128","--model_name_or_path","t5-base","--dataset_name","msmarco","--embedder_model_name","gtr_base","--num_repeat_tokens","16","--embedder_no_grad","True","--num_train_epochs","100","--max_eval_samples","500","--eval_steps","20000","--warmup_steps","10000","--bf16=1","--use_wandb=1","--use_frozen_embeddings_as_input","True","--experiment","inversion","--lr_scheduler_type","constant_with_warmup","--exp_group_name","oct-gtr","--learning_rate","0.001","--output_dir","./saves/gtr-1","--save_steps","2000"],{
 "model.ref":T("t5-base","--model_name_or_path t5-base -> vec2text/models/inversion.py:57-60 load_encoder_decoder -> vec2text/models/model_utils.py:270 AutoModelForSeq2SeqLM.from_pretrained('t5-base'), the trained inverter (the GTR-base embedder is frozen, --embedder_no_grad True)",any_of=["t5-base","google-t5/t5-base"]),
 "dist.world_size":T(1,"README.md:233 python run.py: one process (README.md:242 torchrun only 'if using DDP')"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process"),
 "dist.sharding":T("none","one process, no DDP/FSDP/DeepSpeed"),
 "batch.micro":T(128,"--per_device_train_batch_size 128"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps: TrainingArguments default 1"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.seq_len":T(128,"--max_seq_length 128 -> vec2text/tokenize_data.py:21-27 tokenizer(truncation=True, max_length=128)"),
 "precision.mode":T("amp_bf16","--bf16=1 -> "+vxa+":272 bf16 field of the TrainingArguments subclass: Trainer bf16 autocast over fp32 weights (model_utils.py:260-272 from_pretrained without torch_dtype)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("adamw_torch","no --optim: the TrainingArguments default AdamW ("+vxa+":260-263 'learning rate for AdamW'; adam_epsilon 1e-6 set in __post_init__ :390)",any_of=["adamw_torch","adamw_hf","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.pin_memory":T(True,vxa+":372 __post_init__ sets dataloader_pin_memory = True"),
 "compile.enabled":T(False,vxa+":276 torch_compile commented out; TrainingArguments default False"),
 "peft.method":T("none",vxa+":149-151 use_lora default False: full training of the T5-base inverter"),
},held_out=True,note=H39+"; README.md:230-234 'Here's how you might train the zero-step model for GTR: python run.py --per_device_train_batch_size 128 ... --bf16=1 --use_wandb=1 --use_frozen_embeddings_as_input True --experiment inversion ... --output_dir ./saves/gtr-1 --save_steps 2000', taken as python vec2text/run.py from the repository root as README.md:301 does (HfArgumentParser over three dataclasses, a TrainingArguments subclass whose __post_init__ overrides pin memory, workers and step counts, an experiment class chosen by name that builds a Trainer subclass; vec2text text-embedding inversion on MS MARCO, NLP). Not labelled: data.num_workers ("+vxa+":376-377 torch.cuda.device_count(), the machine's GPU count), model.num_parameters (T5-base with a projection from the embedding; not stated), data.padding (max_length padding in the tokeniser, then the Trainer's group_by_length)")
RE=("resemble-ai/resemble-enhance","8e978149bfe8abab3eb77d965d579a111afdb0ff")
rhp="resemble_enhance/hparams.py"
J("resemble-enhance-denoiser-deepspeed-engine-yaml-hparams-1gpu",*RE,["."],".",["--","python","-m","resemble_enhance.denoiser.train","--yaml","config/denoiser.yaml","runs/denoiser"],{
 "dist.world_size":T(1,"README.md:74 python -m ... with no launcher: resemble_enhance/utils/distributed.py:18-28 fix_unset_envs sets WORLD_SIZE=1 before deepspeed.init_distributed"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process on --device cuda"),
 "dist.sharding":T("none",rhp+":65-83 the DeepSpeed config has no zero_optimization (stage 0), one process",any_of=["none","ddp"]),
 "batch.micro":T(32,"config/denoiser.yaml:1 batch_size_per_gpu 32 (over resemble_enhance/denoiser/hparams.py:8 default 128, merged at "+rhp+":105-112) -> resemble_enhance/data/__init__.py:32-38 DataLoader(batch_size=32) and "+rhp+":67 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,rhp+":65-83 no gradient_accumulation_steps: DeepSpeed default 1"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32",rhp+":65-83 the DeepSpeed config has no fp16/bf16 block"),
 "optimizer.name":T("Adam",rhp+":68-71 DeepSpeed optimizer.type Adam (FusedAdam, adam_w_mode by default)",any_of=["Adam","adam","AdamW","adamw","FusedAdam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in resemble_enhance/denoiser"),
 "data.num_workers":T(64,rhp+":55 nj 64 -> resemble_enhance/data/__init__.py:36 num_workers=64"),
 "data.pin_memory":T(False,"resemble_enhance/data/__init__.py:32-38 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H39+"; README.md:70-75 'it is recommended for a warmup training first': python -m resemble_enhance.denoiser.train --yaml config/denoiser.yaml runs/denoiser (argparse with a positional run directory, a frozen dataclass of hyperparameters merged with a two-line YAML through OmegaConf, a DeepSpeed config built in a property and handed to a DeepSpeedEngine subclass constructed directly rather than through deepspeed.initialize, the environment variables of a single process filled in by hand; Resemble Enhance speech denoiser at 44.1 kHz, audio). Not labelled: model.num_parameters (not stated), data.seq_len (config/denoiser.yaml:2 training_seconds 3.0 of audio)")
TG=("declare-lab/tango","34ecd38898508017ca937508a047b42817d2b070")
J("tango-audiocaps-ldm-flan-t5-accelerate-launch-accum4",*TG,["."],".",["--","accelerate","launch","train.py","--train_file=data/train_audiocaps.json","--validation_file=data/valid_audiocaps.json","--test_file=data/test_audiocaps_subset.json","--text_encoder_name=google/flan-t5-large","--scheduler_name=stabilityai/stable-diffusion-2-1","--unet_model_config=configs/diffusion_model_config.json","--freeze_text_encoder","--gradient_accumulation_steps","4","--per_device_train_batch_size=2","--per_device_eval_batch_size=2","--augment","--learning_rate=3e-5","--num_train_epochs","40","--snr_gamma","5","--text_column","captions","--audio_column","location","--checkpointing_steps=best"],{
 "dist.nodes":T(1,"accelerate launch with no --num_machines and no config file: one machine"),
 "batch.micro":T(2,"train.sh:6 --per_device_train_batch_size=2 -> train.py:328 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(4,"train.sh:6 --gradient_accumulation_steps 4 -> train.py:243 Accelerator(gradient_accumulation_steps=4)"),
 "precision.mode":T("fp32","train.py:243 Accelerator() without mixed_precision and accelerate launch with no config file or --mixed_precision: 'no'; no autocast"),
 "optimizer.name":T("AdamW","train.py:350-355 torch.optim.AdamW over the UNet parameters",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in train.py or models.py"),
 "data.num_workers":T(0,"train.py:328 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:328 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","train.py:332-339 --freeze_text_encoder: the UNet, built from configs/diffusion_model_config.json, trained fully from scratch"),
},held_out=True,note=H39+"; train.sh:1-8, the first of its two accelerate launch train.py commands ('Train the LDM from scracth with a flan-t5-large text encoder'; README.md:128-135 the same with defaults), written out (argparse, a hand-written accelerate loop over a latent diffusion model whose VAE comes from an AudioLDM checkpoint, a frozen FLAN-T5-large text encoder and a UNet built from a diffusers JSON config, mixup augmentation needing a batch of at least 2; TANGO text-to-audio diffusion on AudioCaps, audio). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (accelerate launch with no config file uses the machine's GPU count), model.ref / model.num_parameters (the trained UNet is built from a JSON config, not a checkpoint; the frozen encoder is google/flan-t5-large)")
PS=("yuvalkirstain/PickScore","f79607ff68609c1e6dfa78cba38afeea4c248df1")
psa="trainer/accelerators/deepspeed_accelerator.py"
J("pickscore-clip-h-pick-a-pic-hydra-accelerate-deepspeed-zero2-8gpu",*PS,["."],".",["--","accelerate","launch","--dynamo_backend","no","--gpu_ids","all","--num_processes","8","--num_machines","1","--use_deepspeed","trainer/scripts/train.py","+experiment=clip_h","output_dir=output"],{
 "model.ref":T("laion/CLIP-ViT-H-14-laion2B-s32B-b79K","trainer/conf/experiment/clip_h.yaml:11-12 model.pretrained_model_name_or_path -> trainer/models/clip_model.py:18 transformers CLIPModel.from_pretrained",any_of=["laion/CLIP-ViT-H-14-laion2B-s32B-b79K"]),
 "model.num_parameters":T(986000000,"CLIP ViT-H/14: 986M (OpenCLIP's model table, 632M image + 354M text tower)",rel_tol=0.05),
 "dist.world_size":T(8,"README.md:130 accelerate launch --num_processes 8"),
 "dist.nodes":T(1,"--num_machines 1"),
 "dist.devices_per_node":T(8,"--num_processes 8 on one machine (--gpu_ids all; README.md:126 8 A100 GPUs)"),
 "dist.sharding":T("zero2",psa+":40-41 DeepSpeedConfig.zero_optimization stage 2 (trainer/configs/configs.py:78 default accelerator: deepspeed) -> :69-72 DeepSpeedPlugin(hf_ds_config=...)",any_of=["zero2","zero_2","deepspeed_zero2"]),
 "batch.micro":T(16,"trainer/conf/experiment/clip.yaml:5-6 dataset.batch_size 16 (clip_h.yaml:3-4 includes /experiment/clip) -> trainer/scripts/train.py:24-30 DataLoader(batch_size=16); train_micro_batch_size_per_gpu 'auto' filled from it"),
 "precision.mode":T("bf16","trainer/conf/experiment/clip.yaml:9 accelerator.mixed_precision BF16 -> "+psa+":84-87 DeepSpeed bf16.enabled True, and :99-100 the prepared model's forward wrapped in torch.autocast(bfloat16)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",psa+":22-30 DeepSpeed optimizer.type AdamW (torch_adam, adam_w_mode); trainer/configs/configs.py:83 optimizer dummy -> trainer/optimizers/dummy_optimizer.py:12 accelerate DummyOptim",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing anywhere under trainer/"),
 "data.num_workers":T(2,"trainer/datasetss/base_dataset.py:13 num_workers 2 -> trainer/scripts/train.py:29"),
 "data.pin_memory":T(False,"trainer/scripts/train.py:24-30 DataLoader without pin_memory"),
 "compile.enabled":T(False,"--dynamo_backend no and trainer/accelerators/base_accelerator.py:70 dynamo_backend NO"),
 "peft.method":T("none","full fine-tuning of both CLIP towers"),
},held_out=True,note=H39+"; README.md:128-131 'Locally': accelerate launch --dynamo_backend no --gpu_ids all --num_processes 8 --num_machines 1 --use_deepspeed trainer/scripts/train.py +experiment=clip_h output_dir=output (the README line ends in ``` glued to output_dir; a Hydra entry point whose schema is a tree of dataclasses registered in the ConfigStore with a defaults list in Python, classes located by _target_ strings, an experiment overlay with '# @package _global_' that includes another, a DeepSpeed config built as a dataclass and handed to accelerate's DeepSpeedPlugin, bf16 set in both DeepSpeed and an autocast wrapper; PickScore CLIP-H preference-model fine-tuning on Pick-a-Pic, vision-language). Not labelled: batch.grad_accum / batch.global ("+psa+":49 the DeepSpeed dict says gradient_accumulation_steps 16 while :71,76 pass the accelerator config's 1 (base_accelerator.py:54) to the plugin and Accelerator: which wins depends on accelerate's version), data.image_size (from the CLIP-H processor, 224)")
UT=("SalesforceAIResearch/uni2ts","8d2a08df4512ab3551e53dfbb7c147e95f06731b")
utd="cli/conf/pretrain/default.yaml"
J("uni2ts-moirai-small-lotsa-pretrain-hydra-lightning",*UT,["."],".",["--","python","-m","cli.train","-cp","conf/pretrain","run_name=first_run","model=moirai_small","data=lotsa_v1_unweighted"],{
 "model.num_parameters":T(14000000,"Moirai small: 14M (the Moirai paper's and the Salesforce/moirai-1.0-R-small model card's size; cli/conf/pretrain/model/moirai_small.yaml:11-14 d_model 384, 6 layers)",rel_tol=0.1),
 "dist.nodes":T(1,utd+":19 trainer.num_nodes 1"),
 "batch.micro":T(128,utd+":58 train_dataloader.batch_size 128 -> src/uni2ts/data/loader.py:452,466-470 batches of 128 packed sequences per step (the torch DataLoader under it reads 128 x batch_size_factor 2.0 = 256 raw series at :441, packed by PackCollate into 128)"),
 "batch.grad_accum":T(1,utd+":53 trainer.accumulate_grad_batches 1"),
 "precision.mode":T("fp32",utd+":20 trainer.precision 32 (:11 tf32 true -> cli/train.py:124-127 TF32 matmuls)",any_of=["fp32","tf32"]),
 "optimizer.name":T("AdamW","src/uni2ts/model/moirai/pretrain.py:337-342 configure_optimizers torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/uni2ts/module or model/moirai"),
 "data.num_workers":T(11,utd+":63 train_dataloader.num_workers 11 -> src/uni2ts/data/loader.py:444"),
 "data.pin_memory":T(True,utd+":69 pin_memory true -> src/uni2ts/data/loader.py:446"),
 "compile.enabled":T(False,utd+":12 compile false -> cli/train.py:135-136 skipped"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H39+"; README.md:272-279 python -m cli.train -cp conf/pretrain run_name=first_run model=moirai_small data=lotsa_v1_unweighted (a Hydra entry point in a module run with -m and a config path relative to cli/, config groups with ??? defaults chosen on the line, custom OmegaConf resolvers (as_tuple, mul, floordiv, cls_getattr), a Lightning Trainer built by instantiate from YAML, a DataLoader wrapper that packs variable-length series into fixed 512-patch sequences; Moirai universal time-series forecasting pre-training on LOTSA, time series). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (trainer devices auto and strategy auto: every visible GPU), model.ref (built from the YAML, no checkpoint), data.seq_len (512 patches, not tokens)")
IR=("THUDM/ImageReward","c1392c6dd0fd6ecd6d416c96959ab744a6d0a8fb")
irr="ImageReward/ReFL.py"
J("imagereward-refl-sd14-reward-feedback-accelerate-fp16-8gpu",*IR,["."],".",["scripts/train_refl.sh"],{
 "model.ref":T("CompVis/stable-diffusion-v1-4","refl.py:5 ReFL.Trainer('CompVis/stable-diffusion-v1-4', ...) -> "+irr+":413-415 UNet2DConditionModel.from_pretrained(subfolder='unet'), the trained UNet",any_of=["CompVis/stable-diffusion-v1-4"]),
 "model.num_parameters":T(859520964,"the Stable Diffusion v1 UNet: 859,520,964 (about 860M, the SD v1 model card); the VAE, CLIP text encoder and ImageReward model are frozen ("+irr+":419-421)",rel_tol=0.05),
 "dist.world_size":T(8,"scripts/train_refl.sh:1 accelerate launch --multi_gpu --num_processes=8"),
 "dist.nodes":T(1,"no --num_machines: one machine"),
 "dist.devices_per_node":T(8,"--num_processes=8 on one machine"),
 "dist.sharding":T("ddp","--multi_gpu without DeepSpeed/FSDP: DDP ("+irr+" accelerator.prepare)"),
 "batch.micro":T(2,"scripts/train_refl.sh:4 --train_batch_size=2 -> "+irr+":598-604 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(4,"scripts/train_refl.sh:5 --gradient_accumulation_steps=4 -> "+irr+":368-369 Accelerator"),
 "batch.global":T(64,"2 x 4 x 8 ("+irr+":659 total_batch_size)"),
 "data.image_size":T(512,"scripts/train_refl.sh:3 --resolution=512 (latents 4 x 64 x 64 at "+irr+":712)"),
 "precision.mode":T("amp_fp16","scripts/train_refl.sh:1 --mixed_precision=fp16 -> "+irr+":370 Accelerator autocast over the fp32 UNet; :630-639 the frozen VAE, text encoder and reward model cast to fp16",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",irr+":491-501 no --use_8bit_adam: torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"scripts/train_refl.sh:6 --gradient_checkpointing -> "+irr+":477-478 unet.enable_gradient_checkpointing()"),
 "data.num_workers":T(0,irr+":234-236 --dataloader_num_workers default 0 -> :603"),
 "data.pin_memory":T(False,irr+":598-604 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the SD v1.4 UNet (with --use_ema an EMA copy)"),
},held_out=True,note=H39+"; README.md:144-150 'Run ReFL as following: bash scripts/train_refl.sh' -> accelerate launch --multi_gpu --mixed_precision=fp16 --num_processes=8 refl.py --use_ema --resolution=512 --center_crop --random_flip --train_batch_size=2 --gradient_accumulation_steps=4 --gradient_checkpointing --max_train_steps=100 ... (the launched file is four lines that call a Trainer class in the installed package ImageReward/ReFL.py with the model name hard-coded; a diffusers-style accelerate loop that samples from the UNet, decodes with the VAE and back-propagates the ImageReward score; ReFL reward-feedback fine-tuning of Stable Diffusion v1.4, vision)")
AL=("haoheliu/AudioLDM-training-finetuning","702a638d023b008a2d9a45cdf1e1f4fcdc590dfc")
alt="audioldm_train/train/latent_diffusion.py"
aly="audioldm_train/config/2023_08_23_reproduce_audioldm/audioldm_original.yaml"
J("audioldm-s-audiocaps-ldm-lightning-ddp-yaml-config",*AL,["."],".",[alt,"--","-c",aly],{
 "dist.nodes":T(1,alt+":155-164 Trainer without num_nodes"),
 "dist.sharding":T("ddp",alt+":163 strategy=DDPStrategy(find_unused_parameters=True)"),
 "batch.micro":T(2,aly+":93 model.params.batchsize 2 -> "+alt+":53,62-67 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(1,alt+":155-164 Trainer without accumulate_grad_batches"),
 "precision.mode":T("fp32",alt+":155-164 Trainer without precision: 32-bit ("+aly+":4 precision 'high' -> :47-50 torch.set_float32_matmul_precision, TF32 matmuls)",any_of=["fp32","tf32"]),
 "optimizer.name":T("AdamW","audioldm_train/modules/latent_diffusion/ddpm.py:1046-1058 LatentDiffusion.configure_optimizers torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,aly+":107-130 unet_config without use_checkpoint: audioldm_train/modules/diffusionmodules/openaimodel.py:493 default False"),
 "data.num_workers":T(16,alt+":65 num_workers=16"),
 "data.pin_memory":T(True,alt+":66 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training the latent diffusion UNet from scratch (the VAE and CLAP from data/checkpoints)"),
},held_out=True,note=H39+"; README.md:43-46 'Train the AudioLDM model': python3 audioldm_train/train/latent_diffusion.py -c audioldm_train/config/2023_08_23_reproduce_audioldm/audioldm_original.yaml (argparse over a YAML with anchors and aliases, LDM-style target/params instantiation, a PyTorch Lightning Trainer with devices=torch.cuda.device_count() and an explicit DDPStrategy, the batch size read from model.params.batchsize; AudioLDM text-to-audio latent diffusion on AudioCaps, audio). Not labelled: dist.world_size / devices_per_node / batch.global ("+alt+":138 devices = torch.cuda.device_count(): every visible GPU), model.ref / model.num_parameters (built from the YAML; not stated), data.seq_len (10.24 s of 16 kHz audio, "+aly+":35)")
DC=("Doubiiu/DynamiCrafter","c453369367122d7fbb0aa38f124e76dc8fe2a91c")
dcy="configs/training_512_v1.0/config.yaml"
J("dynamicrafter-512-webvid-i2v-lightning-ddp-sharded-fp16-accum2",*DC,["."],".",["configs/training_512_v1.0/run.sh"],{
 "dist.nodes":T(1,"configs/training_512_v1.0/run.sh:19,26 torch.distributed.launch --nnodes=1 and lightning.trainer.num_nodes=1"),
 "dist.sharding":T("zero2","no lightning.strategy in "+dcy+" (:132 deepspeed_stage_2 commented out) -> main/utils_train.py:125-136 default pytorch_lightning.strategies.DDPShardedStrategy (fairscale sharded DDP + OSS: optimizer state and gradients sharded), instantiated at main/trainer.py:118-119 (README.md:358 'We adopt DDPShardedStrategy by default')",any_of=["zero2","fsdp_grad_op"]),
 "batch.micro":T(2,dcy+":115 data.params.batch_size 2 -> main/utils_data.py:87 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(2,dcy+":135 lightning.trainer.accumulate_grad_batches 2"),
 "precision.mode":T("amp_fp16",dcy+":131 lightning.precision 16 -> main/trainer.py:120 Trainer(precision=16): native AMP fp16",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","lvdm/models/ddpm3d.py:1202-1226 LatentVisualDiffusion.configure_optimizers torch.optim.AdamW(lr=1e-5, "+dcy+":3-4 base_learning_rate, scale_lr False)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,dcy+":53 unet_config.params.use_checkpoint True"),
 "data.num_workers":T(12,dcy+":116 data.params.num_workers 12 -> main/utils_data.py:88"),
 "data.pin_memory":T(False,"main/utils_data.py:87-90 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","lvdm/models/ddpm3d.py:1207 'Training Full Paramters': the whole video UNet and the image projection fine-tuned from checkpoints/dynamicrafter_512_v1/model.ckpt ("+dcy+":2)"),
},held_out=True,note=H39+"; README.md:350-361 'Change <YOUR_SAVE_ROOT_DIR> path in training_[1024|512]_v1.0/run.sh ... sh configs/training_1024_v1.0/run.sh', here the 512 variant: configs/training_512_v1.0/run.sh:18-26 CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 python3 -m torch.distributed.launch --nproc_per_node=$HOST_GPU_NUM --nnodes=1 ... ./main/trainer.py --base $config_file --train --name $name --logdir $save_root --devices $HOST_GPU_NUM lightning.trainer.num_nodes=1 (HOST_GPU_NUM is never set in the script, a platform variable; a LatentDiffusion-style OmegaConf config with model/data/lightning sections, dotted overrides on the line, Trainer.add_argparse_args / from_argparse_args of Lightning 1.x, a default strategy merged in a helper; DynamiCrafter image-to-video diffusion fine-tuning on WebVid, vision/video). Not labelled: dist.world_size / devices_per_node / batch.global ($HOST_GPU_NUM is undefined in run.sh; CUDA_VISIBLE_DEVICES shows 8 GPUs), model.ref / model.num_parameters (a local checkpoint; not stated), data.image_size (16 frames of 320 x 512, "+dcy+":123-126)")
