"""Eager against compiled: the one paired measurement, timing loops, the host's speed, the speedup and its interval,
profiles and correctness. Knows nothing of targets, scripts or ranks."""
