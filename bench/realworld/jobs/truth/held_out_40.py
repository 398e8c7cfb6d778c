"""The fortieth held-out set of the jobs benchmark (run.py --set held-out-40): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set
(bench/realworld/jobs/manifest.json, /work/wt/all_repos.txt); each owner/name and bare name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ before it was taken, and
where a name appears there (other corpora) the set's docs section says so.
Parameter counts are labelled only where the repository states them or they follow by arithmetic
from the shapes the code builds."""
from .core import J, T

H40="fortieth held-out set"
DG=("PetarV-/DGI","61baf67d7052905c77bdeb28c22926f04e182362")
J("dgi-cora-full-graph-module-level-script-1gpu",*DG,["."],".",["execute.py"],{
 "model.num_parameters":T(996354,"execute.py:44 DGI(ft_size 1433 Cora features, hid_units 512, 'prelu') -> models/dgi.py:8,13, layers/gcn.py:7-11 Linear(1433, 512, bias=False) 733,696 + bias 512 + PReLU 1, layers/discriminator.py:7 Bilinear(512, 512, 1) 262,145: 996,354",rel_tol=0.1),
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"execute.py:47-49 model.cuda() on the default device"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "precision.mode":T("fp32","execute.py:36 torch.FloatTensor features, no autocast or half()"),
 "optimizer.name":T("Adam","execute.py:45 torch.optim.Adam(lr=0.001, weight_decay=0.0)",any_of=["Adam","adam"]),
 "batch.grad_accum":T(1,"execute.py:66-100 zero_grad, backward and step once per epoch"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised training from scratch"),
},held_out=True,note=H40+"; README.md:14 'execute.py puts all of the above together and may be used to execute a full training run on Cora': python execute.py (no argparse at all: hyperparameters as module-level constants, the whole Cora graph as one sparse adjacency, one forward of the real and the row-shuffled features per epoch, early stopping on the loss, then 50 logistic-regression probes; Deep Graph Infomax, graph). Not labelled: batch.micro / batch.global (full-graph training: execute.py:12 batch_size = 1 is the single graph, not a sample count), data.num_workers / data.pin_memory (no DataLoader)")
CF=("Thinklab-SJTU/Crossformer","c10c8eadb153d1dd9798250967747ca3ebb81383")
cfe="cross_exp/exp_crossformer.py"
J("crossformer-etth1-168-24-argparse-exp-class-1gpu",*CF,["."],".",["main_crossformer.py","--","--data","ETTh1","--in_len","168","--out_len","24","--seg_len","6","--itr","1"],{
 "dist.world_size":T(1,"main_crossformer.py:43 --use_multi_gpu default False -> "+cfe+":45-46 no DataParallel; one process on cuda:0 (cross_exp/exp_basic.py:16-18)"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one process, one GPU"),
 "dist.sharding":T("none",cfe+":45-46 DataParallel only under --use_multi_gpu"),
 "batch.micro":T(32,"main_crossformer.py:32 --batch_size default 32 -> "+cfe+":55,65-70 DataLoader(batch_size=32) for the train flag"),
 "batch.grad_accum":T(1,cfe+":122-140 zero_grad, backward and model_optim.step every batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half(); "+cfe+":43 model .float()"),
 "optimizer.name":T("Adam",cfe+":75 optim.Adam(lr=1e-4)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"main_crossformer.py:31 --num_workers default 0 -> "+cfe+":69"),
 "data.pin_memory":T(False,cfe+":65-70 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H40+"; readme.md:41-44 'To get results of Crossformer with T=168, tau=24, L_seg=6 on ETTh1 dataset, run: python main_crossformer.py --data ETTh1 --in_len 168 --out_len 24 --seg_len 6 --itr 1' (argparse with a required --data whose dict of dataset facts overrides data_path/data_dim/split, an Exp class with _build_model/_get_data/_select_optimizer, an --itr loop; Crossformer cross-dimension transformer forecasting on ETTh1, time series). Not labelled: model.num_parameters (not stated), data.seq_len (168 time steps of 7 variables, not tokens)")
DM=("dome272/Diffusion-Models-pytorch","be352208d0576039fec061238c0e4385a562a2d4")
dmc="ddpm_conditional.py"
J("ddpm-conditional-cifar10-64-args-set-in-code-1gpu",*DM,["."],".",[dmc],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,dmc+":122 args.device = 'cuda'"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(14,dmc+":118 args.batch_size = 14 -> utils.py:32 DataLoader(batch_size=14)"),
 "batch.grad_accum":T(1,dmc+":92-94 zero_grad, backward and step every batch"),
 "batch.global":T(14,"14 x 1 x 1"),
 "data.image_size":T(64,dmc+":119 args.image_size = 64 -> utils.py:27 RandomResizedCrop(64, scale=(0.8, 1.0))"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("AdamW",dmc+":71 optim.AdamW(lr=3e-4)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"utils.py:32 DataLoader without num_workers"),
 "data.pin_memory":T(False,"utils.py:32 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H40+"; README.md:22-25 'Conditional Training ... python ddpm_conditional.py' (an argparse parser with no arguments whose namespace is then filled by assignments in launch(), a hand-written UNet with class embeddings, classifier-free-guidance label dropout, an EMA copy stepped by hand; DDPM class-conditional image diffusion on CIFAR-10 at 64x64, diffusion). Not labelled: model.num_parameters (not stated)")
BR=("jaywonchung/BERT4Rec-VAE-Pytorch","f66f2534ebfd937778c7174b5f9f216efdebe5de")
brt="templates.py"
J("bert4rec-ml1m-template-args-input-prompt-1gpu",*BR,["."],".",["main.py","--","--template","train_bert"],{
 "dist.world_size":T(1,brt+":28-29 device 'cuda', num_gpu 1 -> trainers/base.py:21-23 no DataParallel"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,brt+":29 args.num_gpu = 1"),
 "dist.sharding":T("none","trainers/base.py:21-23 DataParallel only when num_gpu > 1"),
 "batch.micro":T(128,brt+":15-16 train_batch_size = 128 (over options.py:40 default 64; set_template runs after parse_args, options.py:119-120) -> dataloaders/bert.py:44-45 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"trainers/base.py:88-94 zero_grad, backward and step every batch"),
 "batch.global":T(128,"128 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("Adam",brt+":31 optimizer 'Adam' -> trainers/base.py:178 optim.Adam(lr=0.001, weight_decay=0)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"dataloaders/bert.py:44-45 DataLoader without num_workers"),
 "data.pin_memory":T(True,"dataloaders/bert.py:44-45 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H40+"; README.md:22-25 'python main.py --template train_bert' (answering the input() prompt of templates.py:8 with 1 for ML-1m; argparse in options.py parsed at import time, then a template function that overwrites the namespace wholesale, factories keyed by *_code strings for the dataloader, model and trainer, an input() prompt for the dataset and another after training; BERT4Rec sequential recommendation on MovieLens-1M, recommendation). Not labelled: model.num_parameters (depends on the item count of the downloaded dataset), data.seq_len (templates.py:46 bert_max_len 100 items, not tokens)")
CR=("vwxyzjn/cleanrl","fe8d8a03c41a7ef5b523e2e354bd01c363e786bb")
cpa="cleanrl/ppo_atari.py"
J("cleanrl-ppo-atari-breakout-tyro-dataclass-1gpu",*CR,["cleanrl","cleanrl_utils","README.md","pyproject.toml"],".",[cpa,"--","--env-id","BreakoutNoFrameskip-v4"],{
 "model.num_parameters":T(1686693,cpa+":117-132 Agent: conv 4-32 8x8 (8,224) + conv 32-64 4x4 (32,832) + conv 64-64 3x3 (36,928) + linear 3136-512 (1,606,144) + actor 512-4 for Breakout's 4 actions (2,052) + critic 512-1 (513): 1,686,693",rel_tol=0.1),
 "dist.world_size":T(1,"one training process (the 8 num_envs are a SyncVectorEnv in the same process, "+cpa+":179-181)"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,cpa+":176 torch.device('cuda')"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,cpa+":51,53,61 num_envs 8 x num_steps 128 = batch_size 1024 (:148) / num_minibatches 4 -> :149 minibatch_size 256 transitions per optimizer step"),
 "batch.grad_accum":T(1,cpa+":303-307 zero_grad, backward, clip and step every minibatch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.image_size":T(84,cpa+":103 ResizeObservation(env, (84, 84))"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam",cpa+":185 optim.Adam(lr=2.5e-4, eps=1e-5)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H40+"; README.md:106-108 'python cleanrl/ppo_atari.py --env-id BreakoutNoFrameskip-v4' (a single-file algorithm whose flags come from a dataclass through tyro.cli, with batch and minibatch sizes computed after parsing; rollouts from a SyncVectorEnv of 8 Atari games, then 4 epochs over 4 shuffled minibatches; PPO on Atari Breakout, reinforcement learning). Not labelled: data.num_workers / data.pin_memory (no DataLoader)")
RM=("RLHFlow/RLHF-Reward-Modeling","fc39179f5a9a4dd75047a4c0311672905b9d9a04")
rmg="bradley-terry-rm/gemma_2B_rm.py"
J("rlhflow-bradley-terry-rm-gemma-2b-hf-trainer-accelerate-zero3",*RM,["bradley-terry-rm","deepspeed_configs","README.md"],".",["--","accelerate","launch","./bradley-terry-rm/gemma_2B_rm.py","--model_name","google/gemma-2b-it","--max_length","4096","--train_set_path","hendrydong/preference_700K","--deepspeed","./deepspeed_configs/deepspeed_3.json"],{
 "model.ref":T("google/gemma-2b-it","--model_name google/gemma-2b-it -> "+rmg+":188-190 AutoModelForSequenceClassification.from_pretrained(num_labels=1)",any_of=["google/gemma-2b-it"]),
 "model.num_parameters":T(2506000000,"Gemma 2B: 2.51B parameters (the google/gemma-2b-it checkpoint, 256,000 x 2,048 embedding included); the LM head is replaced by a 2,048 x 1 score head",rel_tol=0.1),
 "dist.nodes":T(1,"accelerate launch with no --num_machines and no config file: one machine"),
 "dist.sharding":T("zero3","--deepspeed ./deepspeed_configs/deepspeed_3.json -> "+rmg+":166 TrainingArguments(deepspeed=...) and deepspeed_configs/deepspeed_3.json:2-3 zero_optimization stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "batch.micro":T(1,rmg+":45 per_device_train_batch_size default 1 -> :156 (one chosen/rejected pair: the collator at :208-235 puts 2 sequences in the forward)"),
 "batch.grad_accum":T(32,rmg+":47 gradient_accumulation_steps default 32 -> :164 (deepspeed_3.json:26 'auto' filled from it)"),
 "data.seq_len":T(4096,"--max_length 4096 -> "+rmg+":113 tokenizer.model_max_length = 4096, :129-130 tokenizer(truncation=True)"),
 "precision.mode":T("bf16",rmg+":56 bf16 default True -> :170 and deepspeed_3.json:14-16 bf16.enabled; :189 from_pretrained(torch_dtype=torch.bfloat16)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("paged_adamw_32bit",rmg+":82-84 optim default 'paged_adamw_32bit' -> :173; deepspeed_3.json has no optimizer block, so the Trainer builds this one",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(True,rmg+":78-80 gradient_checkpointing default True -> :165"),
 "model.attn_implementation":T("flash_attention_2",rmg+":189 from_pretrained(use_flash_attention_2=True)",any_of=["flash_attention_2","flash"]),
 "data.num_workers":T(0,"no dataloader_num_workers in "+rmg+":153-177: TrainingArguments default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile in "+rmg+":153-177"),
 "peft.method":T("none",rmg+":179-192 the LoRA config and get_peft_model are commented out: full fine-tuning"),
},held_out=True,note=H40+"; bradley-terry-rm/README.md:78-83 'If you encounter out-of-memory issue. Running the code with Gemma-2b-it with deepspeed stage 3': cd .. then accelerate launch ./bradley-terry-rm/gemma_2B_rm.py --model_name google/gemma-2b-it --max_length 4096 --train_set_path hendrydong/preference_700K --deepspeed ./deepspeed_configs/deepspeed_3.json (HfArgumentParser over one script dataclass whose fields are copied into TrainingArguments by hand, a pairwise collator that interleaves chosen and rejected sequences, a Trainer subclass with a Bradley-Terry compute_loss; reward modelling for RLHF on preference_700K, LLM alignment). Not labelled: dist.world_size / devices_per_node / batch.global (accelerate launch with no config file uses the machine's GPU count)")
WL=("Rudrabha/Wav2Lip","5c90fa9b4a2c2a37d0b4ebf7633ac41534eb9941")
wlt="hq_wav2lip_train.py"
J("wav2lip-hq-lrs2-gan-hparams-object-1gpu",*WL,["."],".",[wlt,"--","--data_root","lrs2_preprocessed/","--checkpoint_dir","checkpoints/wav2lip_hq","--syncnet_checkpoint_path","checkpoints/lipsync_expert.pth"],{
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,wlt+":412-416 generator and discriminator .to(torch.device('cuda'))"),
 "dist.sharding":T("none","no DDP/DataParallel in "+wlt),
 "batch.micro":T(16,"hparams.py:79 batch_size 16 -> "+wlt+":404-406 DataLoader(batch_size=16) (each sample a window of 5 face frames and its mel chunks)"),
 "batch.grad_accum":T(1,wlt+":222-256 zero_grad, backward and step of the generator, then of the discriminator, every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "data.image_size":T(96,"hparams.py:76 img_size 96 -> "+wlt+":69 cv2.resize(img, (96, 96))"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("Adam",wlt+":421-424 optim.Adam(betas=(0.5, 0.999)) for the generator and the quality discriminator",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(16,"hparams.py:82 num_workers 16 -> "+wlt+":406"),
 "data.pin_memory":T(False,wlt+":404-406 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","the Wav2Lip generator and the visual quality discriminator trained from scratch; the SyncNet expert ("+wlt+":189-191) is frozen and only scores"),
},held_out=True,note=H40+"; README.md:87-91 'To train with the visual quality discriminator, you should run hq_wav2lip_train.py instead. The arguments for both files are similar': python hq_wav2lip_train.py --data_root lrs2_preprocessed/ --checkpoint_dir <folder> --syncnet_checkpoint_path <expert checkpoint>, the two folders filled in (argparse for paths only, hyperparameters in a module-level HParams object in hparams.py, a frozen pretrained lip-sync expert loaded at import time, a generator and a discriminator with two Adam optimizers stepped alternately; Wav2Lip talking-face lip-sync GAN on LRS2, audio-visual). Not labelled: model.num_parameters (printed at "+wlt+":418, not stated)")
CT=("keonlee9420/Comprehensive-Transformer-TTS","dca252cae50a18464ce2410aa85a21c557c72d7a")
ctt="train.py"
ctc="config/LJSpeech/train.yaml"
J("comprehensive-transformer-tts-ljspeech-yaml-amp-mp-spawn",*CT,["."],".",[ctt,"--","--dataset","LJSpeech","--use_amp"],{
 "dist.nodes":T(1,"README.md:139 'The trainer assumes single-node multi-GPU training'; "+ctc+":5 dist_config world_size 1 (nodes) x num_gpus"),
 "batch.micro":T(16,ctc+":11 batch_size 16 -> dataset.py:21,238-240 collate_fn cuts each loaded group into sub-batches of 16, and "+ctt+":101-125 one forward/backward/step per sub-batch (the DataLoader's batch_size * group_size 4 at :45-53 is the sort group, not the step)"),
 "batch.grad_accum":T(1,ctc+":16 grad_acc_step 1 -> "+ctt+":68,112-125"),
 "precision.mode":T("amp_fp16","--use_amp -> "+ctt+":59 amp.GradScaler(enabled=True) and :104 amp.autocast(True): fp16 autocast over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("Adam","utils/model.py:24-26 ScheduledOptim -> model/optimizer.py:10-15 torch.optim.Adam(betas [0.9, 0.98], eps 1e-9) with a Noam warm-up",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"config/LJSpeech/model.yaml:1 block_type transformer_fs2: no checkpointing in model/"),
 "data.num_workers":T(0,ctt+":47-53 DataLoader without num_workers"),
 "data.pin_memory":T(False,ctt+":47-53 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--restore_step 0)"),
},held_out=True,note=H40+"; README.md:132-138 'python3 train.py --dataset DATASET' with 'To use a Automatic Mixed Precision, append --use_amp', DATASET LJSpeech (argparse with a dataset name that selects three YAML files under config/LJSpeech, mp.spawn over torch.cuda.device_count() with the YAML batch divided by the GPU count for the loader, a collate_fn that sorts a group of 4 batches by length and yields them one by one, a ScheduledOptim wrapper around Adam stepping through the GradScaler; a FastSpeech2-style non-autoregressive transformer TTS on LJSpeech, speech). Not labelled: dist.world_size / devices_per_node / sharding / batch.global (train.py:236 torch.cuda.device_count(): one process per visible GPU, DDP when more than one), model.num_parameters (printed at train.py:77, not stated)")
RA=("xinyu1205/recognize-anything","7cb804a8609e9f4b1a50b7f31436d2df40bb9481")
raf="finetune.py"
rac="ram/configs/finetune.yaml"
J("ram-plus-finetune-swin-l-yaml-torch-distributed-run-8gpu",*RA,["."],".",["--","python","-m","torch.distributed.run","--nproc_per_node=8",raf,"--model-type","ram_plus","--config",rac,"--checkpoint","outputs/ram_plus/checkpoint_04.pth","--output-dir","outputs/ram_plus_ft"],{
 "dist.world_size":T(8,"README.md:493 python -m torch.distributed.run --nproc_per_node=8 -> "+raf+":171 utils.init_distributed_mode (env:// WORLD_SIZE 8)"),
 "dist.nodes":T(1,"torch.distributed.run with no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8 (README.md:490 'using 8 A100 GPUs')"),
 "dist.sharding":T("ddp",raf+":232-233 --distributed default True -> DistributedDataParallel(model, device_ids=[args.gpu])"),
 "batch.micro":T(26,rac+":12 batch_size 26 -> "+raf+":191 create_loader(batch_size=[26]) -> ram/data/__init__.py:59-68 DataLoader(batch_size=26) per process with a DistributedSampler"),
 "batch.grad_accum":T(1,raf+":57-74 zero_grad, backward and optimizer.step every batch"),
 "batch.global":T(208,"26 x 1 x 8"),
 "data.image_size":T(384,rac+":11 image_size 384 -> ram/data/__init__.py:14 RandomResizedCrop(384) (plus a 224 view for the frozen CLIP at :23)"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() on the trained model ("+raf+":57-74); only the frozen CLIP teacher from clip.load runs in fp16",any_of=["fp32"]),
 "optimizer.name":T("AdamW",raf+":227 torch.optim.AdamW(lr=5e-6, weight_decay=0.05)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,rac+":8 vit_grad_ckpt False -> "+raf+":203"),
 "data.num_workers":T(4,raf+":191 num_workers=[4]"),
 "data.pin_memory":T(True,"ram/data/__init__.py:63 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",raf+":203,226-227 the whole RAM++ model (but its label embedding) fine-tuned from the pre-trained checkpoint"),
},held_out=True,note=H40+"; README.md:489-498 'Fine-tune the pre-trained checkpoint using 8 A100 GPUs: python -m torch.distributed.run --nproc_per_node=8 finetune.py --model-type ram_plus --config ram/configs/finetune.yaml --checkpoint outputs/ram_plus/checkpoint_04.pth --output-dir outputs/ram_plus_ft' (argparse plus a flat YAML of hyperparameters, a BLIP-style init_distributed_mode and create_loader, a model chosen by --model-type, a frozen OpenAI CLIP ViT-B/16 teacher computing text and image features inside the loop; Recognize Anything Plus image tagging with a Swin-L backbone on COCO, vision-language). Not labelled: model.ref / model.num_parameters (a local checkpoint of the pre-training step; not stated)")
VM=("OpenGVLab/VideoMAEv2","29eab1e8a588d1b3ec0cdec7b03a86cca491b74b")
vms="scripts/pretrain/vit_b_hybrid_pt.sh"
vmp="run_mae_pretraining.py"
J("videomae-v2-vit-b-hybrid-pretrain-slurm-srun-4x8gpu",*VM,["."],".",[vms,"--","vitb_pt"],{
 "dist.world_size":T(32,vms+":13 GPUS default 32 -> :21-24 srun --ntasks=32 -> utils.py:282-288 SLURM_NTASKS world size 32"),
 "dist.nodes":T(4,vms+":13-14 32 tasks at --ntasks-per-node=8 (GPUS_PER_NODE default 8): 4 nodes (:12 '8 for 1 node, 16 for 2 node')"),
 "dist.devices_per_node":T(8,vms+":14 GPUS_PER_NODE 8 -> --gres=gpu:8, --ntasks-per-node=8"),
 "dist.sharding":T("ddp",vmp+":366-369 DistributedDataParallel(model, device_ids=[args.gpu])"),
 "batch.micro":T(32,vms+":37 --batch_size 32 -> "+vmp+":321-330 DataLoader(batch_size=32) per process; :38 --num_sample 4 repeats each video 4 times in utils.py:620-634 multiple_pretrain_samples_collate, 128 clips in the forward",any_of=[32,128]),
 "batch.grad_accum":T(1,"engine_for_pretraining.py:107-136 autocast forward, then zero_grad and the loss scaler's backward and step every batch (no update_freq)"),
 "batch.global":T(1024,vmp+":302 total_batch_size = 32 x 32 tasks (4,096 clips with the 4 repeats)",any_of=[1024,4096]),
 "data.image_size":T(224,vmp+":77-80 --input_size default 224 (the model pretrain_videomae_base_patch16_224)"),
 "precision.mode":T("amp_fp16","engine_for_pretraining.py:107 torch.cuda.amp.autocast() (fp16) with "+vmp+":372 NativeScalerWithGradNormCount (a GradScaler) over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",vms+":43 --opt adamw -> "+vmp+":371 create_optimizer -> optim_factory.py:147-148 optim.AdamW(betas 0.9, 0.95)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,vmp+":50 --with_checkpoint store_true, not passed -> :265 with_cp=False"),
 "data.num_workers":T(10,vms+":41 --num_workers 10 -> "+vmp+":325"),
 "data.pin_memory":T(True,vmp+":230-237 pin_mem default True -> :326"),
 "compile.enabled":T(False,"docs/INSTALL.md:9 the documented install pins pytorch==1.12.1 -> "+vmp+":267-269 torch.compile(model) runs only when torch > 1.13.1, so it is skipped (with a torch 2.x install, which requirements.txt torch>=1.2 allows and docs/INSTALL.md:18 calls not fully tested, the model would be compiled)"),
 "peft.method":T("none","self-supervised pre-training from scratch (masked video autoencoding with dual masking)"),
},held_out=True,note=H40+"; docs/PRETRAIN.md and scripts/pretrain/vit_b_hybrid_pt.sh:1-47, run as bash scripts/pretrain/vit_b_hybrid_pt.sh JOB_NAME from the repository root (a Slurm script: srun -p $PARTITION --gres=gpu:8 --ntasks=32 --ntasks-per-node=8 ... python -u run_mae_pretraining.py --mask_type tube --mask_ratio 0.9 --decoder_mask_type run_cell --decoder_mask_ratio 0.5 --model pretrain_videomae_base_patch16_224 --decoder_depth 4 --batch_size 32 --num_sample 4 ... with GPUS/GPUS_PER_NODE from the environment with defaults; argparse with store_true/set_defaults pairs, init_distributed_mode reading SLURM_* variables, a timm-style optimizer factory, repeated-sample collation; VideoMAE V2 ViT-B dual-masking video pre-training on a hybrid video set, video). Not labelled: model.num_parameters (ViT-B encoder plus a 4-block decoder; not stated)")
MG=("Vision-CAIR/MiniGPT-4","d94738a7626ec43eba6c2cddf3cd2043f1a9689a")
mgc="train_configs/minigpt4_stage2_finetune.yaml"
mgr="minigpt4/runners/runner_base.py"
J("minigpt4-stage2-vicuna-lavis-yaml-torchrun-1gpu",*MG,["."],".",["--","torchrun","--nproc-per-node","1","train.py","--cfg-path",mgc],{
 "dist.world_size":T(1,"MiniGPT4_Train.md:36-39 'In our experiments, we use 1 A100': torchrun --nproc-per-node NUM_GPU with NUM_GPU 1"),
 "dist.nodes":T(1,"torchrun with no --nnodes: one node"),
 "dist.devices_per_node":T(1,"--nproc-per-node 1"),
 "dist.sharding":T("ddp",mgc+":49 distributed True -> train.py:81 init_distributed_mode and "+mgr+":88-92 DDP(find_unused_parameters=True) around the one process",any_of=["ddp","none"]),
 "batch.micro":T(12,mgc+":13-14 datasets.cc_sbu_align.batch_size 12 -> "+mgr+" the train DataLoader's batch size"),
 "batch.grad_accum":T(1,mgr+":298-299 accum_grad_iters default 1 (not in "+mgc+") -> minigpt4/tasks/base_task.py:229-230"),
 "batch.global":T(12,"12 x 1 x 1"),
 "data.image_size":T(224,mgc+":18 vis_processor blip2_image_train image_size 224"),
 "precision.mode":T("amp_fp16",mgc+":40 amp True -> "+mgr+":130-138 torch.cuda.amp.GradScaler and minigpt4/tasks/base_task.py:220 autocast (fp16) over the fp32 projection; the frozen ViT and Vicuna sit in fp16 (minigpt4/configs/models/minigpt4_vicuna0.yaml:8, minigpt4/models/base_model.py:187)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",mgr+":122-127 torch.optim.AdamW(lr 3e-5, weight_decay 0.05)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"minigpt4/configs/models/minigpt4_vicuna0.yaml:7 use_grad_checkpoint False (and the ViT is frozen)"),
 "data.num_workers":T(4,mgc+":34 run.num_workers 4 -> "+mgr+":266"),
 "data.pin_memory":T(True,mgr+":515,539 DataLoader(pin_memory=True)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","no LoRA (minigpt4/models/minigpt_base.py:34 lora_r 0 'lora is not used'): the ViT, Q-Former and Vicuna are frozen (minigpt4/models/base_model.py:159-163,205, minigpt4/models/minigpt4.py:110-113) and only the linear llama_proj (:73) is trained"),
},held_out=True,note=H40+"; MiniGPT4_Train.md:25-39 second finetuning stage, 'In our experiments, we use 1 A100': torchrun --nproc-per-node NUM_GPU train.py --cfg-path train_configs/minigpt4_stage2_finetune.yaml with NUM_GPU 1 (the LAVIS framework: a registry of models, datasets, tasks and runners built from an OmegaConf YAML merged with model and dataset default YAMLs, a runner whose optimizer and scaler are lazy properties; MiniGPT-4 stage-2 alignment of a frozen EVA-CLIP ViT-g + Q-Former to a frozen Vicuna through one trained linear layer, multimodal LLM). Not labelled: model.ref / model.num_parameters (llama_model is a local path the user sets in minigpt4/configs/models/minigpt4_vicuna0.yaml:18), data.seq_len (max_txt_len 160 text tokens after 32 image tokens and the prompt)")
LT=("jianzhnie/LLamaTuner","def8929953c616217e2f3513c44a8a1c22e58bf0")
lts="scripts/qlora_finetune/qlora-finetune.sh"
ltl="llamatuner/train/sft/train_lora.py"
ltf="llamatuner/configs/finetuning_args.py"
J("llamatuner-qlora-opt-125m-alpaca-hf-trainer-script-1proc",*LT,["."],".",[lts],{
 "model.ref":T("facebook/opt-125m",lts+":2 --model_name_or_path facebook/opt-125m -> "+ltl+":79-96 AutoModelForCausalLM.from_pretrained",any_of=["facebook/opt-125m"]),
 "model.num_parameters":T(125000000,"OPT-125m: 125M parameters (the facebook/opt-125m checkpoint's name and model card)",rel_tol=0.1),
 "dist.world_size":T(1,lts+":1 plain python, no launcher: one process ("+ltl+":60-63 WORLD_SIZE 1)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process; no --deepspeed/--fsdp in "+lts),
 "batch.micro":T(4,lts+":9 --per_device_train_batch_size 4"),
 "batch.grad_accum":T(8,lts+":11 --gradient_accumulation_steps 8"),
 "batch.global":T(32,"4 x 8 x 1"),
 "precision.mode":T("fp32","no --fp16/--bf16 in "+lts+": "+ltl+":55-56 torch_dtype float32, :92 bnb_4bit_compute_dtype float32; the Trainer runs no autocast"),
 "precision.weights_bits":T(4,lts+":4 --use_qlora -> "+ltl+":76,84-93 BitsAndBytesConfig(load_in_4bit=True) with "+ltf+":108-109 quant_bit default 4"),
 "precision.quant_type":T("nf4",ltf+":130-131 quant_type default 'nf4' -> "+ltl+":91"),
 "precision.double_quant":T(True,ltf+":137-138 double_quant default True -> "+ltl+":90"),
 "optimizer.name":T("adamw_torch",lts+":21 --optim adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,lts+":23 --gradient_checkpointing True -> "+ltl+":108-110 prepare_model_for_kbit_training(use_gradient_checkpointing=True)"),
 "data.num_workers":T(0,"no --dataloader_num_workers: Seq2SeqTrainingArguments default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("lora",ltl+":130-140 LoraConfig + get_peft_model over the 4-bit base (QLoRA)",any_of=["lora","qlora"]),
 "peft.rank":T(8,ltf+":60-61 lora_rank default 8 -> "+ltl+":131"),
},held_out=True,note=H40+"; README.md:232-238 'Getting Started' table: train_qlora -> scripts/qlora_finetune/qlora-finetune.sh, run as bash scripts/qlora_finetune/qlora-finetune.sh from the repository root (python llamatuner/train/sft/train_lora.py --model_name_or_path facebook/opt-125m --dataset alpaca --use_qlora ... --per_device_train_batch_size 4 --gradient_accumulation_steps 8 --optim adamw_torch --gradient_checkpointing True --model_max_length 128; an HfArgumentParser over five dataclasses in a LLaMA-Factory-style package, QLoRA through BitsAndBytesConfig with the compute dtype picked from --fp16/--bf16, LoRA on all linear layers found at run time, the HF Trainer with a Seq2Seq collator; QLoRA SFT of OPT-125m on Alpaca, LLM fine-tuning). Not labelled: dist.devices_per_node (one process; "+ltl+":100-103 marks the model parallel when the machine has several GPUs), data.seq_len (--model_max_length 128 sets the tokenizer limit while the SFT preprocessing truncates at data_args.cutoff_len default 1024)")
