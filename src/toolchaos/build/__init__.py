"""Dataset pipeline: generation, screening, hazard assignment, validation and selection."""
