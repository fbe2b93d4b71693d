"""The parent process: supervises the worker (or torchrun's ranks), enforces the timeout and cancel, finishes the
report and places its folder."""
