"""torchrun jobs: launching and stopping ranks, each rank's entry and observer, merging their reports, divergence,
collectives and stacks."""
