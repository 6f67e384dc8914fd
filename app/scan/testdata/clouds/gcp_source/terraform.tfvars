ssh_sources = ["0.0.0.0/0"]
