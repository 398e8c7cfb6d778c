"""PF1040 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

BAD_EXAMPLES = [
    # pytorch issue 23544: the device is chosen with is_available() at import time, the GPU id set in main()
    textwrap.dedent("""
    import argparse
    import os

    import torch
    import torch.nn as nn

    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", default="2")
        args = parser.parse_args()
        os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu  # warning: PF1040
        model = nn.Linear(10, 2).to(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(10):
            loss = model(torch.randn(4, 10, device=device)).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()


    if __name__ == "__main__":
        main()
"""),
    # pytorch issue 9158 / deep-person-reid issue 267: the variable set inside main() after a CUDA call there
    textwrap.dedent("""
    import os
    import sys

    import torch
    from torchvision.models import resnet50


    def main(gpu_devices):
        print("GPUs:", torch.cuda.get_device_name(0))
        os.environ['CUDA_VISIBLE_DEVICES'] = gpu_devices  # warning: PF1040
        model = resnet50(num_classes=751).cuda()
        opt = torch.optim.Adam(model.parameters(), lr=3e-4)
        return model, opt


    main(sys.argv[1])
"""),
    # alibaba/EasyNLP issue 35: main() asks a helper for the device (it queries the GPU name), then sets the GPU list
    textwrap.dedent("""
    import os
    import sys

    import torch
    from torch import nn


    def get_device():
        print("cuda:", torch.cuda.get_device_name(0))
        return torch.device("cuda")


    def main(gpus):
        device = get_device()
        os.environ["CUDA_VISIBLE_DEVICES"] = gpus  # warning: PF1040
        model = nn.Linear(768, 2).to(device)
        return torch.optim.AdamW(model.parameters(), lr=2e-5)


    if __name__ == "__main__":
        main(sys.argv[1])
"""),
    # module-level script: the model is moved to the GPU, then the second job's GPUs are chosen
    textwrap.dedent("""
    import os
    import torch
    import torch.nn as nn

    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).cuda()
    os.environ.update({"CUDA_VISIBLE_DEVICES": "2,3"})  # warning: PF1040
    model = nn.DataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
"""),
]

GOOD_EXAMPLES = [
    # the fix: the variable is set at the top, before torch is imported or CUDA is touched
    textwrap.dedent("""
    import os
    os.environ["CUDA_VISIBLE_DEVICES"] = "2"

    import torch
    import torch.nn as nn

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(10, 2).to(device)
"""),
    # set first thing in main(); the module level does not touch CUDA (device_count is NVML-based on torch 2)
    textwrap.dedent("""
    import argparse
    import os

    import torch

    N_GPUS = torch.cuda.device_count()


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", default="1")
        args = parser.parse_args()
        os.environ["CUDA_VISIBLE_DEVICES"] = args.gpu
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(8, 1).to(device)
        return model


    if __name__ == "__main__":
        main()
"""),
    # tricky: a launcher checks CUDA, then sets the variable for the worker processes it spawns; each worker
    # is a new process that reads the new value when it initialises CUDA
    textwrap.dedent("""
    import os
    import subprocess
    import sys

    import torch

    assert torch.cuda.is_available(), "needs a GPU"
    for i, gpus in enumerate(["0,1", "2,3"]):
        os.environ["CUDA_VISIBLE_DEVICES"] = gpus
        subprocess.Popen([sys.executable, "train.py", "--run", str(i)])
"""),
    # tricky: the variable goes into a copy of the environment for the child, not this process's
    textwrap.dedent("""
    import os
    import subprocess

    import torch

    if torch.cuda.is_available():
        env = os.environ.copy()
        env["CUDA_VISIBLE_DEVICES"] = "1"
        subprocess.run(["python", "eval.py"], env=env, check=True)
"""),
    # tricky: the CUDA call is in a helper the script only calls after main() set the variable
    textwrap.dedent("""
    import os

    import torch


    def report():
        print(torch.cuda.get_device_name(0))


    def main():
        os.environ["CUDA_VISIBLE_DEVICES"] = "3"
        report()
        model = torch.nn.Linear(4, 4).cuda()
        return model


    if __name__ == "__main__":
        main()
"""),
]
