"""SimpleNet compiled with dynamic=False, warmed up at batch 32 and called at batch 64: a recompile in the timed region."""
import torch

from .mlp import SimpleNet


def build(device: str) -> dict[str, object]:
    torch.manual_seed(0)
    return {
        "model": SimpleNet().to(device).eval(),
        "warmup_inputs": (torch.randn(32, 512, device=device),),
        "inputs": (torch.randn(64, 512, device=device),),
        "dynamic": False,
    }
