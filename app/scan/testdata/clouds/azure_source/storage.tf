# Azure Storage: the same resources as ../azure_plan.json.

resource "azurerm_storage_account" "public" {
  name                     = "acmepublicweb"
  resource_group_name      = var.resource_group
  location                 = var.location
  account_tier             = "Standard"
  account_replication_type = "GRS"
  # allow_nested_items_to_be_public left out: the provider's default is true
}

resource "azurerm_storage_container" "assets" {
  name                  = "assets"
  storage_account_id    = azurerm_storage_account.public.id
  container_access_type = "blob"
}

resource "azurerm_storage_container" "private" {
  name                  = "private"
  storage_account_id    = azurerm_storage_account.public.id
  container_access_type = "private"
}

resource "azurerm_storage_container" "defaulted" {
  name               = "defaulted"
  storage_account_id = azurerm_storage_account.public.id
}

resource "azurerm_storage_account" "locked" {
  name                            = "acmelocked"
  resource_group_name             = var.resource_group
  location                        = var.location
  account_tier                    = "Standard"
  account_replication_type        = "GRS"
  allow_nested_items_to_be_public = false
}

resource "azurerm_storage_container" "exports" {
  name                  = "exports"
  storage_account_id    = azurerm_storage_account.locked.id
  container_access_type = "container"
}

resource "terraform_data" "access" {
  input = "blob"
}

resource "azurerm_storage_container" "computed" {
  name                  = "computed"
  storage_account_id    = azurerm_storage_account.public.id
  container_access_type = terraform_data.access.output # known only after apply
}
