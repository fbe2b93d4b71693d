"""Compiler logs made elsewhere (`inspect`): TORCH_TRACE logs of any run, one per rank, or the folders of a job run
under `attach`, read into a report with no torch needed."""
