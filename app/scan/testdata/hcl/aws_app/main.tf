locals {
  name_prefix = "${var.env}-app"
  tags        = merge({ env = var.env }, { owner = "platform" })
  open        = ["0.0.0.0/0"]
}

resource "aws_s3_bucket" "b" {
  for_each = var.buckets
  bucket   = format("%s-%s", local.name_prefix, each.key)
  tags     = local.tags
}

resource "aws_s3_bucket_acl" "b" {
  for_each = { for k, v in var.buckets : k => v if v.public }
  bucket   = aws_s3_bucket.b[each.key].id
  acl      = "public-read"
}

resource "aws_s3_bucket_server_side_encryption_configuration" "b" {
  for_each = { for k, v in var.buckets : k => v if v.encrypted }
  bucket   = aws_s3_bucket.b[each.key].id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm = "aws:kms"
    }
  }
}

resource "aws_security_group" "admin" {
  name = "${local.name_prefix}-admin"

  dynamic "ingress" {
    for_each = var.admin_ports
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = local.open
    }
  }
}

# Unknown until apply: the scanner must not guess.
resource "aws_security_group" "trusted" {
  name = "trusted"
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = [var.trusted_cidr]
  }
}

resource "aws_db_instance" "public" {
  count               = var.public_db ? 1 : 0
  identifier          = "${local.name_prefix}-db"
  publicly_accessible = true
  storage_encrypted   = true
}

resource "aws_db_instance" "never" {
  count               = var.public_db ? 0 : 1
  identifier          = "never"
  publicly_accessible = true
  storage_encrypted   = true
}

resource "aws_iam_role_policy" "deploy" {
  role   = "deploy"
  policy = data.aws_iam_policy_document.deploy.json
}

data "aws_iam_policy_document" "deploy" {
  statement {
    actions   = ["*"]
    resources = ["*"]
  }
}

module "net" {
  source   = "./modules/net"
  vpc_cidr = cidrsubnet("10.0.0.0/8", 8, 1)
  open_to  = local.open
}

module "remote" {
  source  = "terraform-aws-modules/s3-bucket/aws"
  version = "4.1.0"
}

resource "aws_security_group_rule" "db_from_anywhere" {
  type              = "ingress"
  from_port         = 5432
  to_port           = 5432
  protocol          = "tcp"
  cidr_blocks       = ["0.0.0.0/0"]
  security_group_id = module.net.db_group_id
}
