"""Observing an unmodified script or notebook: its regions (what torch.compile returned), their calls, captured
inputs, replays and report entries."""
