resource "azurerm_role_definition" "super" {
  name  = "acme-super"
  scope = local.subscription
  permissions {
    actions = ["*"]
  }
}

resource "azurerm_role_definition" "rg_admin" {
  name  = "acme-rg-admin"
  scope = local.rg_scope
  permissions {
    actions = ["*"]
  }
}

resource "azurerm_role_definition" "almost_owner" {
  name              = "acme-almost-owner"
  scope             = local.subscription
  assignable_scopes = [local.subscription]
  permissions {
    actions     = ["*"]
    not_actions = ["Microsoft.Authorization/*/Delete", "Microsoft.Authorization/*/Write"]
  }
}

resource "azurerm_role_definition" "access_admin" {
  name  = "acme-access-admin"
  scope = local.subscription
  permissions {
    actions = ["Microsoft.Authorization/*", "Microsoft.Resources/subscriptions/resourceGroups/read"]
  }
}

resource "azurerm_role_definition" "vm_operator" {
  name  = "acme-vm-operator"
  scope = local.rg_scope
  permissions {
    actions = ["Microsoft.Compute/*", "Microsoft.Network/networkInterfaces/read", "Microsoft.Storage/storageAccounts/*"]
  }
}

resource "azurerm_role_definition" "reader" {
  name  = "acme-reader"
  scope = local.subscription
  permissions {
    actions = ["*/read"]
  }
}
