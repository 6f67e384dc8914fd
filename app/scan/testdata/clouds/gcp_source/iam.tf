resource "google_project_iam_member" "owner" {
  project = var.project
  role    = "roles/owner"
  member  = "user:founder@acme.example"
}

resource "google_project_iam_binding" "editors" {
  project = var.project
  role    = "roles/editor"
  members = [
    "group:platform@acme.example",
    "serviceAccount:ci@${var.project}.iam.gserviceaccount.com",
  ]
}

resource "google_project_iam_member" "viewer" {
  project = var.project
  role    = "roles/viewer"
  member  = "group:everyone@acme.example"
}

resource "google_folder_iam_member" "ci" {
  folder = "folders/123456789"
  role   = "roles/resourcemanager.folderViewer"
  member = "serviceAccount:ci@${var.project}.iam.gserviceaccount.com"
}

resource "google_organization_iam_policy" "org" {
  org_id = "987654321"
  policy_data = jsonencode({
    bindings = [
      { members = ["user:ceo@acme.example"], role = "roles/owner" },
      { members = ["domain:acme.example"], role = "roles/browser" },
    ]
  })
}
