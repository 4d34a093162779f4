"""Everything Textual lives here; nothing else in the package imports textual."""
