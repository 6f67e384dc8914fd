# Split S3 resources of the AWS provider v4+, a rule added to a group
# apart, and policies: the same resources are in plan.json, which must
# give the same findings.

variable "site_public" {
  type    = bool
  default = true
}

resource "aws_s3_bucket" "site" {
  bucket = "site-bucket"
}

resource "aws_s3_bucket_public_access_block" "site" {
  count                   = var.site_public ? 0 : 1
  bucket                  = aws_s3_bucket.site.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_policy" "site" {
  bucket = aws_s3_bucket.site.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = "s3:GetObject"
      Resource  = "arn:aws:s3:::site-bucket/*"
    }]
  })
}

resource "aws_s3_bucket" "data" {
  bucket = "data-bucket"
}

resource "aws_s3_bucket_acl" "data" {
  bucket = "data-bucket"
  acl    = "private"
}

resource "aws_security_group" "web" {
  name = "web"
  ingress {
    from_port   = 443
    to_port     = 443
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
}

resource "aws_security_group_rule" "ssh" {
  type              = "ingress"
  from_port         = 22
  to_port           = 22
  protocol          = "tcp"
  cidr_blocks       = ["0.0.0.0/0"]
  security_group_id = aws_security_group.web.id
}

resource "aws_db_instance" "main" {
  identifier          = "main"
  publicly_accessible = false
  storage_encrypted   = false
}

resource "aws_iam_policy" "ops" {
  name = "ops"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "s3:*", Resource = "*" }]
  })
}
