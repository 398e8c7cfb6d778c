"""The fourteenth held-out set of the jobs benchmark (run.py --set held-out-14): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H14="fourteenth held-out set"
RW=("BlinkDL/RWKV-LM","524481d5099b38d9bc8ef1e89209161b86c8011b")
rws="demo-training-run.sh"
rwm="src/model.py"
J("rwkv7-l12-d768-lightning-deepspeed2",*RW,["RWKV-v7/train_temp"],"RWKV-v7/train_temp",[rws],{
 "model.num_parameters":T(191000000,rws+":16-17 n_layer 12 n_embd 768, :60 vocab 65536 -> "+rwm+":786-791 embedding + head 2x50.3M, per layer (:496-575 time-mix 4 C^2 + LoRA matrices, :706-720 channel-mix 8 C^2) ~7.55M x 12 (counted by hand; RWKV-7 0.1B is 191M)",rel_tol=0.1),
 "batch.micro":T(16,rws+":38 M_BSZ=16 -> :59 --micro_bsz -> train.py:261 DataLoader(batch_size=args.micro_bsz)"),
 "batch.grad_accum":T(1,"Lightning Trainer accumulate_grad_batches default 1, not given (train.py:60 Trainer.add_argparse_args)"),
 "data.seq_len":T(512,rws+":19 CTX_LEN=512 -> :57 --ctx_len"),
 "dist.nodes":T(1,rws+":51 N_NODE=1 -> :59 --num_nodes"),
 "dist.devices_per_node":T(1,rws+":52 GPU_PER_NODE=1 -> :62 --devices"),
 "dist.world_size":T(1,rws+":51-52 one node x one GPU"),
 "dist.sharding":T("zero2",rws+":62 --strategy deepspeed_stage_2 (Lightning DeepSpeedStrategy, ZeRO stage 2)"),
 "precision.mode":T("bf16",rws+":62 --precision bf16 -> train.py:197 'bf16' under the DeepSpeed strategy: DeepSpeed bf16 (16-bit weights, fp32 master copies)"),
 "memory.gradient_checkpointing":T(True,rws+":41 GRAD_CP=1 -> :62 --grad_cp -> "+rwm+":850-851 deepspeed.checkpointing.checkpoint per block"),
 "optimizer.name":T("FusedAdam",rwm+":823-827 weight_decay 0.001 > 0 ("+rws+":61) and no offload -> DeepSpeed FusedAdam(adam_w_mode=True)",any_of=["FusedAdam","fused_adam","adamw","AdamW"]),
 "data.num_workers":T(1,"train.py:261 num_workers=1"),
 "data.pin_memory":T(True,"train.py:261 pin_memory=True"),
 "dist.allgather_bucket_size":T(200000000,"train.py:50 --ds_bucket_mb default 200 (commented out at "+rws+":62) -> train.py:257 allgather_bucket_size = 200e6"),
 "dist.reduce_bucket_size":T(200000000,"train.py:258 reduce_bucket_size = ds_bucket_mb * 1e6"),
 "compile.enabled":T(False,"no torch.compile ("+rwm+":31-33 TorchScript only)"),
 "peft.method":T("none","full pretraining from rwkv-init.pth"),
},held_out=True,note=H14+"; RWKV-v7/train_temp/README.md:34 cd RWKV-v7/train_temp; sh ./demo-training-run.sh (shell variables into python train.py, PyTorch Lightning 1.9 Trainer.from_argparse_args with strategy deepspeed_stage_2 and precision bf16; ds bucket sizes patched into trainer.strategy.config after the Trainer is built)")
DL=("facebookresearch/dlrm","090956ee2319ddd349a42232958aefccfe3f7b0a")
dls="bench/run_and_time.sh"
J("dlrm-mlperf-terabyte-gpu",*DL,["."],".",[dls,"--","--use-gpu"],{
 "batch.global":T(2048,dls+":17 --mini-batch-size=2048 (one process; dlrm_s_pytorch.py:1394-1395 logs it as the MLPerf global batch size)"),
 "batch.grad_accum":T(1,"dlrm_s_pytorch.py:1017 --mlperf-grad-accum-iter default 1, not given"),
 "precision.mode":T("fp32","no autocast or half in dlrm_s_pytorch.py; --quantize-mlp/emb-with-bit default 32 (:985-986)"),
 "optimizer.name":T("sgd","dlrm_s_pytorch.py:972 --optimizer default sgd -> :1343 torch.optim.SGD",any_of=["sgd","SGD"]),
 "data.num_workers":T(0,dls+":17 --mlperf-bin-loader -> dlrm_data_pytorch.py:441-449 DataLoader(num_workers=0)"),
 "data.pin_memory":T(False,"dlrm_data_pytorch.py:448 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; README.md:337 ./bench/run_and_time.sh [--use-gpu] from the repository root ($1 forwarded to python dlrm_s_pytorch.py as $dlrm_extra_option; recommendation model, MLPerf terabyte settings). Not labelled: world size and per-GPU batch (one process that spreads embeddings and MLP replicas over every visible GPU, dlrm_s_pytorch.py:1085-1087,1278), model size (embedding rows from the dataset's feature counts capped at --max-ind-range 40M)")
XF=("XLabs-AI/x-flux","47495425dbed499be1e8e5a6e52628b07349cba2")
xfy="train_configs/test_lora.yaml"
xft="train_flux_lora_deepspeed.py"
J("xflux-dev-lora-accelerate",*XF,["."],".",["--","accelerate","launch",xft,"--config",xfy],{
 "model.ref":T("black-forest-labs/FLUX.1-dev",xfy+":1 model_name flux-dev -> "+xft+":54 load_flow_model2 -> src/flux/util.py:167-170 repo_id",any_of=["black-forest-labs/FLUX.1-dev","flux-dev"]),
 "batch.micro":T(1,xfy+":3 data_config.train_batch_size -> "+xft+":161 loader(**data_config) -> image_datasets/dataset.py:92"),
 "batch.grad_accum":T(2,xfy+":26 -> "+xft+":81 Accelerator(gradient_accumulation_steps=...)"),
 "precision.mode":T("amp_bf16",xfy+":21 mixed_precision bf16 -> "+xft+":82 Accelerator autocast over a DiT cast to fp32 at :144 (no accelerate config file given)"),
 "peft.method":T("lora",xft+":109-139 DoubleStream/SingleStreamBlockLoraProcessor on blocks 1-4 ("+xfy+":28); :147-150 everything else frozen"),
 "peft.rank":T(16,xfy+":27 rank 16 -> "+xft+":129,134"),
 "task.mode":T("lora","bf16-autocast base, LoRA processors only trained; no quantisation"),
 "optimizer.name":T("AdamW",xft+":146 torch.optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "data.num_workers":T(4,xfy+":4 -> image_datasets/dataset.py:92"),
 "data.image_size":T(512,xfy+":5 img_size 512 -> image_datasets/dataset.py:72 image_resize"),
 "memory.gradient_checkpointing":T(False,"src/flux/model.py:78 gradient_checkpointing = False, never enabled by the script"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H14+"; README.md:57 accelerate launch train_flux_lora_deepspeed.py --config train_configs/test_lora.yaml (OmegaConf YAML read by the script, Accelerate without a config file). Not labelled: world size and DeepSpeed stage (the user's default accelerate config; the script name says DeepSpeed but no DeepSpeed config is in the repository), seq len (text tokens 512 for T5, image tokens from the crop)")
S2=("facebookresearch/sam2","2b90b9f5ceec907a1c18123530e92e794ad901a4")
s2y="sam2/configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml"
J("sam2.1-b+-mose-finetune-hydra-8gpu",*S2,["training","sam2","README.md","setup.py","pyproject.toml"],".",
 ["training/train.py","--","-c","configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml","--use-cluster","0","--num-gpus","8"],{
 "model.num_parameters":T(80800000,"README.md:169 sam2.1_hiera_base_plus 80.8M ("+s2y+":64-146 the Hiera b+ model)",rel_tol=0.1),
 "dist.world_size":T(8,"training/README.md:40-43 --num-gpus 8 -> training/train.py:154-155 gpus_per_node -> :46,60 one spawned process per GPU"),
 "dist.nodes":T(1,s2y+":325 num_nodes 1 (no --num-nodes; train.py:45 asserts one node without a cluster)"),
 "dist.devices_per_node":T(8,"--num-gpus 8"),
 "dist.sharding":T("ddp","training/trainer.py:295 nn.parallel.DistributedDataParallel"),
 "batch.micro":T(1,s2y+":5 train_batch_size 1 -> :206-207 batch_sizes"),
 "batch.grad_accum":T(1,"training/trainer.py has no gradient accumulation"),
 "precision.mode":T("amp_bf16",s2y+":237-239 amp enabled, amp_dtype bfloat16 -> training/trainer.py:861 torch.cuda.amp.autocast"),
 "optimizer.name":T("AdamW",s2y+":242 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,s2y+":6 num_train_workers -> :228"),
 "data.pin_memory":T(True,s2y+":229"),
 "data.image_size":T(1024,s2y+":4 resolution 1024 -> :146 image_size"),
 "compile.enabled":T(False,s2y+":177 compile_image_encoder commented out -> sam2/modeling/sam2_base.py:95 default False"),
 "peft.method":T("none","full fine-tune from the SAM 2.1 checkpoint ("+s2y+":321)"),
},held_out=True,note=H14+"; training/README.md:40-43 python training/train.py -c configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml --use-cluster 0 --num-gpus 8 from the repository root (Hydra compose from the sam2 package's config module, initialize_config_module('sam2') at train.py:245; mp spawn launcher; submitit when --use-cluster 1; video segmentation)")
ED=("NVlabs/edm","008a4e5316c8e3bfe61a62f874bddba254295afb")
edl="training/training_loop.py"
J("edm-cifar10-ddpmpp-torchrun-8gpu",*ED,["."],".",["--","torchrun","--standalone","--nproc_per_node=8","train.py","--outdir=training-runs",
 "--data=datasets/cifar10-32x32.zip","--cond=1","--arch=ddpmpp"],{
 "dist.world_size":T(8,"README.md:192 --nproc_per_node=8"),
 "dist.sharding":T("ddp",edl+":89 DistributedDataParallel"),
 "batch.global":T(512,"train.py:52 --batch default 512, not given (README.md:196)"),
 "batch.micro":T(64,edl+":60-62 batch_gpu = 512 // 8 (README.md:196 '64 images per GPU')"),
 "batch.grad_accum":T(1,edl+":63 num_accumulation_rounds = 64 // 64 (--batch-gpu not given)"),
 "precision.mode":T("fp32","train.py:63 --fp16 default False -> :147 use_fp16=False"),
 "optimizer.name":T("Adam","train.py:101 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(1,"train.py:67 --workers default 1 -> :98"),
 "data.pin_memory":T(True,"train.py:98 pin_memory=True"),
 "model.num_parameters":T(56000000,"train.py:116-118 DDPM++ SongUNet model_channels 128, channel_mult [2,2,2] (EDM paper: 55.7M for CIFAR-10 DDPM++)",rel_tol=0.1),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; README.md:192-193 torchrun --standalone --nproc_per_node=8 train.py ... (click options, raw DDP, per-GPU batch derived from the total batch and the world size)")
J("edm-ffhq64-ddpmpp-batch256-torchrun-8gpu",*ED,["."],".",["--","torchrun","--standalone","--nproc_per_node=8","train.py","--outdir=training-runs",
 "--data=datasets/ffhq-64x64.zip","--cond=0","--arch=ddpmpp","--batch=256","--cres=1,2,2,2","--lr=2e-4","--dropout=0.05","--augment=0.15"],{
 "dist.world_size":T(8,"README.md:208 8xV100 with README.md:192's torchrun --nproc_per_node=8"),
 "dist.sharding":T("ddp",edl+":89"),
 "batch.global":T(256,"README.md:208 --batch=256"),
 "batch.micro":T(32,edl+":60-62 256 // 8"),
 "batch.grad_accum":T(1,edl+":63"),
 "precision.mode":T("fp32","--fp16 not given (train.py:63)"),
 "optimizer.name":T("Adam","train.py:101",any_of=["Adam","adam"]),
 "data.num_workers":T(1,"train.py:67"),
},held_out=True,note=H14+"; README.md:208 table row ffhq-64x64-uncond-vp options on README.md:192's torchrun command (8 GPUs)")
TC=("NVIDIA/tacotron2","185cd24e046cc1304b4f8e564734d2498c6e2e6f")
tcn=("model.num_parameters",T(28200000,"hparams.py:47-75 encoder 3 conv 512 + BiLSTM, decoder LSTMCells 1024 (attention rnn 7.3M, decoder rnn 10.5M), postnet 5 conv 512 (counted by hand: ~28.2M)",rel_tol=0.1))
J("tacotron2-ljspeech-multiproc-fp16",*TC,["."],".",["--","python","-m","multiproc","train.py","--output_directory=outdir","--log_directory=logdir",
 "--hparams=distributed_run=True,fp16_run=True"],{
 tcn[0]:tcn[1],
 "batch.micro":T(64,"hparams.py:84 batch_size 64 -> train.py:55-57 DataLoader per process"),
 "batch.grad_accum":T(1,"train.py: no gradient accumulation"),
 "precision.mode":T("fp16","--hparams fp16_run=True -> train.py:173-176 apex amp.initialize(opt_level='O2'): fp16 model weights, fp32 master copies"),
 "optimizer.name":T("Adam","train.py:170 torch.optim.Adam",any_of=["Adam","adam"]),
 "dist.sharding":T("ddp","--hparams distributed_run=True -> train.py:179 apply_gradient_allreduce (distributed.py: all-reduce of gradients, full replicas)"),
 "dist.nodes":T(1,"multiproc.py:13-18 local subprocesses only"),
 "data.num_workers":T(1,"train.py:55"),
 "data.pin_memory":T(False,"train.py:57"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H14+"; README.md:44 python -m multiproc train.py --output_directory=outdir --log_directory=logdir --hparams=distributed_run=True,fp16_run=True (a Python launcher that spawns one train.py per torch.cuda.device_count(); tf.contrib HParams string; speech). Not labelled: world size (every visible GPU, multiproc.py:7)")
J("tacotron2-ljspeech-1gpu",*TC,["."],".",["train.py","--","--output_directory=outdir","--log_directory=logdir"],{
 tcn[0]:tcn[1],
 "batch.micro":T(64,"hparams.py:84 -> train.py:57"),
 "precision.mode":T("fp32","hparams.py:16 fp16_run False"),
 "optimizer.name":T("Adam","train.py:170",any_of=["Adam","adam"]),
 "dist.world_size":T(1,"python: one process; hparams.py:17 distributed_run False"),
 "data.num_workers":T(1,"train.py:55"),
},held_out=True,note=H14+"; README.md:33 python train.py --output_directory=outdir --log_directory=logdir")
CO=("corl-team/CORL","eeeeef2671235fcce3a3eb255576a207d78840e6")
coy="configs/offline/dt/halfcheetah/medium_v2.yaml"
cot="algorithms/offline/dt.py"
J("corl-dt-halfcheetah-pyrallis",*CO,["algorithms","configs/offline/dt","requirements","README.md"],".",[cot,"--","--config_path="+coy],{
 "model.num_parameters":T(730000,cot+":280-318 DecisionTransformer(embedding_dim 128, num_layers 3 ("+coy+":10,22), episode_len 1000 + seq_len 20 timestep embeddings 130,560; three blocks of nn.MultiheadAttention + 4x MLP ~198k each; halfcheetah state 17 / action 6) counted by hand ~0.73M",rel_tol=0.1),
 "batch.micro":T(4096,coy+":2 batch_size -> "+cot+":440-445 DataLoader(batch_size=config.batch_size)"),
 "batch.grad_accum":T(1,cot+": one optimizer step per batch"),
 "data.seq_len":T(60,coy+":27 seq_len 20 transitions -> "+cot+":306-316 blocks see 3 * seq_len = 60 tokens (return, state, action)",any_of=[60,20]),
 "precision.mode":T("fp32","no autocast or half in "+cot),
 "optimizer.name":T("AdamW",cot+":470 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,coy+":23 -> "+cot+":444"),
 "data.pin_memory":T(True,cot+":443"),
 "dist.world_size":T(1,"python: one process, "+coy+":9 device cuda"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; python algorithms/offline/dt.py --config_path=configs/offline/dt/halfcheetah/medium_v2.yaml (docs/algorithms/dt.md:78-88 usage; pyrallis dataclass config from YAML; offline RL, Decision Transformer)")
MP=("open-mmlab/mmpretrain","ee7f2e88501f61aa95c742dd5f429f039935ee90")
mps="tools/slurm_train.sh"
mpc="configs/resnet/resnet50_8xb32_in1k.py"
J("mmpretrain-resnet50-in1k-slurm-amp",*MP,["tools","configs/_base_","configs/resnet","mmpretrain","requirements","requirements.txt","setup.py","README.md"],".",
 [mps,"--","dev","r50",mpc,"work_dirs/r50","--amp"],{
 "model.num_parameters":T(25557032,mpc+":2 ../_base_/models/resnet50.py ResNet depth 50 + LinearClsHead 1000 classes (configs/resnet/metafile.yml:142 Parameters 25560000)",rel_tol=0.1),
 "dist.world_size":T(8,mps+":9 GPUS default 8 -> :19 srun --ntasks 8 (launcher slurm)"),
 "dist.nodes":T(1,mps+":9-10 GPUS 8 / GPUS_PER_NODE 8"),
 "dist.devices_per_node":T(8,mps+":10,20 --ntasks-per-node 8"),
 "dist.sharding":T("ddp","mmengine Runner: MMDistributedDataParallel under --launcher slurm (no model_wrapper_cfg)"),
 "batch.micro":T(32,"configs/_base_/datasets/imagenet_bs32.py:27 train_dataloader batch_size 32 (per GPU)"),
 "batch.global":T(256,"32 x 8 GPUs (config name 8xb32; configs/_base_/schedules/imagenet_bs256.py:16)"),
 "batch.grad_accum":T(1,"configs/_base_/schedules/imagenet_bs256.py:2-3 optim_wrapper without accumulative_counts"),
 "precision.mode":T("amp_fp16","--amp ($5 -> "+mps+":13 PY_ARGS) -> tools/train.py:93-94 AmpOptimWrapper (fp16 autocast, loss scaling)"),
 "optimizer.name":T("SGD","configs/_base_/schedules/imagenet_bs256.py:3",any_of=["SGD","sgd"]),
 "data.num_workers":T(5,"configs/_base_/datasets/imagenet_bs32.py:28"),
 "data.image_size":T(224,"configs/_base_/datasets/imagenet_bs32.py:14 RandomResizedCrop scale 224"),
 "compile.enabled":T(False,"configs/_base_/default_runtime.py: no compile setting"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; docs/en/user_guides/train.md:101 ./tools/slurm_train.sh ${PARTITION} ${JOB_NAME} ${CONFIG_FILE} ${WORK_DIR} [PY_ARGS] with defaults GPUS=8 (srun python -u tools/train.py --launcher slurm; MMEngine Python config with _base_ inheritance; vision)")
