admin_ports = [22, 3389]
