locals {
  office = { name = "office", value = "203.0.113.0/24" }
}

resource "google_sql_database_instance" "legacy" {
  name             = "legacy-pg"
  database_version = "POSTGRES_16"
  region           = "europe-west1"

  settings {
    tier = "db-custom-2-7680"
    ip_configuration {
      # ipv4_enabled left out: the provider's default is true
      authorized_networks {
        name  = local.office.name
        value = local.office.value
      }
      authorized_networks {
        name  = "anywhere"
        value = "0.0.0.0/0"
      }
    }
  }
}

resource "google_sql_database_instance" "private" {
  name             = "private-pg"
  database_version = "POSTGRES_16"
  region           = "europe-west1"

  settings {
    tier = "db-custom-2-7680"
    ip_configuration {
      ipv4_enabled    = false
      private_network = "projects/${var.project}/global/networks/default"
      authorized_networks {
        name  = "anywhere"
        value = "0.0.0.0/0"
      }
    }
  }
}

resource "google_sql_database_instance" "office" {
  name             = "office-pg"
  database_version = "POSTGRES_16"
  region           = "europe-west1"

  settings {
    tier = "db-custom-2-7680"
    ip_configuration {
      authorized_networks {
        name  = local.office.name
        value = local.office.value
      }
    }
  }
}
