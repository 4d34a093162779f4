"""Description rewrites that are kept only when a held-out routing measurement says they help."""
