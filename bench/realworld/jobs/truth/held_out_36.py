"""The thirty-sixth held-out set of the jobs benchmark (run.py --set held-out-36): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and found nowhere
before it was taken."""
from .core import J, T

H36="thirty-sixth held-out set"
CM=("michael-wzhu/ChatMed","0d6726cdf062f3601f0bec7c441ffbd619de08c2")
cms="src/chatmed_llama_peft/run_train.sh"
cmp="src/chatmed_llama_peft/run_clm_pt_with_peft.py"
J("chatmed-chinese-llama7b-lora-torchrun-hf-trainer-4gpu",*CM,["."],".",[cms],{
 "model.num_parameters":T(6885494784,cms+":7 pretrained_model ./resources/chinese-llama-alpaca-plus-lora-7b (README.md:59 the LLaMA-7B base merged with the Chinese-LLaMA-Alpaca-Plus LoRA, vocabulary 49,954): 6,738,415,616 + 2 x 17,954 x 4,096 = 6,885,494,784 (6.74B with the original 32,000 vocabulary, inside the tolerance)",rel_tol=0.05),
 "task.mode":T("lora","fp16 base + LoRA",any_of=["lora"]),
 "dist.world_size":T(4,cms+":17-19 torchrun --nnodes 1 --nproc_per_node 4"),
 "dist.nodes":T(1,cms+":18 --nnodes 1"),
 "dist.devices_per_node":T(4,cms+":19 --nproc_per_node 4"),
 "dist.sharding":T("ddp",cms+":15,55 the deepspeed config line and the --deepspeed flag are commented out (after the command, which ends at :53): the Trainer wraps the model in DDP under torchrun"),
 "batch.micro":T(2,cms+":10-11,27 --per_device_train_batch_size 2"),
 "batch.grad_accum":T(32,cms+":12,42 --gradient_accumulation_steps 32"),
 "batch.global":T(256,"2 x 32 x 4"),
 "data.seq_len":T(512,cms+":44 --block_size 512 -> "+cmp+":463 block_size, :466-484 group_texts concatenates and cuts chunks of 512 tokens"),
 "precision.mode":T("amp_fp16",cms+":31 --fp16 (Trainer fp16 autocast with a GradScaler) over a base cast to fp16 ("+cms+":53 --torch_dtype float16, "+cmp+":579-589 from_pretrained(...).half())",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("adamw_torch","no --optim: TrainingArguments default (adamw_hf in older transformers, adamw_torch in newer; requirements.txt unpinned)",any_of=["adamw_torch","adamw_hf","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing in "+cms),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0 (--preprocessing_num_workers 8 is datasets.map)"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",cmp+":608-615 LoraConfig on q,v,k,o,gate,down,up_proj ("+cms+":3) -> get_peft_model"),
 "peft.rank":T(8,cms+":2,49 --lora_rank 8 -> "+cmp+":320 MyTrainingArguments.lora_rank"),
},held_out=True,note=H36+"; README.md:59-62 ./src/chatmed_llama_peft/run_train.sh from the repository root (shell variables, then torchrun --nnodes 1 --nproc_per_node 4 with rendezvous flags and HF TrainingArguments flags, among them the misspelt --leraning_rate that MyTrainingArguments declares as its own field (run_clm_pt_with_peft.py:326), so it parses and the real learning_rate keeps its default; the --deepspeed line commented out after the command; HfArgumentParser over three dataclasses, a vendored peft copy, LlamaForCausalLM .half() + LoRA, HF Trainer; Chinese medical consultation instruction tuning of Chinese-LLaMA-7B, LLM). Not labelled: model.ref (a local directory, ./resources/chinese-llama-alpaca-plus-lora-7b), data.padding (chunks of exactly block_size from group_texts, no padding)")
SG=("ShareGPT4Omni/ShareGPT4Video","7e02ee61506d2104b85d1e301a2fde4a637ffe1f")
sgs="scripts/train/8b/lora_finetune_153k.sh"
sgt="llava/train/train.py"
J("sharegpt4video-llava-next-llama3-8b-lora-srun-torchrun-deepspeed-2x8gpu",*SG,["."],".",[sgs],{
 "model.num_parameters":T(8355000000,sgs+":33,16 pretrained/llava-v1.6-llama3-8b (LLaVA-NeXT on LLaMA-3-8B: 8,030,261,248) + :37 CLIP ViT-L/14-336 vision tower (about 304M) + :38 mlp2x_gelu projector 1024->4096->4096 (20,979,712): about 8.355B (LoRA r=128 on every linear layer of the LLM adds about 4%)",rel_tol=0.05),
 "task.mode":T("lora","bf16 base + LoRA",any_of=["lora"]),
 "dist.world_size":T(16,sgs+":7-8,22-30 srun --nodes=2 --ntasks-per-node=1, each task torchrun --nnodes 2 --nproc_per_node 8: 16 processes"),
 "dist.nodes":T(2,sgs+":8 NNODES=2"),
 "dist.devices_per_node":T(8,sgs+":7 GPUS_PER_NODE=8"),
 "batch.micro":T(4,sgs+":10,50 --per_device_train_batch_size 4"),
 "batch.grad_accum":T(2,sgs+":9,52 --gradient_accumulation_steps 2"),
 "batch.global":T(128,"4 x 2 x 16"),
 "data.seq_len":T(6144,sgs+":63 --model_max_length 6144 -> "+sgt+":298-299 tokenizer truncation at model_max_length"),
 "data.padding":T("dynamic",sgt+":998-1009 DataCollatorForSupervisedDataset pad_sequence to the longest sample of the batch"),
 "precision.mode":T("bf16",sgs+":47 --bf16 True; "+sgt+":1111-1115 LlavaLlamaForCausalLM.from_pretrained(torch_dtype=bfloat16) and :1157-1159 model.to(bfloat16) before LoRA: bf16 weights",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("adamw_torch",sgt+":79-81 a TrainingArguments subclass with optim default 'adamw_torch'; no --optim",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,sgs+":64 --gradient_checkpointing True"),
 "model.attn_implementation":T("flash_attention_2","llava/train/train_mem.py:4 train(attn_implementation='flash_attention_2') -> "+sgt+":1114",any_of=["flash_attention_2","flash"]),
 "data.num_workers":T(4,sgs+":65 --dataloader_num_workers 4"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("lora",sgs+":31 --lora_enable True -> "+sgt+":1147-1156 LoraConfig on find_all_linear_names"),
 "peft.rank":T(128,sgs+":31 --lora_r 128"),
},held_out=True,note=H36+"; the repository's one training script (README.md:45 'Training code for ShareGPT4Video-8B'): bash scripts/train/8b/lora_finetune_153k.sh (wandb login, exported shell variables, srun over two nodes with one task each running bash -c 'torchrun ... llava/train/train_mem.py' with HF TrainingArguments flags and --deepspeed ./scripts/zero2.json; the LLaVA code base: HfArgumentParser over three dataclasses, a TrainingArguments subclass with its own defaults, LoRA on every linear layer, flash-attention 2 from the train_mem entry point; video LLM supervised fine-tuning, multimodal). Not labelled: dist.sharding (./scripts/zero2.json is named but not in the repository at this commit), model.ref (a local directory, pretrained/llava-v1.6-llama3-8b)")
CC=("ArrowLuo/CLIP4Clip","508ffa3de39ba0563a03199c440ab602a72e9b6f")
J("clip4clip-msrvtt-vitb32-meanp-dist-launch-ddp-4gpu",*CC,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=4","main_task_retrieval.py","--do_train","--num_thread_reader=0","--epochs=5","--batch_size=128","--n_display=50","--train_csv","/data/msrvtt/MSRVTT_train.9k.csv","--val_csv","/data/msrvtt/MSRVTT_JSFUSION_test.csv","--data_path","/data/msrvtt/MSRVTT_data.json","--features_path","/data/msrvtt/MSRVTT_Videos","--output_dir","ckpts/ckpt_msrvtt_retrieval_looseType","--lr","1e-4","--max_words","32","--max_frames","12","--batch_size_val","16","--datatype","msrvtt","--expand_msrvtt_sentences","--feature_framerate","1","--coef_lr","1e-3","--freeze_layer_num","0","--slice_framepos","2","--loose_type","--linear_patch","2d","--sim_header","meanP","--pretrained_clip_name","ViT-B/32"],{
 "model.ref":T("ViT-B/32","--pretrained_clip_name ViT-B/32 -> modules/modeling.py:41-43 -> modules/module_clip.py:23 OpenAI's CLIP ViT-B/32 checkpoint",any_of=["ViT-B/32","openai/clip-vit-base-patch32"]),
 "model.num_parameters":T(151277313,"CLIP ViT-B/32: 151,277,313; --sim_header meanP with --loose_type adds no module (modules/modeling.py:226-245 the cross model, LSTM and frame transformer are built only for the other headers)",rel_tol=0.05),
 "dist.world_size":T(4,"README.md:98 torch.distributed.launch --nproc_per_node=4"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","main_task_retrieval.py:214 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(32,"--batch_size=128 is the global batch: dataloaders/data_dataloaders.py:27 batch_size=args.batch_size // args.n_gpu, n_gpu = torch.cuda.device_count() (main_task_retrieval.py:158-160) = 4 on the 4-GPU node"),
 "batch.grad_accum":T(1,"main_task_retrieval.py:61 --gradient_accumulation_steps default 1"),
 "batch.global":T(128,"32 x 1 x 4 (--batch_size=128)"),
 "precision.mode":T("fp16","no --fp16 (Apex, main_task_retrieval.py:68): modules/modeling.py:219 convert_weights(self.clip) casts CLIP's Linear/Conv/attention weights to fp16 (modules/module_clip.py:498-514), trained that way with no autocast and no loss scaling",any_of=["fp16"]),
 "optimizer.name":T("BertAdam","main_task_retrieval.py:209-212 modules/optimization.py BertAdam (Adam with decoupled weight decay and its own warmup-cosine schedule)",any_of=["BertAdam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"--num_thread_reader=0 -> dataloaders/data_dataloaders.py:28"),
 "data.pin_memory":T(False,"dataloaders/data_dataloaders.py:29 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning (--freeze_layer_num 0)"),
},held_out=True,note=H36+"; README.md:96-111 DATA_PATH=...; python -m torch.distributed.launch --nproc_per_node=4 main_task_retrieval.py --do_train ... (taken with DATA_PATH filled in as /data/msrvtt; argparse with a global --batch_size divided by the GPU count inside the dataloader, a CLIP loaded from OpenAI's URL and cast to fp16, BertAdam, DDP; CLIP4Clip text-video retrieval on MSR-VTT, video + text, multimodal). Not labelled: data.seq_len (--max_words 32 text tokens beside 12 video frames), data.image_size (frames at CLIP's 224 input, set inside rawvideo_util)")
VN=("Visual-Attention-Network/VAN-Classification","e19779b53a1b0828b51ecb4412d577541aee83a7")
J("van-b0-imagenet-timm-train-distributed-train-sh-8gpu",*VN,["."],".",["train.sh"],{
 "model.ref":T("van_b0","train.sh:1,4 MODEL=van_b0 --model $MODEL -> models/van.py:291-296 a timm-registered VAN",any_of=["van_b0"]),
 "model.num_parameters":T(4100000,"README.md:78 VAN-B0 4.1M (models/van.py:292-296 embed_dims [32,64,160,256], depths [3,3,5,2])",rel_tol=0.05),
 "dist.world_size":T(8,"train.sh:3 bash distributed_train.sh 8 -> distributed_train.sh:4 torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(8,"--nproc_per_node=$NUM_PROC=8"),
 "dist.sharding":T("ddp","train.py:470-471 NativeDDP (torch DistributedDataParallel; no Apex AMP)"),
 "batch.micro":T(128,"train.sh:4 -b 128 -> train.py:116,527 create_loader(batch_size=128)"),
 "batch.grad_accum":T(1,"timm's train loop steps every batch"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(224,"no --img-size/--input-size: resolve_data_config takes the model's default 3x224x224 (models/van.py:161 img_size=224)"),
 "precision.mode":T("fp32","no --amp/--native-amp/--apex-amp: train.py:354-366 use_amp None, :427 amp_autocast = suppress"),
 "optimizer.name":T("AdamW","train.py:122 --opt default 'adamw' -> :424 timm create_optimizer_v2 -> torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"train.py:271 -j/--workers default 8 -> :546"),
 "data.pin_memory":T(False,"train.py:285 --pin-mem default False -> :549"),
 "compile.enabled":T(False,"no torch.compile (no --torchscript)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; README.md:94-102 (it has been written in train.sh): bash train.sh, whose line is CUDA_VISIBLE_DEVICES=0,...,7 bash distributed_train.sh 8 /path/to/imagenet --model van_b0 -b 128 --lr 1e-3 --drop-path 0.1 (shell variables; a wrapper script whose first positional argument is the process count and the rest passed through with \"$@\" to timm 0.4.12's train.py; a model registered into timm's registry by the repository's models package; VAN-B0 large-kernel-attention CNN on ImageNet-1K, vision)")
LF=("zju3dv/LoFTR","df7ca80f917334b94cfbe32cc2901e09a80e70a8")
lfs="scripts/reproduce_train/outdoor_ds.sh"
J("loftr-outdoor-ds-megadepth-yacs-lightning-ddp-4gpu",*LF,["."],".",[lfs],{
 "dist.world_size":T(4,lfs+":16-17,27 --gpus=4 --num_nodes=1 (train.py:71-72 WORLD_SIZE = gpus x num_nodes)"),
 "dist.nodes":T(1,lfs+":16 n_nodes=1"),
 "dist.devices_per_node":T(4,lfs+":17 n_gpus_per_node=4"),
 "dist.sharding":T("ddp",lfs+":27 --accelerator=\"ddp\" -> train.py:104-108 pl.Trainer with DDPPlugin"),
 "batch.micro":T(1,lfs+":19,28 --batch_size=1 -> src/lightning/data.py:76 (image pairs per GPU)"),
 "batch.grad_accum":T(1,"no --accumulate_grad_batches (Lightning default 1)"),
 "batch.global":T(4,"1 x 1 x 4 (train.py:73 TRUE_BATCH_SIZE)"),
 "data.image_size":T(640,lfs+":10,13 configs/data/megadepth_trainval_640.py:22 MGDPT_IMG_RESIZE 640 (longer side resized to 640, padded to 640x640: src/config/default.py:96-97)"),
 "precision.mode":T("fp32","no --precision: Lightning 1.x default 32 (environment.yaml pytorch 1.8.1)"),
 "optimizer.name":T("AdamW","configs/loftr/outdoor/loftr_ds_dense.py:14 TRAINER.OPTIMIZER 'adamw' -> src/optimizers/__init__.py:11-12 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,lfs+":18,28 --num_workers=4 -> src/lightning/data.py:77"),
 "data.pin_memory":T(True,lfs+":20,28 --pin_memory=true -> train.py:37-39 strtobool -> src/lightning/data.py:78"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; docs/TRAINING.md:75-76 scripts/reproduce_train/outdoor_ds.sh (bash -l, cd to the project root, shell variables with arithmetic in the experiment name, python -u ./train.py with two positional config paths (a data config and a main config, Python files that mutate a yacs CfgNode) and pl.Trainer.add_argparse_args flags (--gpus, --num_nodes, --accelerator, --benchmark), the learning rate scaled by the true batch size; Lightning 1.x with DDPPlugin; LoFTR detector-free local feature matching on MegaDepth, vision). Not labelled: model.num_parameters (no figure in the repository)")
UN=("maum-ai/univnet","9bb2b54838bb6d7ce767131cc7b8b61198bc7558")
unc="config/default_c32.yaml"
J("univnet-c32-libritts-omegaconf-yaml-mp-spawn-gan",*UN,["."],".",["trainer.py","--","-c",unc,"-n","univnet_c32"],{
 "dist.nodes":T(1,unc+":53 dist_config world_size 1 (nodes) -> utils/train.py:27-28"),
 "batch.micro":T(32,unc+":9 train.batch_size 32 -> datasets/dataloader.py:16 DataLoader(batch_size=32 segments of 16,384 samples) per GPU"),
 "batch.grad_accum":T(1,"utils/train.py: the generator and discriminator each step every batch"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW",unc+":10 says optimizer 'adam', but utils/train.py:36-39 builds torch.optim.AdamW for both the generator and the discriminator without reading it",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,unc+":8 train.num_workers 8 -> datasets/dataloader.py:17"),
 "data.pin_memory":T(True,"datasets/dataloader.py:17 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; README.md:106-109 python trainer.py -c CONFIG_YAML_FILE -n NAME_OF_THE_RUN, taken with the c32 config (README.md:94-103 channel_size 32) and a run name (argparse, an OmegaConf YAML, mp.spawn over torch.cuda.device_count() processes when more than one GPU is visible, DDP on each of a generator and a discriminator, its own GAN loop; UnivNet neural vocoder on LibriTTS, speech). Not labelled: dist.world_size, dist.devices_per_node, dist.sharding and batch.global (trainer.py:35-44 the process count is torch.cuda.device_count() at run time, nothing fixes it), model.num_parameters (no figure in the repository)")
TT=("jannerm/trajectory-transformer","8834a6ed04ceeab8fdb9465e145c6e041c05d71b")
J("trajectory-transformer-halfcheetah-medium-gpt-own-trainer-1gpu",*TT,["."],".",["scripts/train.py","--","--dataset","halfcheetah-medium-v2"],{
 "model.num_parameters":T(1468544,"config/offline.py:20-32 N 100, n_layer 4, n_head 4, n_embd 32 (x n_head = 128, scripts/train.py:63), subsampled_sequence_length 10; halfcheetah observation 17 + action 6 + reward + value = 25 per transition (trajectory/models/transformers.py:29), block_size 10 x 25 - 1 = 249 (scripts/train.py:50) -> trajectory/models/transformers.py:85-94: token embedding 2,501 x 128 = 320,128, position 249 x 128 = 31,872, 4 blocks of 198,272, final LayerNorm 256, EinLinear head 25 x 128 x 101 = 323,200: 1,468,544",rel_tol=0.05),
 "dist.world_size":T(1,"config/offline.py:29 device 'cuda', scripts/train.py:73 model.to(device): one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"config/offline.py:32 batch_size 256 (no halfcheetah_medium_v2 'train' override, :87-92) -> trajectory/utils/training.py:34-36 DataLoader(batch_size=256)"),
 "batch.grad_accum":T(1,"trajectory/utils/training.py:53-55 backward and step every batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.seq_len":T(249,"scripts/train.py:27,50 ten transitions of 25 tokens, the model reads 250 - 1 = 249 tokens (block_size)"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW","trajectory/models/transformers.py:165 torch.optim.AdamW (configure_optimizers, called from trajectory/utils/training.py:24)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"scripts/train.py:96 num_workers=0 -> trajectory/utils/training.py:36"),
 "data.pin_memory":T(True,"trajectory/utils/training.py:34 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; README.md:21 python scripts/train.py --dataset halfcheetah-medium-v2 (a typed-attribute Parser subclass that reads its defaults from a Python config module, config/offline.py, with per-dataset override dicts looked up by the dataset name with dashes made underscores; utils.Config objects that pickle their kwargs and build the GPT and the Trainer; a minGPT-style model over discretized D4RL transitions, offline RL). Not labelled: model.ref (the repository's own GPT)")
DC=("jiaor17/DiffCSP","7121d159826efa2ba9500bf299250d96da37f146")
J("diffcsp-mp20-hydra-lightning-pyg-1gpu",*DC,["."],".",["diffcsp/run.py","--","data=mp_20","expname=mp20_csp"],{
 "dist.world_size":T(1,"conf/train/default.yaml:9 pl_trainer gpus 1 (accelerator ddp commented out, :10) -> diffcsp/run.py:148-156 pl.Trainer(**pl_trainer)"),
 "dist.nodes":T(1,"no num_nodes"),
 "dist.sharding":T("none","one GPU"),
 "batch.micro":T(256,"conf/data/mp_20.yaml:78-79 datamodule batch_size train 256 -> diffcsp/pl_data/datamodule.py:110-114 DataLoader(batch_size=256 crystals)"),
 "batch.grad_accum":T(1,"conf/train/default.yaml:14 accumulate_grad_batches 1"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","conf/train/default.yaml:11 precision 32"),
 "optimizer.name":T("Adam","conf/optim/default.yaml:3 _target_ torch.optim.Adam -> diffcsp/pl_modules/diffusion.py:39-40 hydra.utils.instantiate",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"conf/data/mp_20.yaml:73-74 num_workers train 0 -> datamodule.py:114"),
 "data.pin_memory":T(False,"diffcsp/pl_data/datamodule.py:110-116 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; README.md:34 python diffcsp/run.py data=<dataset> expname=<expname>, taken with data=mp_20 (a Hydra app whose config_path is computed from PROJECT_ROOT, conf/default.yaml defaults list of data/logging/model/optim/train groups, the datamodule, LightningModule and optimizer instantiated from _target_, ${data.*} interpolations; CSPDiffusion with a CSPNet equivariant GNN denoiser for crystal structure prediction on MP-20, GNN + diffusion, materials). Not labelled: model.num_parameters (no figure in the repository)")
RC=("LTH14/rcg","0c4433c1d7fed93ed0dc81a6bde2acfe335d3798")
rcc="config/rdm/mocov3vitb_simplemlp_l12_w1536.yaml"
J("rcg-rdm-mocov3-vitb-representation-diffusion-dist-launch-ddp-4gpu",*RC,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=4","--nnodes=1","--node_rank=0","main_rdm.py","--config",rcc,"--batch_size","128","--input_size","256","--epochs","200","--blr","1e-6","--weight_decay","0.01","--output_dir","output/rdm","--data_path","/data/imagenet","--dist_url","tcp://localhost:2214"],{
 "dist.world_size":T(4,"README.md:80 --nproc_per_node=4 --nnodes=1"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","main_rdm.py:162-163 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(128,"--batch_size 128 -> main_rdm.py:131-133 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"main_rdm.py:32 --accum_iter default 1"),
 "batch.global":T(512,"128 x 1 x 4 (main_rdm.py:151 eff_batch_size)"),
 "data.image_size":T(256,"main_rdm.py:113-117 Resize(256) + RandomCrop(256) (--input_size 256)"),
 "precision.mode":T("fp32","engine_rdm.py: no autocast; main_rdm.py:176 NativeScalerWithGradNormCount scales an fp32 loss"),
 "optimizer.name":T("AdamW","main_rdm.py:174 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the RDM's SimpleMLP"),
 "data.num_workers":T(10,"main_rdm.py:71 --num_workers default 10 -> :134"),
 "data.pin_memory":T(True,"main_rdm.py:72-75 pin_mem default True -> :135"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","the RDM trained from scratch over a frozen MoCo v3 encoder"),
},held_out=True,note=H36+"; README.md:78-89 python -m torch.distributed.launch --nproc_per_node=4 --nnodes=1 --node_rank=0 main_rdm.py --config config/rdm/mocov3vitb_simplemlp_l12_w1536.yaml --batch_size 128 --input_size 256 --epochs 200 --blr 1e-6 --weight_decay 0.01 --output_dir ${OUTPUT_DIR} --data_path ${IMAGENET_DIR} --dist_url tcp://${MASTER_SERVER_ADDRESS}:2214 (taken with the three variables filled in; MAE-style argparse and util.misc, an OmegaConf config whose model target is an LDM-style RDM instantiated from a string, a frozen MoCo v3 ViT-B image encoder whose 256-dim representations a 12-block residual MLP learns to generate; RCG representation-conditioned generation, diffusion, vision). Not labelled: model.num_parameters (trainable SimpleMLP plus a frozen ViT-B encoder: no figure in the repository)")
LG=("HKUDS/LightGCL","5590453ad86782f58017e58d0b698d7f32175be3")
J("lightgcl-yelp-argparse-svd-graph-cl-1gpu",*LG,["."],".",["main.py","--","--data","yelp"],{
 "dist.world_size":T(1,"parser.py:19 --cuda '0' -> main.py:13 device cuda:0: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(4096,"main.py:51 DataLoader(batch_size=args.inter_batch) with parser.py:8 --inter_batch default 4096 (user, positive, negative) triplets; parser.py:7 --batch 256 is the users per evaluation batch and the contrastive-loss user sample"),
 "batch.grad_accum":T(1,"main.py:108-111 zero_grad/backward/step every batch"),
 "batch.global":T(4096,"4096 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","main.py:86 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"main.py:51 num_workers=0"),
 "data.pin_memory":T(False,"main.py:51 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; README.md:31 python main.py --data yelp (argparse parsed at import of parser.py, a SVD-augmented graph contrastive recommender over a sparse normalised adjacency, its own loop; LightGCL, recommendation + GNN). Not labelled: model.num_parameters (user and item embeddings sized by the pickled interaction matrix in data/yelp, not stated in the repository)")
OF=("DAMO-DI-ML/NeurIPS2023-One-Fits-All","9f3875dbba9f52ee534ac0902572502746f3b29d")
ofs="scripts/ETTh1.sh"
ofm="Long-term_Forecasting/models/GPT4TS.py"
J("one-fits-all-gpt4ts-etth1-gpt2-6layers-argparse-1gpu",*OF,["."],"Long-term_Forecasting",[ofs],{
 "model.ref":T("gpt2",ofm+":27 GPT2Model.from_pretrained('gpt2') (Long-term_Forecasting/main.py:70 --pretrain default 1)"),
 "model.num_parameters":T(85022304,"Long-term_Forecasting/"+ofs+":37 --gpt_layer 6, an abbreviation argparse accepts for --gpt_layers (main.py:57, default 3) -> "+ofm+":31 GPT-2 cut to 6 blocks: wte 38,597,376 + wpe 786,432 + 6 x 7,087,872 + ln_f 1,536 = 81,912,576; in_layer Linear(16,768) 13,056; out_layer Linear(768 x 42 patches, 96) 3,096,672 (seq_len 336, patch 16, stride 8: (336-16)//8+1+1 = 42; pred_len 96, the first run): 85,022,304 (only the LayerNorms and wpe of GPT-2 are trainable, :37-42)",rel_tol=0.05),
 "dist.world_size":T(1,"Long-term_Forecasting/"+ofs+":2 export CUDA_VISIBLE_DEVICES=0; main.py:120 device cuda:0"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"Long-term_Forecasting/"+ofs+":22 --batch_size 256 -> data_provider/data_factory.py:54-56"),
 "batch.grad_accum":T(1,"Long-term_Forecasting/main.py:159,181 zero_grad/step every batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","Long-term_Forecasting/main.py:136 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"Long-term_Forecasting/main.py:52 --num_workers default 10 -> data_provider/data_factory.py:58"),
 "data.pin_memory":T(False,"data_provider/data_factory.py:54-59 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H36+"; Long-term_Forecasting/README.md:17-18 bash ./scripts/ETTh1.sh, run in Long-term_Forecasting (export CUDA_VISIBLE_DEVICES=0, shell variables, three nested for loops over one percent, four pred_len values and one learning rate, python main.py with argparse flags, one of them --gpt_layer, a prefix of --gpt_layers, and a --model_id built from an unset $gpt_layer; GPT4TS: a frozen pre-trained GPT-2 cut to 6 blocks over patches of each variate, time series forecasting on ETTh1). Not labelled: data.seq_len (--seq_len 336 time steps become 42 patch tokens per variate), peft.method (frozen attention and MLP weights with trainable LayerNorms and position embeddings: partial fine-tuning, not an adapter method)")
GR=("microsoft/Graphormer","ac154fe4253d076a1c294f14be20dad0351cff3c")
grs="examples/property_prediction/zinc.sh"
J("graphormer-slim-zinc-fairseq-train-user-dir-1gpu",*GR,["."],"examples/property_prediction",["zinc.sh"],{
 "model.num_parameters":T(489300,"examples/property_prediction/README.md:83 Graphormer-Slim on ZINC-500K 489.3K ("+grs+":13,22-25 graphormer_slim, 12 layers, embed 80, ffn 80, 8 heads)",rel_tol=0.05),
 "dist.world_size":T(1,grs+":5 CUDA_VISIBLE_DEVICES=0 fairseq-train: one visible GPU, one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one GPU (--ddp-backend=legacy_ddp only matters with several)"),
 "batch.micro":T(64,grs+":19 --batch-size 64 (graphs)"),
 "batch.grad_accum":T(1,"no --update-freq (fairseq default 1)"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp16",grs+":20 --fp16: fairseq's FP16Optimizer (fp16 model with an fp32 master copy and dynamic loss scaling)",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("Adam",grs+":16 --optimizer adam (fairseq's Adam, decoupled weight decay 0.01)",any_of=["Adam","adam","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --checkpoint-activations, no checkpoint() in graphormer/"),
 "data.num_workers":T(16,grs+":7 --num-workers 16"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H36+"; examples/property_prediction/README.md:67-69 bash zinc.sh, run in examples/property_prediction (CUDA_VISIBLE_DEVICES=0 fairseq-train, the fairseq console script of a git submodule not in the snapshot, with --user-dir ../../graphormer registering the task, criterion and architecture, and fairseq's own flags for batch size, fp16, optimizer and scheduler; Graphormer-Slim graph transformer regressing ZINC molecules' constrained solubility, GNN). Not labelled: data.pin_memory (inside fairseq's iterators, outside the repository), model.ref (an architecture name, graphormer_slim, not a registry or Hub id)")
