"""Compile Lens native runner: compiles a model with torch.compile, times and profiles it, writes report.json."""

__version__ = "0.3.0"
