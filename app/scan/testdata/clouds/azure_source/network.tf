locals {
  web_rules = {
    ssh       = { priority = 100, direction = "Inbound", access = "Allow", protocol = "Tcp", source = "*", port = "22" }
    https     = { priority = 110, direction = "Inbound", access = "Allow", protocol = "Tcp", source = "Internet", port = "443" }
    deny-rdp  = { priority = 120, direction = "Inbound", access = "Deny", protocol = "Tcp", source = "*", port = "3389" }
    from-vnet = { priority = 130, direction = "Inbound", access = "Allow", protocol = "*", source = "VirtualNetwork", port = "*" }
    out       = { priority = 100, direction = "Outbound", access = "Allow", protocol = "*", source = "*", port = "*" }
  }
}

resource "azurerm_network_security_group" "web" {
  name                = "acme-web-nsg"
  resource_group_name = var.resource_group
  location            = var.location

  dynamic "security_rule" {
    for_each = local.web_rules
    content {
      name                       = security_rule.key
      priority                   = security_rule.value.priority
      direction                  = security_rule.value.direction
      access                     = security_rule.value.access
      protocol                   = security_rule.value.protocol
      source_port_range          = "*"
      destination_port_range     = security_rule.value.port
      source_address_prefix      = security_rule.value.source
      destination_address_prefix = "*"
    }
  }
}

resource "azurerm_network_security_group" "db" {
  name                = "acme-db-nsg"
  resource_group_name = var.resource_group
  location            = var.location
}

resource "azurerm_network_security_rule" "sql_from_internet" {
  name                        = "sql"
  priority                    = 100
  direction                   = "Inbound"
  access                      = "Allow"
  protocol                    = "Tcp"
  source_port_range           = "*"
  destination_port_range      = "1433"
  source_address_prefix       = "Internet"
  destination_address_prefix  = "*"
  resource_group_name         = var.resource_group
  network_security_group_name = azurerm_network_security_group.db.name
}

resource "azurerm_network_security_rule" "debug_all" {
  name                        = "debug"
  priority                    = 4000
  direction                   = "Inbound"
  access                      = "Allow"
  protocol                    = "*"
  source_port_range           = "*"
  destination_port_range      = "*"
  source_address_prefixes     = ["0.0.0.0/0", "::/0"]
  destination_address_prefix  = "*"
  resource_group_name         = var.resource_group
  network_security_group_name = azurerm_network_security_group.db.name
}

resource "azurerm_network_security_rule" "mgmt" {
  name                        = "mgmt"
  priority                    = 200
  direction                   = "Inbound"
  access                      = "Allow"
  protocol                    = "Tcp"
  source_port_range           = "*"
  destination_port_ranges     = ["8080-8090", "9000"]
  source_address_prefix       = "Any"
  destination_address_prefix  = "*"
  resource_group_name         = var.resource_group
  network_security_group_name = azurerm_network_security_group.db.name
}
