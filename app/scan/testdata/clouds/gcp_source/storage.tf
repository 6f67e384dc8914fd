# Cloud Storage: the same resources as ../gcp_plan.json.

resource "google_storage_bucket" "site" {
  name          = "acme-public-site"
  location      = var.location
  force_destroy = false

  website {
    main_page_suffix = "index.html"
    not_found_page   = "404.html"
  }
}

resource "google_storage_bucket_iam_member" "site_public" {
  bucket = google_storage_bucket.site.name
  role   = "roles/storage.objectViewer"
  member = "allUsers"
}

resource "google_storage_bucket" "reports" {
  name                        = "acme-reports"
  location                    = var.location
  public_access_prevention    = "enforced"
  uniform_bucket_level_access = true
}

resource "google_storage_bucket_iam_binding" "reports_public" {
  bucket  = google_storage_bucket.reports.name
  role    = "roles/storage.objectViewer"
  members = ["allUsers", "group:analysts@acme.example"]
}

resource "google_storage_bucket" "downloads" {
  name                        = "acme-downloads"
  location                    = var.location
  uniform_bucket_level_access = false
}

resource "google_storage_bucket_acl" "downloads" {
  bucket         = google_storage_bucket.downloads.name
  predefined_acl = "publicRead"
}

resource "google_storage_bucket" "uniform" {
  name                        = "acme-uniform"
  location                    = var.location
  uniform_bucket_level_access = true
}

resource "google_storage_bucket_acl" "uniform" {
  bucket      = google_storage_bucket.uniform.name
  role_entity = ["OWNER:project-owners-1234", "READER:allUsers"]
}

resource "google_storage_bucket" "private" {
  name     = "acme-private"
  location = var.location
}

resource "google_service_account" "reader" {
  account_id   = "reader"
  display_name = "reader"
}

resource "google_storage_bucket_iam_member" "private_reader" {
  bucket = google_storage_bucket.private.name
  role   = "roles/storage.objectViewer"
  member = google_service_account.reader.member # known only after apply
}

resource "google_storage_bucket_iam_member" "private_writer" {
  bucket = google_storage_bucket.private.name
  role   = "roles/storage.objectCreator" # creates objects, reads none
  member = "allUsers"
}
