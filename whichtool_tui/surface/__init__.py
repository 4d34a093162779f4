"""What a server offers (its ``tools/list``), and the static review of it."""
