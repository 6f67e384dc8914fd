locals {
  everywhere = ["0.0.0.0/0"]
  web_ports  = ["80", "443"]
}

resource "google_compute_firewall" "ssh" {
  name          = "allow-ssh"
  network       = "default"
  source_ranges = var.ssh_sources
  target_tags   = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}

# No source at all: GCP applies the rule to 0.0.0.0/0.
resource "google_compute_firewall" "postgres" {
  name        = "allow-postgres"
  network     = "default"
  target_tags = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["5432"]
  }
}

resource "google_compute_firewall" "everything" {
  name          = "allow-all"
  network       = "default"
  source_ranges = local.everywhere
  source_tags   = ["bastion"] # tags add sources; they do not narrow the ranges
  target_tags   = ["web"]

  allow {
    protocol = "all"
  }
}

resource "google_compute_firewall" "internal" {
  name          = "allow-internal"
  network       = "default"
  source_ranges = ["10.128.0.0/9"]
  target_tags   = ["web"]

  dynamic "allow" {
    for_each = ["tcp", "udp"]
    content {
      protocol = allow.value
      ports    = ["0-65535"]
    }
  }
}

resource "google_compute_firewall" "from_tags" {
  name        = "allow-ssh-from-bastion"
  network     = "default"
  source_tags = ["bastion"]
  target_tags = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}

resource "google_compute_firewall" "web" {
  name          = "allow-web"
  network       = "default"
  source_ranges = concat(local.everywhere, ["::/0"])
  target_tags   = ["web"]

  allow {
    protocol = "tcp"
    ports    = local.web_ports
  }
  allow {
    protocol = "icmp"
  }
}

resource "google_compute_firewall" "egress" {
  name               = "allow-egress"
  network            = "default"
  direction          = "EGRESS"
  destination_ranges = local.everywhere
  target_tags        = ["web"]

  allow {
    protocol = "all"
  }
}

resource "google_compute_firewall" "disabled" {
  name          = "allow-rdp-off"
  network       = "default"
  disabled      = true
  source_ranges = local.everywhere
  target_tags   = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["3389"]
  }
}

resource "google_compute_address" "nat" {
  name         = "nat"
  address_type = "EXTERNAL"
  region       = "europe-west1"
}

resource "google_compute_firewall" "nat" {
  name          = "allow-from-nat"
  network       = "default"
  source_ranges = ["${google_compute_address.nat.address}/32"] # known only after apply
  target_tags   = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}

resource "google_compute_firewall" "metrics" {
  name          = "allow-metrics"
  network       = "default"
  source_ranges = local.everywhere
  target_tags   = ["web"]

  allow {
    protocol = "tcp"
    ports    = ["9100-9104"]
  }
}
