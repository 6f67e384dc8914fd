variable "name" {
  type = string
}

variable "ports" {
  type = list(number)
}

variable "db" {
  type = object({ public = bool, name = string })
}

resource "aws_security_group" "this" {
  name = var.name

  dynamic "ingress" {
    for_each = var.ports
    iterator = port
    content {
      from_port   = port.value
      to_port     = port.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}

module "db" {
  source = "./modules/db"
  name   = var.db.name
  public = var.db.public
}

output "group_id" {
  value = aws_security_group.this.id
}
