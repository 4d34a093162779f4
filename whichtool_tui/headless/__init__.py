"""The --no-ui face: progress to stderr, results to stdout."""
