variable "subscription_id" {
  type    = string
  default = "00000000-0000-0000-0000-000000000000"
}

variable "resource_group" {
  type    = string
  default = "acme-prod"
}

variable "location" {
  type    = string
  default = "westeurope"
}
