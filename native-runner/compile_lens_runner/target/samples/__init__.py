"""Built-in sample targets: one real file per model, so graph breaks point at real source lines."""

NAMES = ("gatedblock", "mlp", "localopt", "graphbreak", "recompile")
DEFAULT = "gatedblock"  # what `profile` runs with no target: a model whose fused pointwise work makes compiling pay
