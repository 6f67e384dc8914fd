# Modules called with for_each, a module inside a module, a JSON file,
# policies from file() and from aws_iam_policy_document, functions, and
# resources whose count or for_each cannot be known before apply.

variable "services" {
  type = map(object({
    public_db = optional(bool, false)
    ports     = optional(list(number), [])
  }))
  default = {
    api    = { ports = [443] }
    admin  = { public_db = true, ports = [22, 443] }
    worker = {}
  }
}

variable "replicas" {
  type = number
}

locals {
  settings = jsondecode(file("${path.module}/policies/settings.json"))
  region   = lookup(local.settings, "region", "eu-west-1")
  owner    = coalesce(try(local.settings.owner, null), "platform")
  zones    = toset([for z in ["a", "b", "a"] : "${local.region}${z}"])
}

module "svc" {
  source   = "./modules/svc"
  for_each = var.services
  name     = each.key
  ports    = each.value.ports
  db       = { public = each.value.public_db, name = "${each.key}-db" }
}

resource "aws_s3_bucket" "site" {
  bucket = "site-${local.owner}"
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = data.aws_iam_policy_document.site.json
}

data "aws_iam_policy_document" "site" {
  statement {
    sid       = "Public"
    actions   = ["s3:GetObject"]
    resources = ["arn:aws:s3:::site-${local.owner}/*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
  }
}

resource "aws_iam_policy" "from_file" {
  name   = "from-file"
  policy = file("policies/admin.json")
}

# Unknown before apply: listed as not checked, no finding.
resource "aws_security_group" "per_replica" {
  count = var.replicas
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["0.0.0.0/0"]
  }
}

resource "aws_security_group" "zones" {
  for_each = local.zones
  name     = "zone-${each.key}"
  ingress {
    from_port   = 80
    to_port     = 80
    protocol    = "tcp"
    cidr_blocks = [element(tolist(["10.0.0.0/16", "0.0.0.0/0"]), 0)]
  }
}
