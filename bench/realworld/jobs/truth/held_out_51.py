"""The fifty-first held-out set of the jobs benchmark (run.py --set held-out-51): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name and each bare repository name was
grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and appears nowhere as a
name. Parameter counts are labelled only where a published checkpoint's shape gives them."""
from .core import J, T

H51="fifty-first held-out set"

CP=("JunukCha/cot-pose","14c2ccd8b39c81ad8ed7be8a92ec0b82fa0fd67a")
cps="scripts/train.sh"
cpt="train.py"
cpl="utils/load.py"
J("cot-pose-unipose-llava-mistral-7b-qlora-r64-trl-sft-torchrun-4gpu",*CP,["."],".",[cps],{
 "dist.world_size":T(4,cps+":5 torchrun --nproc_per_node=4 --master_port=12345 train.py"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(4,cps+":5 --nproc_per_node=4"),
 "dist.sharding":T("none",cpt+":35-36 the 4-bit model placed whole on each rank (device_map {'': local_rank}); SFTTrainer's DDP, no DeepSpeed/FSDP"),
 "batch.micro":T(1,cpt+":119 per_device_train_batch_size=1"),
 "batch.grad_accum":T(2,cpt+":120 gradient_accumulation_steps=2"),
 "batch.global":T(8,"1 x 2 x 4"),
 "data.seq_len":T(512,cpt+":79-84 tokenizer(truncation=True, max_length=512, padding='max_length'); :121,137 max_seq_length=512"),
 "data.padding":T("max_length",cpt+":83 padding='max_length': every example 512 tokens"),
 "precision.weights_bits":T(4,cpt+":35 load_unipose_model_4bit -> "+cpl+":100-113 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4",cpl+":102 bnb_4bit_quant_type='nf4'"),
 "precision.double_quant":T(False,cpl+":104 bnb_4bit_use_double_quant=False"),
 "optimizer.name":T("adamw_torch",cpt+":129 optim='adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,cpt+":40 model.gradient_checkpointing_enable() (and prepare_model_for_kbit_training, :41)"),
 "data.num_workers":T(0,cpt+":117-130 SFTConfig without dataloader_num_workers: default 0"),
 "compile.enabled":T(False,"no torch_compile in the SFTConfig, no torch.compile in "+cpt),
 "peft.method":T("qlora",cpt+":47-55 LoraConfig + get_peft_model on a 4-bit bitsandbytes model ("+cpl+":100-113)",any_of=["qlora","lora"]),
 "peft.rank":T(64,cpt+":50 r=64"),
},held_out=True,note=H51+"; README.md:36-39 '## 3. Training ... source scripts/train.sh', the job is "+cps+" run from the repository root (torchrun --nproc_per_node=4 --master_port=12345 train.py: a UniPose PoseGPT (LLaVA-1.6-Mistral-7B with a pose VQ-VAE and pose query tokens) loaded from a local merged directory cache/unipose_merged in 4-bit NF4 with bf16 compute, prepare_model_for_kbit_training, LoRA r 64 alpha 16 on the modules listed in data/trainable/target_modules.json, a hub dataset Jucha/cot-poses-data rendered with the mistral_instruct conversation template and padded to 512 tokens, TRL SFTTrainer with a custom LM collator, tensorboard; chain-of-thought text-to-3D-pose generation, multimodal LLM QLoRA SFT). Not labelled: model.ref and model.num_parameters (a local merged checkpoint), precision.mode (no bf16/fp16 in the SFTConfig: the trainer's compute precision is not fixed by the files beyond the 4-bit layers' bf16 compute dtype), data.pin_memory (the installed transformers' default)")

SV=("pymaster17/Spiking-Vocos","69f77d7717622c099afffbb87b9135296fdec770")
svc="configs/vocos-spiking.yaml"
svd="vocos/dataset.py"
sve="vocos/experiment.py"
J("spiking-vocos-snn-vocoder-gan-lightningcli-ddp-1gpu",*SV,["."],".",["train.py","--","fit","--config",svc],{
 "dist.world_size":T(1,svc+":86-88 accelerator gpu, strategy ddp, devices [0]: one GPU, one process"),
 "dist.nodes":T(1,svc+": no num_nodes: Lightning default 1"),
 "dist.devices_per_node":T(1,svc+":88 devices [0]"),
 "batch.micro":T(16,svc+":11 train_params.batch_size 16 -> "+svd+":29-30 DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,svc+":62-89 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("fp32",svc+":62-89 no trainer precision: Lightning default 32"),
 "optimizer.name":T("AdamW",sve+":98-99 torch.optim.AdamW for the discriminators and for the generator, betas (0.8, 0.9)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vocos/"),
 "data.num_workers":T(8,svc+":12 train_params.num_workers 8 -> "+svd+":30"),
 "data.pin_memory":T(True,svd+":30 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",svc+":21-60 a Vocos-style vocoder with a spiking backbone (dim 512, 8 layers) trained from scratch"),
},held_out=True,note=H51+"; README.md:93-96 'python train.py fit --config configs/vocos-spiking.yaml', the job is that command from the repository root (a bare pytorch_lightning LightningCLI(run=False) whose YAML names the data module (VocosDataModule over file lists of 24 kHz wav, 16384-sample crops) and the model (VocosExp: mel-spectrogram features, SpikingVocosBackbone with 4 SNN time steps, an ISTFT head, multi-period and multi-resolution discriminators, two AdamW optimizers alternated per step by optimizer_idx), TensorBoard; spiking-neural-network neural vocoder, GAN audio synthesis). Not labelled: model.ref and model.num_parameters (an in-repository model trained from scratch), data.seq_len (audio crops of 16384 samples, not tokens)")

MQ=("moreh-dev/quickstart","6df4b1e0dec23a8a801b8cebcb81de06c8fe66e2")
mqc="config.yaml"
mqt="train_llm.py"
mqu="train_utils.py"
J("moreh-quickstart-llama3-8b-lora-r64-hf-trainer-accelerate-1proc",*MQ,["."],".",
 ["--","accelerate","launch","--config_file",mqc,mqt,"--lr","0.0001","--model","meta-llama/Meta-Llama-3-8B","--dataset","bitext/Bitext-customer-support-llm-chatbot-training-dataset","--train-batch-size","64","--eval-batch-size","64","--sequence-length","1024","--log-interval","10","--num-epochs","5","--lora","--lora-r","64","--lora-alpha","16","--lora-dropout","0.1","--output-dir","llama3-finetuned-lora"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","README.md:107 --model meta-llama/Meta-Llama-3-8B -> "+mqu+":129-132 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(8030261248,"Meta-Llama-3-8B: 8.03B published (32 layers, hidden 4096, GQA 8 KV heads, MLP 14336, untied 128256-row embedding and head)",rel_tol=0.1),
 "dist.world_size":T(1,mqc+":3 distributed_type NO, :9 num_processes 1"),
 "dist.nodes":T(1,mqc+":8 num_machines 1"),
 "dist.devices_per_node":T(1,mqc+":9 num_processes 1"),
 "dist.sharding":T("none",mqc+":3 distributed_type NO"),
 "batch.micro":T(64,"README.md:108 --train-batch-size 64 -> "+mqt+":65 per_device_train_batch_size"),
 "batch.grad_accum":T(1,mqt+":62-78 TrainingArguments without gradient_accumulation_steps: default 1"),
 "batch.global":T(64,"64 x 1 x 1"),
 "data.seq_len":T(1024,"README.md:110 --sequence-length 1024 -> "+mqu+":38-41 tokenizer(truncation=True, max_length=1024, padding='max_length')"),
 "data.padding":T("max_length",mqu+":41 padding='max_length'"),
 "precision.mode":T("fp32",mqu+":129-132 from_pretrained without torch_dtype (fp32 weights) and "+mqt+":62-78 no bf16/fp16 in TrainingArguments"),
 "optimizer.name":T("adamw_torch",mqt+":68 optim='adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,mqt+":62-78 no gradient_checkpointing; none in "+mqu),
 "data.num_workers":T(0,mqt+":62-78 no dataloader_num_workers: default 0"),
 "compile.enabled":T(False,"no torch_compile, no torch.compile"),
 "peft.method":T("lora","README.md:113 --lora -> "+mqu+":133-140 LoraConfig(target_modules q_proj, v_proj) + get_peft_model",any_of=["lora"]),
 "peft.rank":T(64,"README.md:114 --lora-r 64"),
},held_out=True,note=H51+"; README.md:99-118 'LoRA Fine-tuning', the job is that command run from the repository root (TOKENIZERS_PARALLELISM=true accelerate launch --config_file config.yaml train_llm.py ... --lora --lora-r 64 ...: an argparse script, Meta-Llama-3-8B loaded with trust_remote_code and no dtype, LoRA r 64 alpha 16 on q_proj/v_proj, the Bitext customer-support dataset rendered with the tokenizer's chat template and padded to 1024 tokens, transformers.Trainer with adamw_torch and a cosine schedule, the accelerate config a single process with no distribution; written for Moreh's MoAI platform, which it tries to import first; LLM LoRA SFT). Not labelled: data.pin_memory (the installed transformers' default), model.attn_implementation (not set)")

CF=("codefuse-ai/CodeFuse-DevOps-Model","51e3b9f944a02b0c3fe264c27a7863600b7587a5")
cfs="scripts/devops-model-pt.sh"
cfz="conf/deepspeed_config.json"
cfl="src/llmtuner"
J("codefuse-devops-model-continued-pretraining-llmtuner-torchrun-deepspeed-zero2-offload-8gpu-per-node",*CF,["."],".",[cfs],{
 "dist.devices_per_node":T(8,cfs+":5 torchrun --nproc_per_node=8 (--nnodes=$WORLD_SIZE from the environment)"),
 "dist.sharding":T("zero2",cfs+":6 --deepspeed conf/deepspeed_config.json -> "+cfz+":9-10 zero_optimization stage 2"),
 "dist.offload_optimizer":T("cpu",cfz+":11-14 offload_optimizer device cpu"),
 "dist.overlap_comm":T(False,cfz+":19 overlap_comm false"),
 "dist.contiguous_gradients":T(True,cfz+":20 contiguous_gradients true"),
 "dist.allgather_bucket_size":T(500000000,cfz+":16 allgather_bucket_size 5e8"),
 "dist.reduce_bucket_size":T(500000000,cfz+":18 reduce_bucket_size 5e8"),
 "batch.micro":T(8,cfs+":16 --per_device_train_batch_size 8 ("+cfz+":2 auto)"),
 "batch.grad_accum":T(1,cfs+":18 --gradient_accumulation_steps 1"),
 "data.seq_len":T(2048,cfs+":28 --max_source_length=2048 -> "+cfl+"/dsets/preprocess.py:40-60 stage pt: texts concatenated and cut into blocks of max_source_length tokens"),
 "data.padding":T("packed",cfl+"/dsets/preprocess.py:47-60 documents joined with eos and split into 2048-token blocks, the remainder dropped",any_of=["packed","max_length"]),
 "precision.mode":T("bf16",cfs+":31 --bf16 with "+cfz+":6-8 bf16 enabled: DeepSpeed bf16",any_of=["bf16","amp_bf16"]),
 "memory.gradient_checkpointing":T(True,cfl+"/tuner/core/loader.py:172 prepare_model_for_training(model, finetuning_type) with "+cfl+"/extras/misc.py:65 use_gradient_checkpointing=True by default -> :80 model.gradient_checkpointing_enable()"),
 "data.num_workers":T(8,cfs+":29 --dataloader_num_workers 8"),
 "compile.enabled":T(False,"no torch_compile in "+cfs+"; no torch.compile in src/"),
 "peft.method":T("none",cfs+":13 --finetuning_type full"),
},held_out=True,note=H51+"; README.md:142-146 ('预训练': run scripts/devops-model-pt.sh to continue training the DevOps model on a document corpus), the job is "+cfs+" run from the repository root (nvidia-smi, then torchrun --nproc_per_node=8 --nnodes=$WORLD_SIZE --master_addr=$MASTER_ADDR --node_rank=$RANK src/train_bash.py --deepspeed conf/deepspeed_config.json --stage pt ...: a vendored LLaMA-Efficient-Tuning (llmtuner) copy, HF Seq2Seq-style Trainer for causal-LM pre-training on a corpus registered in data/dataset_info.json, full fine-tuning, DeepSpeed ZeRO-2 with the optimizer offloaded to CPU, bf16, max_steps 1000; continued pre-training of a DevOps domain LLM). Not labelled: model.ref and model.num_parameters (--model_name_or_path path_to_model is a placeholder), dist.world_size, dist.nodes and batch.global (the node count is $WORLD_SIZE from the environment), optimizer.name (no optimizer in the DeepSpeed config and no --optim: the installed transformers' default), data.pin_memory (the installed transformers' default)")

GW=("mmmmayi/Grad-W","1c0b31eec2f9a1bad099f4ead267f75390d47abd")
gws="run.sh"
gwt="train.py"
gwd="Models/dataset.py"
J("grad-w-irm-speech-enhancement-tdnn-sbatch-torchrun-standalone-ddp-1gpu",*GW,["IRM"],"IRM",[gws],{
 "dist.world_size":T(1,"IRM/"+gws+":3 --gres=gpu:1, :7 torchrun --standalone --nnodes=1 --nproc_per_node=1 train.py"),
 "dist.nodes":T(1,"IRM/"+gws+":7 --nnodes=1"),
 "dist.devices_per_node":T(1,"IRM/"+gws+":7 --nproc_per_node=1"),
 "dist.sharding":T("ddp","IRM/"+gwt+":51 init_process_group(nccl), :95 DistributedDataParallel(nnet)"),
 "batch.micro":T(32,"IRM/"+gwt+":28,61 batchsize 32 given to IRMDataset, which groups 32 utterances per item (IRM/"+gwd+":43-51, :69-88 stacks them), loaded with DataLoader(batch_size=1) (IRM/"+gwt+":63-68)"),
 "batch.grad_accum":T(1,"IRM/Trainer/trainer.py:322-331 zero_grad, backward and step every batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half in IRM/"+gwt+" and IRM/Trainer/trainer.py"),
 "optimizer.name":T("Adam","IRM/"+gwt+":106 torch.optim.Adam(..., lr=0.001)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"IRM/"+gwt+":68 num_workers=8"),
 "data.pin_memory":T(False,"IRM/"+gwt+":63-68 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","IRM/"+gwt+":91 multi_TDNN(scale=8) built fresh and trained (resume_epoch None, :32)"),
},held_out=True,note=H51+"; the job is IRM/"+gws+" run from IRM/ (an sbatch header with --gres=gpu:1, then TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --standalone --nnodes=1 --nproc_per_node=1 --rdzv_backend=c10d train.py: a hand-written loop with a module-level configs dict and no argument parser, DistributedSampler over an IRMDataset of pre-grouped 32-utterance 5-second batches with MUSAN noise and RIR augmentation, a multi-scale TDNN mask estimator wrapped in DistributedDataParallel, Adam with an exponential-decrease schedule, a pretrained ResNet speaker model as auxiliary loss (exp/resnet_babble.pt); speaker-aware speech enhancement, ideal-ratio-mask estimation). Not labelled: model.ref and model.num_parameters (an in-repository network), data.seq_len (5-second audio crops, not tokens)")

FR=("YuLiu-LY/Face-Recognition","eea1017311ceb4f4734061b65255c972f4864903")
frs="train.sh"
frm="main.py"
J("face-recognition-resnet-contrastive-pytorch-lightning-argparse-1gpu",*FR,["."],".",[frs],{
 "dist.world_size":T(1,frs+":2 --gpus 1 -> "+frm+":102-108 Trainer(gpus=1, accelerator None)"),
 "dist.nodes":T(1,frm+":102-115 no num_nodes: one node"),
 "dist.devices_per_node":T(1,frs+":2 --gpus 1"),
 "dist.sharding":T("none",frm+":106 accelerator 'ddp' only when gpus > 1: a single device"),
 "batch.micro":T(128,frs+":3 --batch_size 128 (divided by gpus only when gpus > 1, "+frm+":136-137) -> dataset.py:104-110 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,frm+":102-115 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(128,"128 x 1 x 1"),
 "precision.mode":T("fp32",frm+":102-115 no precision: Lightning default 32"),
 "optimizer.name":T("SGD","method.py:124-126 optim.SGD(params, lr=args.lr, weight_decay=5e-4)",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,frs+":7 --num_workers 4 -> dataset.py:108"),
 "data.pin_memory":T(True,"dataset.py:109 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","readme.md:20-21 'To train the model from scratch': model.py FaceModel built fresh ("+frm+":77)"),
},held_out=True,note=H51+"; readme.md:19-25 '## Training ... ./train.sh', the job is "+frs+" run from the repository root (python main.py --gpus 1 --batch_size 128 ... --projection_dim 256 --device '0' --action 'train' ...: an argparse script building a FaceDataModule over preprocessed face crops, a FaceModel (a 64-layer residual CNN with a 256-wide projection) inside a LightningModule with contrastive and cosine-margin losses, SGD with a cosine LambdaLR schedule, pytorch_lightning 1.x Trainer(gpus=..., accelerator='ddp' if several), TensorBoard; face verification). train.sh line 12 passes --log_parh, which is not an option of "+frm+" (only --log_path, :27): argparse stops the job with 'unrecognized arguments' before any training. Not labelled: model.ref and model.num_parameters (an in-repository network), data.image_size (the preprocessed crops' size is set by data_process.py, not by the job)")

SN=("davidguzmanr/siamese-neural-networks","f5ab87c92cddba760b8dbd2e8e33fc7a04cfb1de")
snc="config.yml"
snt="train_lightning.py"
J("siamese-neural-networks-omniglot-lightningcli-config-1gpu",*SN,["siamese"],"siamese",[snt,"--","--config="+snc],{
 "dist.world_size":T(1,"siamese/"+snc+":8 trainer gpus 1"),
 "dist.nodes":T(1,"siamese/"+snc+": no num_nodes: Lightning default 1"),
 "dist.devices_per_node":T(1,"siamese/"+snc+":8 gpus 1"),
 "dist.sharding":T("none","one GPU"),
 "batch.micro":T(128,"siamese/"+snc+":3 model.batch_size 128 -> siamese/"+snt+":109-113 DataLoader(batch_size=128)"),
 "batch.grad_accum":T(1,"siamese/"+snc+":7-16 no accumulate_grad_batches: Lightning default 1"),
 "batch.global":T(128,"128 x 1 x 1"),
 "data.image_size":T(105,"siamese/"+snt+":34-39,96-97 torchvision Omniglot images (105 x 105) with ToTensor only"),
 "precision.mode":T("fp32","siamese/"+snc+":7-16 no precision: Lightning default 32"),
 "optimizer.name":T("Adam","siamese/"+snt+":85-89 torch.optim.Adam(lr, weight_decay)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"siamese/"+snc+":6 model.num_workers 4 -> siamese/"+snt+":112"),
 "data.pin_memory":T(False,"siamese/"+snt+":109-113 DataLoader without pin_memory: default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","siamese/"+snt+":28 SiameseNetwork() built fresh"),
},held_out=True,note=H51+"; siamese/README.md:5-8 'python train_lightning.py --config=config.yml', the job is that command run from siamese/ (LightningCLI(SiameseModel, run=False) from pytorch_lightning.utilities.cli, a Koch-style convolutional siamese network over pairs of Omniglot characters (200k training pairs drawn from the background set, downloaded by torchvision), BCE-with-logits on the pair score, Adam, early stopping on val_loss, then a test on the best checkpoint; one-shot character verification). Not labelled: model.ref and model.num_parameters (an in-repository network)")

SS=("KoyoImai/SSOCL","7b1eede26abffe78efbbc5ccaa7a44c41287272d")
ssc="configs/default/default_ours.yaml"
ssm="main.py"
J("ssocl-resnet50-online-continual-ssl-imagenet21k-hydra-distributed-launch-ddp-4gpu",*SS,["."],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=4","--use_env",ssm,"--config-path","./configs/default/","--config-name","default_ours"],{
 "dist.world_size":T(4,"README.md:42 python -m torch.distributed.launch --nproc_per_node=4 --use_env main.py"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(4,"README.md:42 --nproc_per_node=4"),
 "dist.sharding":T("ddp",ssm+":70-72 init_process_group(nccl) -> models/__init__.py:66 DDP(model, device_ids=[local_rank])"),
 "batch.micro":T(32,ssc+":41 optimizer.train.batch_size 128 divided by the world size in "+ssm+":92 (128 / 4 = 32; the stream/mem split at :95-98 does not apply: no stream_batch_size in the config) -> dataloaders/__init__.py:57-62 MinRedBufferBatchSampler(batch_size=32) per rank"),
 "batch.grad_accum":T(1,"one optimizer step per batch of the training loop"),
 "batch.global":T(128,ssc+":41 batch_size 128 (32 x 4)"),
 "data.image_size":T(224,ssc+":29 dataset.size 224"),
 "precision.mode":T("fp32",ssc+":104-107 amp.use_amp True with fp16 is never used: "+ssm+":188-189 make_amp commented out, scaler None, and no autocast anywhere in the repository"),
 "optimizer.name":T("LARS","optimizers/__init__.py:16-30 method ours: optim.SGD(momentum 0.9, weight_decay 1e-4) wrapped in LARSWrapper(eta=0.005, clip=True)",any_of=["LARS","SGD","sgd","lars"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,ssc+":112 workers 4 -> "+ssm+":182"),
 "data.pin_memory":T(False,ssm+":182 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",ssc+":17-20 a ResNet-50 encoder with a 4096/1024 projector trained from scratch by self-supervision"),
},held_out=True,note=H51+"; README.md:40-43 (the authors' method, 'Imai'), the job is python -m torch.distributed.launch --nproc_per_node=4 --use_env main.py --config-path ./configs/default/ --config-name default_ours run from the repository root (a @hydra.main script whose YAML selects the method, a ResNet-50 with multi-crop (10 crops) self-supervised losses, an ImageNet-21K data stream read in a fixed order from file lists with a MinRed replay buffer of 65536 and a buffer batch sampler, LARS over SGD, resumable CheckpointManager; the repository's run_ours.sh runs a debug config on two GPUs instead; self-supervised online continual learning). Not labelled: model.ref and model.num_parameters (a torchvision-style ResNet-50 with a custom projector and multi-crop head)")

DT=("MeshchaninovViacheslav/DiffusionTextGeneration-cond-ca","b15deb1b41f52f133b150ebd9da4fa15604f1fa9")
dts="train.sbatch"
dtc="create_config.py"
dth="diffusion_holder.py"
J("diffusion-text-generation-bert-embedding-diffusion-wikipedia-sbatch-torchrun-ddp-8gpu",*DT,["."],".",[dts],{
 "dist.world_size":T(8,dts+":4 --gpus=8, :14 torchrun --nproc_per_node=8 train_diffusion.py"),
 "dist.nodes":T(1,dts+":5 --nodes=1"),
 "dist.devices_per_node":T(8,dts+":14 --nproc_per_node=8"),
 "dist.sharding":T("ddp",dth+":82-87 DistributedDataParallel(score_estimator) (config.ddp True, "+dtc+":79)"),
 "batch.micro":T(64,dtc+":32 training.batch_size 512 -> train_diffusion.py:12 batch_size_per_gpu = 512 // world size 8 -> "+dth+":279-285 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(1,dth+":300-319 zero_grad, backward and step every batch"),
 "batch.global":T(512,dtc+":32 batch_size 512 (64 x 8)"),
 "data.seq_len":T(128,dtc+":68 max_sequence_len 128 -> "+dth+":406-415 tokenizer(padding='max_length', max_length=128, truncation=True)"),
 "data.padding":T("max_length",dth+":409 padding='max_length'"),
 "precision.mode":T("fp32",dth+":386-420 the bf16 autocast covers only the frozen encoder under no_grad; the score estimator's loss (:422) and backward run outside it in fp32 (a GradScaler scales the fp32 loss, :273,302)"),
 "optimizer.name":T("AdamW",dth+":250-256 torch.optim.AdamW(lr 2e-4, weight_decay 0.01, betas (0.9, 0.98))",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(30,dth+":282 num_workers=30"),
 "data.pin_memory":T(False,dth+":283 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",dth+":76-79 a ScoreEstimatorEMB (BERT-base-shaped config, "+dtc+":96-115) trained from scratch; the bert-base-cased encoder and the decoder are frozen (eval, no_grad)"),
},held_out=True,note=H51+"; the job is "+dts+" run from the repository root (an sbatch header with --gpus=8 --nodes=1, python stats.py (absent from the repository at this commit), then torchrun --nproc_per_node=8 train_diffusion.py: an ml_collections config built in create_config.py with no command-line options, setup_ddp, a DiffusionRunner that encodes Wikipedia text with a frozen bert-base-cased encoder normalised by precomputed statistics, trains a 12-layer 768-wide BERT-style score estimator with self-conditioning under an SDE (x_0 prediction), a frozen BERT decoder from a local .pth, AdamW with a warmup-cosine schedule, EMA, wandb; latent diffusion for text generation). The README's command (README.md:60) names train_diffuse_bert.py, which no longer exists. Not labelled: model.ref and model.num_parameters (an in-repository score network on a BertConfig with extra input/time layers)")

SV5=("ivanpanshin/segment-vasculature-5th-place","716f805f297ef1a0ef3ba916c1493a545b1ee205")
svs="bash_scripts/train_effnet_v2_m_kidney1.sh"
svy="configs/train.yaml"
svr="segment_vasculature/trainer/trainer.py"
J("segment-vasculature-unet-effnetv2-m-kidney-hydra-torchrun-ddp-amp-fp16-1gpu",*SV5,["."],".",[svs],{
 "dist.world_size":T(1,svs+":3 torchrun --nproc_per_node=$N_GPUS with README.md:36-39 'export N_GPUS=1' before README.md:41-44 runs this script"),
 "dist.nodes":T(1,"torchrun without --nnodes: one node"),
 "dist.devices_per_node":T(1,"README.md:38 N_GPUS=1"),
 "dist.sharding":T("ddp","segment_vasculature/train.py:24 init_process_group(nccl); segment_vasculature/callbacks/model.py:175 DDP(trainer.model, device_ids=[device])"),
 "batch.micro":T(16,svy+":11 loader b16_w8 -> configs/loader/b16_w8.yaml:3 batch_size 16"),
 "batch.grad_accum":T(1,svr+":91-102 zero_grad, backward and optimizer step every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("amp_fp16",svy+":9 accelerate gpu_amp -> configs/accelerate/gpu_amp.yaml:2-3 amp true, dtype empty -> "+svr+":51-59 GradScaler, amp_dtype None, :92 torch.cuda.amp.autocast(enabled=True, dtype=None): float16 autocast",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW",svy+":7 optimizer adamw -> configs/optimizer/adamw.yaml torch.optim.AdamW lr 3e-4",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in segment_vasculature/"),
 "data.num_workers":T(8,"configs/loader/b16_w8.yaml:5 num_workers 8"),
 "data.pin_memory":T(True,"configs/loader/b16_w8.yaml:6 pin_memory True"),
 "compile.enabled":T(False,"no torch.compile in segment_vasculature/"),
 "peft.method":T("none","configs/model/unet_2d_effnet_m_upscale.yaml:1-6 a segmentation_models_pytorch-style U-Net on a timm tf_efficientnetv2_m.in21k_ft_in1k encoder, all trained"),
},held_out=True,note=H51+"; README.md:36-44 (export N_GPUS=1, then 'bash bash_scripts/train_effnet_v2_m_kidney1.sh'), the job is "+svs+" run from the repository root (torchrun --nproc_per_node=$N_GPUS segment_vasculature/train.py model=unet_2d_effnet_m_upscale loss=ce_dice_focal dataset=[train/kidney_1,val/kidney_3] transform=medium logging.run_name=effnet_m_kidney_1 trainer.trainer_hyps.num_epochs=40: a @hydra.main train script composing trainer/model/loss/optimizer/scheduler/loader/sampler groups from configs/, a hand-written Trainer with callbacks that wraps the model in DDP, fp16 autocast with a GradScaler, a distributed sampler, MLflow logging; 2D U-Net with an EfficientNetV2-M encoder (1 input channel, x2 upscale head) for kidney blood-vessel segmentation from HiP-CT slices, Kaggle 5th place). Not labelled: model.ref and model.num_parameters (a timm encoder inside an in-repository U-Net), data.image_size (configs/dataset/train/kidney_1.yaml:4 crop_size 512 from larger slices, resized by the augmentations)")

LV=("Dune-Z/LLM-as-Latent-Variable-Model","772899fd159dd659d1328f87d1b7e03fabacaca2")
lvs="scripts/gemma-2b-it.sh"
lvc="configs/train_config.yaml"
lvz="configs/gemma-2b-it-deepspeed_config.json"
lvu="src/utils.py"
J("llm-as-latent-variable-gemma-2b-it-restem-hydra-hf-trainer-deepspeed-zero3-offload-1proc",*LV,["."],".",
 ["--","python","src/train.py","model_name_or_path=google/gemma-2b-it","dataset_path=outputs/gemma-2b-it-restem/round-1/sample_output.jsonl","trainer.output_dir=outputs/gemma-2b-it-restem/round-1","trainer.deepspeed="+lvz],{
 "model.ref":T("google/gemma-2b-it",lvs+":7,30,49 model_name_or_path=$CURRENT_MODEL_PATH, the base google/gemma-2b-it in the first inner round -> "+lvu+":157-163 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(2506172416,"google/gemma-2b-it: 2.51B published (18 layers, hidden 2048, MQA, MLP 16384, tied 256000-row embedding)",rel_tol=0.1),
 "dist.world_size":T(1,lvs+":48 CUDA_VISIBLE_DEVICES=0 python src/train.py: one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,lvs+":48 CUDA_VISIBLE_DEVICES=0"),
 "dist.sharding":T("zero3",lvs+":52 trainer.deepspeed="+lvz+" -> "+lvz+":10-11 zero_optimization stage 3 (the HF Trainer starts DeepSpeed in the single process)"),
 "dist.offload_optimizer":T("cpu",lvz+":12-15 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",lvz+":16-19 offload_param device cpu"),
 "dist.overlap_comm":T(True,lvz+":20 overlap_comm true"),
 "dist.contiguous_gradients":T(True,lvz+":21 contiguous_gradients true"),
 "dist.reduce_bucket_size":T(500000000,lvz+":22 reduce_bucket_size 5e8"),
 "dist.stage3_prefetch_bucket_size":T(50000000,lvz+":23 stage3_prefetch_bucket_size 5e7"),
 "dist.stage3_max_live_parameters":T(1000000000,lvz+":24 stage3_max_live_parameters 1e9"),
 "batch.micro":T(8,lvc+":8 per_device_train_batch_size 8 ("+lvz+":2 train_micro_batch_size_per_gpu 8)"),
 "batch.grad_accum":T(4,lvc+":9 gradient_accumulation_steps 4 ("+lvz+":3)"),
 "batch.global":T(32,"8 x 4 x 1"),
 "data.padding":T("dynamic",lvu+":128 tokenizer(inputs) without padding, :134 DataCollatorForSeq2Seq(padding=True): each batch padded to its longest ("+lvc+":19 group_by_length true)"),
 "precision.mode":T("bf16",lvc+":16-17 fp16 false, bf16 true -> "+lvu+":162 weights loaded in bfloat16; "+lvz+":27-29 bf16 enabled",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW",lvz+":4-9 DeepSpeed optimizer type AdamW, lr 1e-5",any_of=["AdamW","adamw","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",lvc+":3 attention_impl flash_attention_2 -> "+lvu+":161 and src/train.py:27"),
 "memory.gradient_checkpointing":T(False,lvc+":4-21 no gradient_checkpointing in the trainer arguments"),
 "data.num_workers":T(0,lvc+":4-21 no dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no torch_compile, no torch.compile"),
 "peft.method":T("none","src/train.py:26-37 the whole model trained, no adapters"),
},held_out=True,note=H51+"; "+lvs+" is a ReST-EM loop (five rounds of: sample MATH solutions with src/sample.py, evaluate with src/evaluate.py, then retrain while the accuracy improves, converting each checkpoint with zero_to_fp32.py), so the job is its training command of the first round given directly from the repository root (TOKENIZERS_PARALLELISM=false CUDA_VISIBLE_DEVICES=0 python src/train.py model_name_or_path=google/gemma-2b-it dataset_path=.../round-1/sample_output.jsonl trainer.output_dir=.../round-1 trainer.deepspeed=configs/gemma-2b-it-deepspeed_config.json, lines 48-52 with the loop variables of round 1: a @hydra.main script whose train_config.yaml trainer block becomes TrainingArguments, Gemma-2B-it in bf16 with flash-attention 2, a Trainer subclass with a custom shifted cross-entropy on the answer tokens, the model's own correct samples as training data, DeepSpeed ZeRO-3 with optimizer and parameters offloaded to CPU in one process; self-training of an LLM on math reasoning). Not labelled: data.seq_len (the sampled solutions' lengths), data.pin_memory (the installed transformers' default)")
