resource "azurerm_mssql_server" "main" {
  name                = "acme-sql"
  resource_group_name = var.resource_group
  location            = var.location
  version             = "12.0"
  administrator_login = "sqladmin"
  minimum_tls_version = "1.2"
  # public_network_access_enabled left out: the provider's default is true
}

resource "azurerm_mssql_firewall_rule" "anywhere" {
  name             = "anywhere"
  server_id        = azurerm_mssql_server.main.id
  start_ip_address = "0.0.0.0"
  end_ip_address   = "255.255.255.255"
}

resource "azurerm_mssql_firewall_rule" "azure_services" {
  name             = "AllowAllWindowsAzureIps"
  server_id        = azurerm_mssql_server.main.id
  start_ip_address = "0.0.0.0"
  end_ip_address   = "0.0.0.0"
}

resource "azurerm_mssql_server" "private" {
  name                          = "acme-sql-private"
  resource_group_name           = var.resource_group
  location                      = var.location
  version                       = "12.0"
  administrator_login           = "sqladmin"
  public_network_access_enabled = false
}

resource "azurerm_mssql_firewall_rule" "private_anywhere" {
  name             = "anywhere"
  server_id        = azurerm_mssql_server.private.id
  start_ip_address = "0.0.0.0"
  end_ip_address   = "255.255.255.255"
}

resource "azurerm_mssql_server" "services_only" {
  name                = "acme-sql-services"
  resource_group_name = var.resource_group
  location            = var.location
  version             = "12.0"
  administrator_login = "sqladmin"
}

resource "azurerm_mssql_firewall_rule" "services_only" {
  name             = "AllowAllWindowsAzureIps"
  server_id        = azurerm_mssql_server.services_only.id
  start_ip_address = "0.0.0.0"
  end_ip_address   = "0.0.0.0"
}

resource "azurerm_mssql_database" "orders" {
  name                                = "orders"
  server_id                           = azurerm_mssql_server.main.id
  sku_name                            = "S1"
  transparent_data_encryption_enabled = false
}

resource "azurerm_mssql_database" "billing" {
  name      = "billing"
  server_id = azurerm_mssql_server.main.id
  sku_name  = "S1"
}

resource "azurerm_postgresql_flexible_server" "pg" {
  name                = "acme-pg"
  resource_group_name = var.resource_group
  location            = var.location
  version             = "16"
  sku_name            = "GP_Standard_D2s_v3"
  storage_mb          = 65536
}

resource "azurerm_postgresql_flexible_server_firewall_rule" "all" {
  name             = "all"
  server_id        = azurerm_postgresql_flexible_server.pg.id
  start_ip_address = "0.0.0.0"
  end_ip_address   = "255.255.255.255"
}

resource "azurerm_mysql_flexible_server" "vnet" {
  name                = "acme-mysql"
  resource_group_name = var.resource_group
  location            = var.location
  version             = "8.0.21"
  sku_name            = "GP_Standard_D2ds_v4"
  delegated_subnet_id = "${local.rg_scope}/providers/Microsoft.Network/virtualNetworks/acme/subnets/mysql"
}

resource "azurerm_mysql_flexible_server_firewall_rule" "all" {
  name                = "all"
  resource_group_name = var.resource_group
  server_name         = azurerm_mysql_flexible_server.vnet.name
  start_ip_address    = "0.0.0.0"
  end_ip_address      = "255.255.255.255"
}

resource "azurerm_resource_group" "main" {
  name     = var.resource_group
  location = var.location
}
