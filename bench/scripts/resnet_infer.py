"""A CNN inference loop: torchvision ResNet-50, fp16 (CPU: ResNet-18, fp32), channels-last, batch 32, compiled."""

import torch
import torchvision
from _plain import DEVICE, SMALL, Steps

torch.manual_seed(0)
BATCH, SIZE, STEPS = (4, 64, 30) if SMALL else (32, 224, 120)
model = (torchvision.models.resnet18() if SMALL else torchvision.models.resnet50()).eval().to(DEVICE)
dtype = torch.float16 if DEVICE == "cuda" else torch.float32
model = model.to(dtype=dtype, memory_format=torch.channels_last)
compiled = torch.compile(model)
batches = [
    torch.randn(BATCH, 3, SIZE, SIZE, device=DEVICE, dtype=dtype).to(memory_format=torch.channels_last)
    for _ in range(4)
]
clock = Steps("resnet_infer", skip=10)
with torch.inference_mode():
    for i in range(STEPS):
        clock.tick()
        compiled(batches[i % 4]).argmax(-1)
    clock.tick()
clock.report()
