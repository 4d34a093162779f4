"""Docker target: placeholder replaced below."""
