"""Model clients and the provider registry."""
