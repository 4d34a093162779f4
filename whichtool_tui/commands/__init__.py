"""One module per command: ``configure`` declares flags (cheap), ``execute`` does the work."""
