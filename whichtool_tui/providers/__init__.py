"""Model back-ends over httpx, plus the offline `mock` and `keyword` providers."""
