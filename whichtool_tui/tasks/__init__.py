"""Task sets: model, strict loading, lint, mutate, generate, writer."""
