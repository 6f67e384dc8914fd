variable "env" {
  type = string
}

variable "buckets" {
  type = map(object({
    public    = bool
    encrypted = optional(bool, true)
  }))
  default = {}
}

variable "admin_ports" {
  type    = list(number)
  default = [22]
}

variable "public_db" {
  type    = bool
  default = false
}

# No default and no tfvars value: unknown, never a guess.
variable "trusted_cidr" {
  type = string
}
