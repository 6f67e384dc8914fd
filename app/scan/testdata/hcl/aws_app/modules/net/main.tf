variable "vpc_cidr" {
  type = string
}

variable "open_to" {
  type = list(string)
}

resource "aws_security_group" "db" {
  name        = "db"
  description = "database in ${var.vpc_cidr}"
}

resource "aws_vpc_security_group_ingress_rule" "internal" {
  security_group_id = aws_security_group.db.id
  cidr_ipv4         = var.vpc_cidr
  from_port         = 5432
  to_port           = 5432
  ip_protocol       = "tcp"
}

resource "aws_vpc_security_group_ingress_rule" "everyone" {
  security_group_id = aws_security_group.db.id
  cidr_ipv4         = var.open_to[0]
  ip_protocol       = "-1"
}

output "db_group_id" {
  value = aws_security_group.db.id
}
