"""Built-in sample targets: one real file per model, so graph breaks point at real source lines."""

NAMES = ("mlp", "localopt", "graphbreak", "recompile")
