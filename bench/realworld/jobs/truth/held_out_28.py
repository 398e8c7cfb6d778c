"""The twenty-eighth held-out set of the jobs benchmark (run.py --set held-out-28): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H28="twenty-eighth held-out set"
VG=("bofenghuang/vigogne","67ea8a2a06f1ddd5652da274c9d537e2223468bc")
vgs="examples/train/llama2/train_sft_chat.sh"
vgd="vigogne/configs/ds_config_zero3_no_offload.json"
J("vigogne-llama-2-7b-chat-sft-zero3-torchrun-script-vars-4gpu",*VG,["."],".",[vgs],{
 "model.ref":T("meta-llama/Llama-2-7b-hf",vgs+":13 model_name_or_path -> :33 -> vigogne/utils/model.py:72-79 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"Llama-2-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(4,vgs+":29-30 torchrun --nproc_per_node 4 (:10 CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(4,"--nproc_per_node 4"),
 "dist.sharding":T("zero3",vgs+":32 --deepspeed "+vgd+" -> "+vgd+":37 stage 3"),
 "dist.offload_params":T("none",vgd+":36-47 no offload_param"),
 "dist.offload_optimizer":T("none",vgd+":36-47 no offload_optimizer"),
 "dist.overlap_comm":T(True,vgd+":38"),
 "dist.contiguous_gradients":T(True,vgd+":39"),
 "dist.reduce_bucket_size":T(16777216,vgd+":41 'auto' -> the HF Trainer fills hidden_size x hidden_size = 4096 x 4096"),
 "dist.stage3_prefetch_bucket_size":T(15099494,vgd+":42 'auto' -> the HF Trainer fills 0.9 x 4096 x 4096",rel_tol=0.01),
 "dist.stage3_max_live_parameters":T(1000000000,vgd+":44 stage3_max_live_parameters 1e9"),
 "batch.micro":T(4,vgs+":25 per_device_train_batch_size=4 -> :46"),
 "batch.grad_accum":T(4,vgs+":27 gradient_accumulation_steps=4 -> :48"),
 "batch.global":T(64,"4 x 4 x 4"),
 "data.seq_len":T(2048,vgs+":18 model_max_length=2048 -> :41 -> vigogne/utils/dataset.py:158-167 conversations of 2048 tokens or more filtered out"),
 "data.padding":T("dynamic","vigogne/utils/trainer.py:25 DataCollatorForSeq2Seq(pad_to_multiple_of=64): to the longest sample of the batch, rounded up to 64"),
 "precision.mode":T("fp16",vgs+":54 --fp16 with "+vgd+":2-3 fp16 enabled 'auto' over a model loaded in float16 (vigogne/utils/training_args.py:38-39 torch_dtype default float16 -> vigogne/utils/model.py:49,75): DeepSpeed fp16, 16-bit weights with fp32 master copies"),
 "optimizer.name":T("AdamW",vgd+":15-16 DeepSpeed optimizer AdamW: a config with an optimizer section makes the HF Trainer hand the optimizer to DeepSpeed, so "+vgs+":49 --optim adamw_bnb_8bit is not used",any_of=["AdamW","adamw","FusedAdam","fusedadam"]),
 "memory.gradient_checkpointing":T(True,vgs+":55 --gradient_checkpointing"),
 "data.num_workers":T(1,vgs+":44 --dataloader_num_workers 1"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none",vgs+":4 'full fine-tuning + DeepSpeed Stage 3' (no --adapter: vigogne/utils/training_args.py:83 default None)"),
},held_out=True,note=H28+"; bash "+vgs+" (the repository's example script for Llama-2 full fine-tuning; exports including CUDA_VISIBLE_DEVICES, shell variables for model, data, length and batch, then torchrun --nproc_per_node 4 vigogne/cli/train_sft.py --deepspeed "+vgd+" ... --optim adamw_bnb_8bit --fp16 --gradient_checkpointing; HfArgumentParser over one TrainingArguments subclass carrying model, data and LoRA fields, a ZeRO-3 JSON with its own AdamW section that overrides --optim; full chat SFT of Llama-2-7B on French OASST). Not labelled: attention implementation (transformers installed from git main, pyproject.toml:53)")
HT=("SCIR-HI/Huatuo-Llama-Med-Chinese","ba9b3d65b33ba346e3d60979019abe6fa2ac741a")
hts="scripts/finetune.sh"
J("huatuo-llama-7b-int8-lora-fire-script-1gpu",*HT,["."],".",[hts],{
 "model.ref":T("decapoda-research/llama-7b-hf",hts+":5 --base_model -> finetune.py:114-119 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, intermediate 11008, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(1,hts+":4 plain python: one process (finetune.py:96 WORLD_SIZE unset -> 1)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no DDP (finetune.py:95 device_map='auto' places the 8-bit model, no data parallelism)"),
 "batch.micro":T(128,hts+":9 --micro_batch_size 128 -> finetune.py:249"),
 "batch.grad_accum":T(1,hts+":10 --batch_size 128 -> finetune.py:91 128 // 128 = 1"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.seq_len":T(256,"finetune.py:42 cutoff_len default 256 (not given) -> :131-136 truncation to 256"),
 "data.padding":T("dynamic","finetune.py:135 padding=False, :269-271 DataCollatorForSeq2Seq(padding=True, pad_to_multiple_of=8)"),
 "precision.mode":T("amp_fp16","finetune.py:254 TrainingArguments fp16=True: fp16 autocast + GradScaler over the fp32 LoRA weights of an int8 base"),
 "precision.weights_bits":T(8,"finetune.py:116 load_in_8bit=True"),
 "precision.quant_type":T("int8","finetune.py:116 load_in_8bit=True (bitsandbytes LLM.int8)"),
 "optimizer.name":T("AdamW","finetune.py:256 optim='adamw_torch'",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,"finetune.py:171 prepare_model_for_int8_training (requirements.txt peft==0.3.0: use_gradient_checkpointing default True)"),
 "model.attn_implementation":T("eager","requirements.txt transformers==4.30.1: LLaMA has only the eager attention there"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "peft.method":T("lora","finetune.py:173-181 LoraConfig + get_peft_model"),
 "peft.rank":T(8,"finetune.py:45 lora_r default 8"),
 "peft.target_modules":T(["q_proj","v_proj"],"finetune.py:48-51 lora_target_modules default"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
},held_out=True,note=H28+"; README.md:205 bash ./scripts/finetune.sh (python finetune.py --base_model 'decapoda-research/llama-7b-hf' --data_path './data/llama_data.json' ... --micro_batch_size 128 --batch_size 128 --wandb_run_name $exp_tag; an alpaca-lora-style script driven by fire.Fire(train) with keyword defaults, accumulation computed from the two batch sizes, an int8 base with LoRA through the HF Trainer; LoRA tuning of LLaMA-7B on Chinese medical QA). Not labelled: compile.enabled (finetune.py:276-277 torch.compile when the string torch.__version__ >= '2', torch unpinned in requirements.txt)")
TL=("huggingface/transfer-learning-conv-ai","d4c760731e8f062abd3d61ccdc8fa29ccb5e3485")
J("transfer-learning-conv-ai-openai-gpt-double-heads-ignite-distributed-launch-8gpu",*TL,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","./train.py","--gradient_accumulation_steps=4",
 "--lm_coef=2.0","--max_history=2","--n_epochs=1","--num_candidates=4","--personality_permutations=2","--train_batch_size=2","--valid_batch_size=2"],{
 "model.ref":T("openai-gpt","train.py:121 --model_checkpoint default openai-gpt -> :156-157 OpenAIGPTDoubleHeadsModel.from_pretrained",any_of=["openai-gpt","openai-community/openai-gpt"]),
 "model.num_parameters":T(116540000,"GPT-1 (12 layers, hidden 768, vocab 40478 + 5 added special tokens, 512 positions) 116.5M + the multiple-choice head 768 + 1",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:85 python -m torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"no --nnodes (default 1)"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:145 distributed = local_rank != -1 (set by the launcher) -> :167-168 DistributedDataParallel"),
 "batch.micro":T(2,"--train_batch_size=2 -> train.py:109 DataLoader (each sample holds num_candidates 4 sequences)"),
 "batch.grad_accum":T(4,"--gradient_accumulation_steps=4 -> train.py:182,190-192 optimizer.step every 4 iterations"),
 "batch.global":T(64,"2 x 4 x 8"),
 "precision.mode":T("fp32","train.py:135 --fp16 default '' (no apex opt level) -> :164-166 amp.initialize skipped"),
 "optimizer.name":T("AdamW","train.py:161 transformers AdamW",any_of=["AdamW","adamw","adamw_hf"]),
 "model.attn_implementation":T("eager","requirements.txt:3 transformers==2.5.1: only the eager attention exists"),
 "data.num_workers":T(0,"train.py:109 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:109 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H28+"; README.md:85 python -m torch.distributed.launch --nproc_per_node=8 ./train.py --gradient_accumulation_steps=4 --lm_coef=2.0 --max_history=2 --n_epochs=1 --num_candidates=4 --personality_permutations=2 --train_batch_size=2 --valid_batch_size=2 (argparse with =-joined values, the model class chosen by a substring of the checkpoint name, a pytorch-ignite Engine whose update function accumulates by hand, apex amp behind a string flag, DDP built by hand; GPT-1 double-heads fine-tuning on PersonaChat, dialogue). Not labelled: sequence length and padding (train.py:41-45 the whole dataset padded to its longest sequence, a property of the data)")
NG=("karpathy/ng-video-lecture","52201428ed7b46804849dea0b3ccf0de9df1a5c3")
J("ng-video-lecture-gpt-10m-shakespeare-char-module-constants-1gpu",*NG,["."],".",["gpt.py"],{
 "model.num_parameters":T(10788929,"gpt.py:13-15 n_embd 384, n_head 6, n_layer 6, :7 block_size 256, :27 vocab = the 65 characters of input.txt -> :64-147: 6 x (q/k/v 3 x 384^2 without bias + proj 384^2 + 384 + MLP 2 x 4 x 384^2 + 1536 + 384 + two LayerNorms) = 10.64M + token 65 x 384 + positions 256 x 384 + ln_f + lm_head 384 x 65 + 65: 10,788,929 (:201 prints it)",rel_tol=0.1),
 "dist.world_size":T(1,"python gpt.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(64,"gpt.py:6 batch_size = 64 -> :41-48 get_batch"),
 "batch.grad_accum":T(1,"gpt.py:214-220 one optimizer step per batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "data.seq_len":T(256,"gpt.py:7 block_size = 256 -> :44-46 windows of 256 characters"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW","gpt.py:204 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("eager","gpt.py:83-89 attention written out: q @ k^T, masked_fill, softmax, @ v"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H28+"; python gpt.py (the lecture's script, no README command: module-level hyperparameters, no argparse and no __main__ guard, the vocabulary built from the characters of input.txt, batches drawn by a get_batch function rather than a DataLoader, multi-head attention as a ModuleList of single heads; character-level GPT pre-training on Tiny Shakespeare). Not labelled: model.ref (built from literals), data loader workers and pin memory (no DataLoader)")
PL=("lucidrains/PaLM-pytorch","7164d13d5a831647edb5838544017f387130f987")
J("palm-pytorch-30m-enwik8-module-constants-raw-loop-1gpu",*PL,["."],".",["train.py"],{
 "model.num_parameters":T(30020096,"train.py:44 PaLM(num_tokens=256, dim=512, depth=8) with dim_head 64, heads 8, ff_mult 4 -> palm_pytorch/triton/palm.py:67-81,140-151: 8 x (fused projection 512 x (512+64+64+2 x 2048) + attn_out 512^2 + ff_out 2048 x 512 + LayerNorm gamma) = 29.89M + tied embedding 256 x 512 + final gamma: 30.02M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:51 python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP"),
 "batch.micro":T(4,"train.py:17 BATCH_SIZE = 4 -> :74 DataLoader"),
 "batch.grad_accum":T(4,"train.py:18 GRADIENT_ACCUMULATE_EVERY = 4 -> :86-93 four backward passes per optimizer step"),
 "batch.global":T(16,"4 x 4 x 1"),
 "data.seq_len":T(1024,"train.py:23 SEQ_LEN = 1024 -> :63-66 samples of 1025 bytes -> palm_pytorch/autoregressive_wrapper.py:81 x[:, :-1]: 1024-token inputs"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:79 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"train.py:74 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:74 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H28+"; README.md:51 python train.py (a script of module-level constants and no argparse, the model from a function returning nn.Sequential with a tied embedding, Triton kernels for softmax and layer norm, an accumulation loop written by hand; byte-level PaLM pre-training on enwik8). Not labelled: model.ref (built from literals), attention implementation (einsum attention with a Triton softmax)")
C5=("salesforce/CodeT5","7de7f696c7fb1c7551406f3079e8fed500673199")
c5d="CodeT5+/deepspeed_config.json"
c5t="CodeT5+/tune_codet5p_seq2seq.py"
J("codet5p-770m-seq2seq-zero2-offload-deepspeed-num-gpus-4gpu",*C5,["CodeT5+","README.md"],"CodeT5+",["--","deepspeed","--num_gpus","4","tune_codet5p_seq2seq.py","--load","Salesforce/codet5p-770m","--fp16","--deepspeed","deepspeed_config.json"],{
 "model.ref":T("Salesforce/codet5p-770m","--load Salesforce/codet5p-770m (CodeT5+/README.md:149) -> "+c5t+":114 AutoModelForSeq2SeqLM.from_pretrained"),
 "model.num_parameters":T(737600000,"CodeT5+ 770M is a T5-large encoder-decoder (24+24 layers, d_model 1024, d_ff 4096, 16 heads, vocab 32100 tied): 737.6M",rel_tol=0.1),
 "dist.world_size":T(4,"deepspeed --num_gpus 4"),
 "dist.nodes":T(1,"no hostfile: one node"),
 "dist.devices_per_node":T(4,"--num_gpus 4"),
 "dist.sharding":T("zero2",c5d+":11 stage 2"),
 "dist.offload_optimizer":T("cpu",c5d+":12-13 offload_optimizer device cpu"),
 "dist.overlap_comm":T(True,c5d+":18"),
 "dist.contiguous_gradients":T(True,c5d+":21"),
 "dist.reduce_bucket_size":T(100000000,c5d+":20 reduce_bucket_size 1e8"),
 "dist.allgather_bucket_size":T(100000000,c5d+":17 allgather_bucket_size 1e8"),
 "batch.micro":T(8,c5t+":132 --batch-size-per-replica default 8 -> :27"),
 "batch.grad_accum":T(4,c5t+":133 --grad-acc-steps default 4 -> :28"),
 "batch.global":T(128,"8 x 4 x 4"),
 "data.padding":T("max_length",c5t+":76-77 padding='max_length' (source 320, target 128 tokens)"),
 "precision.mode":T("fp16","--fp16 -> "+c5t+":44 TrainingArguments fp16 and "+c5d+":2-3 fp16 enabled 'auto': DeepSpeed fp16 (16-bit weights, fp32 master copies in the offloaded optimizer; the model is loaded in fp32, :114)"),
 "optimizer.name":T("AdamW",c5d+":32-33 DeepSpeed optimizer AdamW (DeepSpeedCPUAdam because of the optimizer offload)",any_of=["AdamW","adamw","DeepSpeedCPUAdam","cpu_adam","cpuadam"]),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing in "+c5t+":18-45"),
 "data.num_workers":T(4,c5t+":40 dataloader_num_workers=4"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H28+"; cd CodeT5+ && deepspeed --num_gpus 4 tune_codet5p_seq2seq.py --load Salesforce/codet5p-770m --fp16 --deepspeed deepspeed_config.json (CodeT5+/README.md:145-150: the fine-tuning script with --load a CodeT5+ checkpoint and, for memory, --fp16 and a DeepSpeed config, the repository's own deepspeed_config.json; argparse with dashed flags whose values reach TrainingArguments(...) built in code, a ZeRO-2 JSON offloading the optimizer with 'auto' batch fields; Python code summarisation with the 770M encoder-decoder). Not labelled: sequence length (encoder 320 and decoder 128 tokens, "+c5t+":123-124)")
PC=("kuangliu/pytorch-cifar","49b7aa97b0c12fe0d4054e670403a16b6b834ddd")
J("pytorch-cifar-simpledla-sgd-dataparallel-1process",*PC,["."],".",["main.py"],{
 "model.num_parameters":T(15142970,"main.py:71 net = SimpleDLA() -> models/dla_simple.py:78-103: stem convs 3-16-16-32, Trees 32-64 (level 1), 64-128 (2), 128-256 (2), 256-512 (1) of BasicBlocks with 1x1 roots and BatchNorms, linear 512-10: 15,142,970",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:12 python main.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.global":T(128,"main.py:44-45 DataLoader batch_size=128 (nn.DataParallel, :74, splits it over the visible GPUs)"),
 "batch.grad_accum":T(1,"main.py:99-105 one optimizer step per batch"),
 "data.image_size":T(32,"main.py:31 RandomCrop(32, padding=4) on CIFAR-10"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("SGD","main.py:87-88 optim.SGD(momentum=0.9)",any_of=["SGD","sgd"]),
 "data.num_workers":T(2,"main.py:45 num_workers=2"),
 "data.pin_memory":T(False,"main.py:44-45 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; README.md:12 python main.py (argparse with only --lr and --resume, the model chosen by commenting lines in and out of main.py:57-71 with SimpleDLA the one left, torchvision CIFAR-10 loaders, nn.DataParallel whenever CUDA is there; image classification on CIFAR-10). Not labelled: sharding and micro batch (main.py:73-74 nn.DataParallel over however many GPUs are visible, a property of the machine)")
NF=("yenchenlin/nerf-pytorch","63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd")
J("nerf-pytorch-lego-configargparse-config-file-1gpu",*NF,["."],".",["run_nerf.py","--","--config","configs/lego.txt"],{
 "model.num_parameters":T(1191688,"configs/lego.txt:8 use_viewdirs, :13 N_importance 128 (a fine network too) with run_nerf.py:435-441,471-473 defaults (8 layers of 256, positional encodings of 10 and 4 frequencies: 63 and 27 inputs) -> run_nerf_helpers.py NeRF: 63-256, 6 x 256-256, one 319-256 skip, feature 256-256, alpha 256-1, views 283-128, rgb 128-3 = 595,844 per network, coarse + fine (run_nerf.py:189-199): 1,191,688",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:47 python run_nerf.py --config configs/lego.txt: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(1024,"configs/lego.txt:14 N_rand = 1024 rays per step (run_nerf.py:675,752 sampled from one image, no_batching)"),
 "batch.grad_accum":T(1,"run_nerf.py:764-776 one optimizer step per batch of rays"),
 "batch.global":T(1024,"1024 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","run_nerf.py:207 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile (requirements.txt torch==1.11.0)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; README.md:47 python run_nerf.py --config configs/lego.txt (configargparse: a key = value config file named by --config, is_config_file=True, over argparse defaults; two MLPs built in a create_nerf helper, rays sampled per step from tensors, no DataLoader; NeRF on the Blender lego scene, 3D vision). Not labelled: image size (rays, not images, are the model's input; 800 x 800 renders halved by half_res), data loader workers and pin memory (no DataLoader)")
TR=("clovaai/deep-text-recognition-benchmark","e2117f2fb882b3c6085030500a260c113be27a63")
J("deep-text-recognition-trba-adadelta-two-dataset-batch-1gpu",*TR,["."],".",["train.py","--","--train_data","data_lmdb_release/training","--valid_data","data_lmdb_release/validation",
 "--select_data","MJ-ST","--batch_ratio","0.5-0.5","--Transformation","TPS","--FeatureExtraction","ResNet","--SequenceModeling","BiLSTM","--Prediction","Attn"],{
 "model.num_parameters":T(49600000,"--Transformation TPS --FeatureExtraction ResNet --SequenceModeling BiLSTM --Prediction Attn (TRBA) -> model.py: the paper's Table 8 gives 49.6M parameters for TPS-ResNet-BiLSTM-Attn",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:84 python3 train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.grad_accum":T(1,"train.py:145-170 one optimizer step per batch"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adadelta","train.py:241 --adam not given -> :116 optim.Adadelta",any_of=["Adadelta","adadelta"]),
 "data.num_workers":T(4,"train.py:235 --workers default 4 -> dataset.py:66"),
 "data.pin_memory":T(True,"dataset.py:67 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; README.md:84-88 CUDA_VISIBLE_DEVICES=0 python3 train.py --train_data data_lmdb_release/training --valid_data data_lmdb_release/validation --select_data MJ-ST --batch_ratio 0.5-0.5 --Transformation TPS --FeatureExtraction ResNet --SequenceModeling BiLSTM --Prediction Attn (the README's best model, typed without the CUDA_VISIBLE_DEVICES=0 prefix, which an argv list cannot carry; argparse whose four stage flags pick the model's modules, a batch assembled from one DataLoader per dataset by a ratio, nn.DataParallel over the visible GPUs with the batch multiplied by their count; scene-text recognition, OCR). Not labelled: sharding, micro and global batch (train.py:79 nn.DataParallel over the visible GPUs and :300-307 --batch_size 192, split 96 + 96 over MJ and ST by dataset.py:36-75, multiplied by their count: a property of the machine), image size (32 x 100, not square)")
TD=("sfujim/TD3","34770ccdcb51df6f6c7d85c1ba7e40d71b940d16")
J("td3-halfcheetah-replay-buffer-argparse-1gpu",*TD,["."],".",["main.py","--","--env","HalfCheetah-v2"],{
 "model.num_parameters":T(216328,"TD3.py:14-43 on HalfCheetah (17 observations, 6 actions): actor 17-256-256-6 (71,942) + twin critics 2 x (23-256-256-1) (144,386) trained by two Adam optimizers: 216,328 (the two target copies, TD3.py:81,85, are not trained)",rel_tol=0.1),
 "dist.world_size":T(1,"one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"main.py:45 --batch_size default 256 -> :137 policy.train(replay_buffer, batch_size) -> utils.py:31-32 sample"),
 "batch.grad_accum":T(1,"TD3.py:132-145 one critic step (and every second iteration one actor step) per sampled batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","TD3.py:83,87 torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; README.md:15 python main.py --env HalfCheetah-v2 (argparse whose --policy picks one of three modules, the network sizes from the gym environment's spaces, batches sampled from a numpy replay buffer after 25k random steps; TD3 off-policy RL on MuJoCo HalfCheetah). Not labelled: data loader workers and pin memory (no DataLoader)")
GA=("Diego999/pyGAT","3664f2dc90cbf971564c0bf186dc794f12446d0c")
J("pygat-cora-full-graph-argparse-1gpu",*GA,["."],".",["train.py"],{
 "model.num_parameters":T(92302,"train.py:54-60 GAT(nfeat=1433 Cora features, nhid 8, nclass 7, nheads 8) -> models.py:13,17 and layers.py:19,21: 8 heads x (W 1433 x 8 + a 16 x 1) + output head (W 64 x 7 + a 14 x 1): 92,302",rel_tol=0.1),
 "dist.world_size":T(1,"one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","train.py:61-63 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; python train.py (README.md:24: transductive GAT on Cora; argparse with defaults, the whole graph as one dense adjacency matrix and one forward pass per epoch, no DataLoader; graph). Not labelled: batch sizes (full-graph training: every node each step, not a sample count), data loader workers and pin memory (no DataLoader)")
SR=("CRIPAC-DIG/SR-GNN","e21cfa431f74c25ae6e4ae9261deefe11d1cb488")
J("sr-gnn-diginetica-session-graph-argparse-1gpu",*SR,["pytorch_code","README.md"],"pytorch_code",["main.py","--","--dataset=diginetica"],{
 "model.num_parameters":T(4471300,"pytorch_code/main.py:45-46 n_node 43098 for diginetica, :18 hiddenSize 100 -> pytorch_code/model.py:18-68: item embedding 43098 x 100 (4,309,800) + gated GNN cell (121,100) + attention and transform linears (40,400): 4,471,300",rel_tol=0.1),
 "dist.world_size":T(1,"one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(100,"pytorch_code/main.py:17 --batchSize default 100 -> pytorch_code/model.py:61,128 generate_batch"),
 "batch.grad_accum":T(1,"pytorch_code/model.py:130-135 one optimizer step per batch"),
 "batch.global":T(100,"100 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","pytorch_code/model.py:70 torch.optim.Adam (built inside the model)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H28+"; README.md:33 cd pytorch_code; python main.py --dataset=diginetica (the README's example names the sample dataset; diginetica is the paper's, listed in the usage at README.md:40-60; argparse with camel-case flags, the item count chosen by an if on the dataset name, the optimizer and scheduler created inside the model's __init__, batches sliced by a data class rather than a DataLoader; session-based recommendation). Not labelled: sequence length (sessions vary), data loader workers and pin memory (no DataLoader)")
