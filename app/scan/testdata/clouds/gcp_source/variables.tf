variable "project" {
  type    = string
  default = "acme-prod"
}

variable "location" {
  type    = string
  default = "EU"
}

variable "ssh_sources" {
  type    = list(string)
  default = ["10.0.0.0/8"]
}
