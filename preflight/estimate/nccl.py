"""NCCL's communicator buffers: GPU memory the process holds outside PyTorch's allocator (est26).

A data-parallel job (DDP, FSDP, DeepSpeed ZeRO) creates one NCCL communicator per process group.
NCCL allocates its connection buffers with ``cudaMalloc``/``cuMem*`` itself, not through PyTorch's
caching allocator, so they are in ``nvidia-smi``'s figure and take memory the allocator cannot
have, but are in neither ``memory_allocated`` nor ``memory_reserved``.

Traced from NCCL's source (NVIDIA/nccl, ``src/init.cc`` ``computeBuffSizes``,
``src/include/device.h``, ``src/transport/p2p.cc`` ``p2pSendSetup``/``p2pRecvSetup``):

* every connection has one buffer per protocol: LL ``NCCL_LL_LINES_PER_THREAD (8) x
  NCCL_LL_MAX_NTHREADS (512) x NCCL_STEPS (8) x sizeof(ncclLLFifoLine) (16)`` = 512 KiB, LL128
  ``NCCL_LL128_ELEMS_PER_THREAD (120) x NCCL_LL128_MAX_NTHREADS (640) x NCCL_STEPS x 8`` =
  4,915,200 B and Simple ``NCCL_BUFFSIZE`` = 4 MiB (``DEFAULT_BUFFSIZE``);
* the receiving end holds LL and LL128 (and Simple unless the sender reads it over NVLink),
  the sending end a 4 KiB ``ncclSendMem`` (plus Simple in read mode); each end is rounded up to
  ``CUDA_IPC_MIN`` = 2 MiB (``ALIGN_SIZE``). Either way one connection costs 12 MiB (6 + 6 in
  read mode, 2 + 10 otherwise);
* every rank sends to one ring neighbour and receives from the other on each channel: one
  connection's ends, 12 MiB per channel. The tree inside a node is a chain; a rank that is not
  at the chain's end adds a connection to the ring's other direction (another 12 MiB per channel).
  NCCL before 2.22 connects rings and trees when the communicator is created ("Connected all
  trees"); from 2.22 (``NCCL_RUNTIME_CONNECT=1``) only what the first collectives use;
* the number of channels depends on the links: 24 collective channels on NVLink A100/H100
  (NCCL 2.20 logs of A100-SXM4-80GB x 2 and x 4; p5.48xlarge 8 x H100), 12 on V100-SXM2
  (NCCL 2.27, 2 x V100-SXM2-32GB), 2 on PCIe (NCCL log of 4 GPUs over ``P2P/CUMEM/read``).
  GPUs without peer-to-peer access (most GeForce cards) connect through host memory (the SHM
  transport): no GPU buffers.

Checked against a published measurement this module was not built from (NVIDIA/nccl#964: one
PyTorch process group on 4 x A100 with NVLink, a 4 MB all-reduce, then the memory it took): 544 MB
for a group of two GPUs, 688 MB for three or four. The buffers traced here are 288 MiB and 576 MiB;
the rest (NCCL's device code loaded into the context, its work queues) is not traced, so the
measured figures are the interval's top on NVLink and the point stays at the buffers.

Not charged: NVLink SHARP (NVLS) buffers on NVSwitch Hopper systems, point-to-point channels
(send/recv, pipeline parallelism), extra process groups (hybrid sharding), NCCL's work FIFO and
device code.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Tuple

MIB = 2 ** 20
#: DEFAULT_LL_BUFFSIZE: NCCL_LL_LINES_PER_THREAD x NCCL_LL_MAX_NTHREADS x NCCL_STEPS x 16 B
LL_BUFFSIZE = 8 * 512 * 8 * 16
#: DEFAULT_LL128_BUFFSIZE: NCCL_LL128_ELEMS_PER_THREAD x NCCL_LL128_MAX_NTHREADS x NCCL_STEPS x 8 B
LL128_BUFFSIZE = 120 * 640 * 8 * 8
#: DEFAULT_BUFFSIZE (the Simple protocol; NCCL_BUFFSIZE)
SIMPLE_BUFFSIZE = 4 * MIB
#: ncclSendMem / ncclRecvMem (one MEM_ALIGN page each)
CONN_HEADER = 4096
#: CUDA_IPC_MIN: each end of a connection is rounded up to it
IPC_ALIGN = 2 * MIB
#: collective channels by link (see the module docstring for the logs)
CHANNELS_NVLINK = 24
CHANNELS_NVLINK_VOLTA = 12
CHANNELS_PCIE = 2
#: catalog names of NVIDIA GPUs always on NVLink/NVSwitch boards (SXM modules; H200, B200 and
#: GB200 are sold as such); A800/H800/H20/GH200 exist in more than one form: unknown
#: NVIDIA/nccl#964 (4 x A100 NVLink, PyTorch): memory one process group took, two GPUs / more
#: ("MB" taken as MiB, the larger reading): the interval's top on NVLink
MEASURED_NVLINK_TWO = 544 * MIB
MEASURED_NVLINK_MORE = 688 * MIB
_NVLINK_NAME = r"(sxm|^h200|^b200|^gb200)"
_EITHER_NAME = r"^(a800|h800|h20-|gh200)"


def _align(size: int) -> int:
    return -(-size // IPC_ALIGN) * IPC_ALIGN


def connection_bytes(read: bool = True) -> int:
    """GPU bytes of one connection, both ends (``p2pSendSetup`` + ``p2pRecvSetup``)."""
    if read:   # the sender holds Simple, the receiver LL and LL128
        send = CONN_HEADER + SIMPLE_BUFFSIZE
        recv = CONN_HEADER + LL_BUFFSIZE + LL128_BUFFSIZE
    else:
        send = CONN_HEADER
        recv = CONN_HEADER + LL_BUFFSIZE + LL128_BUFFSIZE + SIMPLE_BUFFSIZE
    return _align(send) + _align(recv)


def link(gpu: Any) -> Optional[str]:
    """``"nvlink"``, ``"nvlink-volta"``, ``"pcie"``, ``"other"`` (not NVIDIA: RCCL/HCCL, not
    charged) or None (unknown: a GPU sold in both forms, or no GPU)."""
    if gpu is None:
        return None
    if str(getattr(gpu, "vendor", "nvidia")) != "nvidia":
        return "other"
    name = str(getattr(gpu, "name", "")).lower()
    if re.search(_EITHER_NAME, name):
        return None
    if re.search(_NVLINK_NAME, name):
        return "nvlink-volta" if name.startswith("v100") else "nvlink"
    return "pcie"


def buffer_bytes(world_size: int, gpu_link: Optional[str]) -> Tuple[int, int, int]:
    """(low, point, high) bytes of one communicator's buffers on one GPU; zeros on one GPU."""
    if world_size <= 1 or gpu_link == "other":
        return 0, 0, 0
    conn = connection_bytes()
    pairs_hi = 2 if world_size > 2 else 1      # the chain tree's second connection
    nv = CHANNELS_NVLINK_VOLTA if gpu_link == "nvlink-volta" else CHANNELS_NVLINK
    measured = MEASURED_NVLINK_MORE if world_size > 2 else MEASURED_NVLINK_TWO
    if gpu_link in ("nvlink", "nvlink-volta"):
        # point: rings and trees connected at start-up (NCCL < 2.22); low: the ring alone;
        # top: the published whole-communicator figure (buffers plus what is not traced)
        return nv * conn, nv * conn * pairs_hi, max(nv * conn * pairs_hi, measured)
    pcie = CHANNELS_PCIE * conn * pairs_hi
    if gpu_link == "pcie":
        return 0, pcie, pcie                    # low: the SHM transport (host memory)
    return 0, pcie, max(CHANNELS_NVLINK * conn * pairs_hi, measured)   # unknown: PCIe .. NVLink
