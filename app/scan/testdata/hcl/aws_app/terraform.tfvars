env = "prod"
buckets = {
  logs   = { public = false }
  assets = { public = true, encrypted = false }
}
public_db = "true"
