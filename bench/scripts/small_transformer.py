"""The issue's new-user script: a small transformer compiled once, called at a few sequence lengths.

    python3 bench/scripts/small_transformer.py [cpu|cuda]
    PYTHONPATH=native-runner python3 -m compile_lens_runner profile --script bench/scripts/small_transformer.py --device cuda -- cpu

The device is the script's own choice (argv[1], default cuda when available): `--device` does not move a
script's tensors, so the same script compiles C++ kernels on `cpu` and Triton kernels on `cuda`.
"""

import sys
import time

import torch

device = sys.argv[1] if len(sys.argv) > 1 else ("cuda" if torch.cuda.is_available() else "cpu")
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, batch_first=True)
model = torch.compile(torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).to(device).eval())
with torch.no_grad():
    for seq in (64, 128, 256):
        for call in range(3):
            x = torch.randn(8, seq, 256, device=device)
            t0 = time.perf_counter()
            model(x)
            if device == "cuda":
                torch.cuda.synchronize()
            print(f"seq {seq} call {call}: {time.perf_counter() - t0:.3f} s", flush=True)
