variable "name" {
  type = string
}

variable "public" {
  type    = bool
  default = false
}

resource "aws_db_instance" "this" {
  identifier          = var.name
  publicly_accessible = var.public
}
