locals {
  subscription = "/subscriptions/${var.subscription_id}"
  rg_scope     = "${local.subscription}/resourceGroups/${var.resource_group}"
}
